/* Source-level profile of the afdo receiver: machine counts (executed
 * blocks and taken transfers) turned into AutoFDO's model, a forest of
 * function instances keyed by (inline stack, line offset, discriminator).
 *
 * Rules (autofdo's create_gcov's, with exact counts, except the gcc count):
 * - an instruction's count is the number of executed blocks holding it;
 * - a position (the innermost instance of the instruction's DWARF inline
 *   stack, its line minus that instance's declaration line, and in LLVM
 *   mode its discriminator) gets the MAXIMUM over its instructions: a line
 *   split over several blocks ran as often as its hottest part (LLVM,
 *   text and lines=max use it);
 * - inlined instances hang below their caller at the call site's
 *   (DW_AT_call_line minus the caller's declaration line);
 * - a call (a transfer from a linking jump to a function's first address,
 *   or a tail call: any other jump there from another function) adds to
 *   the callee's head count and to the call position's targets
 *   (callees without DWARF are named by their ELF symbol);
 * - totals are sums of every position's maximum below an instance.
 * Instructions without a line or an enclosing subprogram (libraries built
 * without -g) and positions whose line precedes the declaration line
 * (unrepresentable in both formats) are left out.
 * The count written for gcc of each position: afdo_mid.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afdo.h"
#include "ltpipe/error.h"
#include "ltpipe/insn.h"

#define MAX_DEPTH 64

/* FNV-1a of a name, for the string index. */
static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* Inserts index k into the string hash (which has room). */
static void hash_place(struct afdo_prof *p, uint32_t k)
{
	size_t i = (size_t)str_hash(p->str[k]) & (p->caphash - 1);
	while (p->hash[i])
		i = (i + 1) & (p->caphash - 1);
	p->hash[i] = k;
}

/* Returns the index of `s` in the string table, adding it if new, or -1
 * when out of memory. */
static long intern(struct afdo_prof *p, const char *s)
{
	if (p->caphash) {
		size_t i = (size_t)str_hash(s) & (p->caphash - 1);
		while (p->hash[i]) {
			if (strcmp(p->str[p->hash[i]], s) == 0)
				return p->hash[i];
			i = (i + 1) & (p->caphash - 1);
		}
	}
	if (p->nstr == p->capstr) {
		size_t cap = p->capstr ? p->capstr * 2 : 64;
		char **v = realloc(p->str, cap * sizeof(*v));
		if (!v)
			return -1;
		p->str = v;
		p->capstr = cap;
	}
	if ((p->nstr + 1) * 2 > p->caphash) {
		size_t cap = p->caphash ? p->caphash * 2 : 128;
		uint32_t *h = calloc(cap, sizeof(*h));
		if (!h)
			return -1;
		free(p->hash);
		p->hash = h;
		p->caphash = cap;
		for (size_t k = 1; k < p->nstr; k++)
			hash_place(p, (uint32_t)k);
	}
	char *dup = strdup(s);
	if (!dup)
		return -1;
	p->str[p->nstr] = dup;
	if (p->nstr)
		hash_place(p, (uint32_t)p->nstr);
	return (long)p->nstr++;
}

/* Returns a new empty instance (see afdo.h). */
struct afdo_inst *afdo_inst_new(uint32_t name, uint32_t decl_line)
{
	struct afdo_inst *f = calloc(1, sizeof(*f));
	if (f) {
		f->name = name;
		f->decl_line = decl_line;
	}
	return f;
}

/* Frees an instance and everything below it (see afdo.h). */
void afdo_inst_free(struct afdo_inst *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->npos; i++)
		free(f->pos[i].tgt);
	for (size_t i = 0; i < f->nsite; i++)
		afdo_inst_free(f->site[i].inst);
	free(f->pos);
	free(f->site);
	free(f);
}

/* Returns the index in the name-sorted instances v[0..n) of the one named
 * `name` (*found = 1), or where it would go (*found = 0). */
size_t afdo_inst_find(const struct afdo_prof *p, struct afdo_inst *const *v,
                      size_t n, uint32_t name, int *found)
{
	size_t lo = 0, hi = n;
	*found = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(p->str[v[mid]->name], p->str[name]);
		if (c == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Finds or inserts an instance by name (contract in afdo.h). */
struct afdo_inst *afdo_inst_get(const struct afdo_prof *p,
                                struct afdo_inst ***v, size_t *n,
                                size_t *cap, uint32_t name,
                                uint32_t decl_line)
{
	int found;
	size_t at = afdo_inst_find(p, *v, *n, name, &found);
	if (found)
		return (*v)[at];
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 32;
		struct afdo_inst **w = realloc(*v, c * sizeof(*w));
		if (!w)
			return NULL;
		*v = w;
		*cap = c;
	}
	struct afdo_inst *f = afdo_inst_new(name, decl_line);
	if (!f)
		return NULL;
	memmove(*v + at + 1, *v + at, (*n - at) * sizeof(**v));
	(*v)[at] = f;
	(*n)++;
	return f;
}

/* Returns the top-level instance named `name`, creating it, or NULL. */
static struct afdo_inst *top_get(struct afdo_prof *p, uint32_t name,
                                 uint32_t decl_line)
{
	return afdo_inst_get(p, &p->top, &p->ntop, &p->captop, name,
	                     decl_line);
}

/* Returns the inlined instance of `name` at call site (off, discr) of f,
 * creating it, or NULL. Sites are ordered by (off, discr, name index). */
struct afdo_inst *afdo_site_get(struct afdo_inst *f, uint32_t off,
                                uint32_t discr, uint32_t name,
                                uint32_t decl_line)
{
	size_t lo = 0, hi = f->nsite;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct afdo_site *s = &f->site[mid];
		int c = s->off != off ? (s->off < off ? -1 : 1)
		      : s->discr != discr ? (s->discr < discr ? -1 : 1)
		      : s->inst->name != name ? (s->inst->name < name ? -1 : 1)
		      : 0;
		if (c == 0)
			return s->inst;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (f->nsite == f->capsite) {
		size_t cap = f->capsite ? f->capsite * 2 : 4;
		struct afdo_site *v = realloc(f->site, cap * sizeof(*v));
		if (!v)
			return NULL;
		f->site = v;
		f->capsite = cap;
	}
	struct afdo_inst *c = afdo_inst_new(name, decl_line);
	if (!c)
		return NULL;
	memmove(f->site + lo + 1, f->site + lo, (f->nsite - lo) * sizeof(*f->site));
	f->site[lo] = (struct afdo_site){off, discr, c};
	f->nsite++;
	return c;
}

/* Returns the index of position (off, discr) in f's sorted array, or
 * where it would go; *found says which. */
static size_t pos_index(const struct afdo_inst *f, uint32_t off,
                        uint32_t discr, int *found)
{
	size_t lo = 0, hi = f->npos;
	*found = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct afdo_pos *q = &f->pos[mid];
		if (q->off == off && q->discr == discr) {
			*found = 1;
			return mid;
		}
		if (q->off < off || (q->off == off && q->discr < discr))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Returns the existing position (off, discr) of f, or NULL (contract in
 * afdo.h). */
struct afdo_pos *afdo_pos_find(struct afdo_inst *f, uint32_t off,
                               uint32_t discr)
{
	int found;
	size_t i = pos_index(f, off, discr, &found);
	return found ? &f->pos[i] : NULL;
}

/* Returns position (off, discr) of f, creating it with count 0, or NULL. */
struct afdo_pos *afdo_pos_get(struct afdo_inst *f, uint32_t off,
                              uint32_t discr)
{
	int found;
	size_t lo = pos_index(f, off, discr, &found);
	if (found)
		return &f->pos[lo];
	if (f->npos == f->cappos) {
		size_t cap = f->cappos ? f->cappos * 2 : 8;
		struct afdo_pos *v = realloc(f->pos, cap * sizeof(*v));
		if (!v)
			return NULL;
		f->pos = v;
		f->cappos = cap;
	}
	memmove(f->pos + lo + 1, f->pos + lo, (f->npos - lo) * sizeof(*f->pos));
	f->pos[lo] = (struct afdo_pos){.off = off, .discr = discr};
	f->npos++;
	return &f->pos[lo];
}

/* Code with line rows but no subprogram covering it (gcc -O2's
 * identical code folding may emit a function's address-taken twin as a
 * copy of the kept body, its DWARF subprogram without an address range):
 * the ELF symbol holding addr names it, as addr2line and create_gcov's
 * symbolizer do, and the line of its first row stands for the
 * declaration's. Fills *f (a root instance, no call site) and returns 1,
 * or returns 0 when there is no such symbol or row. */
static int symbol_root(const struct afdo_input *in, uint64_t addr,
                       struct lt_inline_func *f)
{
	const struct lt_sym *s = lt_symtab_lookup(in->syms, addr);
	const struct lt_line_row *r0 = s ? lt_dwarf_line(in->dw, s->start) :
				      NULL;
	if (!s || !r0 || !r0->line)
		return 0;
	memset(f, 0, sizeof(*f));
	f->name = s->name;
	f->decl_file = r0->file;
	f->decl_line = r0->line;
	f->parent = -1;
	f->call_file = LT_DWARF_NO_FILE;
	return 1;
}

/* Finds (creating) the position of the instruction at addr (see
 * afdo.h): its inline stack from the root down, then its line. */
int afdo_position_of(struct afdo_prof *p, const struct afdo_input *in,
                     uint64_t addr, struct afdo_pos **out,
                     struct afdo_inst **inst)
{
	const struct lt_dwarf *dw = in->dw;
	const struct lt_inline_func *st[MAX_DEPTH];
	struct lt_inline_func root;
	int d = lt_dwarf_inline_stack(dw, addr, st, MAX_DEPTH);
	const struct lt_line_row *row = lt_dwarf_line(dw, addr);
	if (d <= 0 && row && symbol_root(in, addr, &root)) {
		st[0] = &root;
		d = 1;
	}
	if (d <= 0 || d > MAX_DEPTH || !row || !row->line)
		return AFDO_WALK_NONE;
	if (row->line < st[0]->decl_line ||
	    row->line - st[0]->decl_line > 0xffff)
		return AFDO_WALK_NONE;
	for (int k = d - 1; k > 0; k--)
		if (!st[k - 1]->call_line ||
		    st[k - 1]->call_line < st[k]->decl_line ||
		    st[k - 1]->call_line - st[k]->decl_line > 0xffff)
			return AFDO_WALK_NONE;
	long name = intern(p, st[d - 1]->name);
	if (name < 0)
		return LT_ERR_NOMEM;
	struct afdo_inst *f = top_get(p, (uint32_t)name, st[d - 1]->decl_line);
	for (int k = d - 1; f && k > 0; k--) {
		const struct lt_inline_func *callee = st[k - 1];
		name = intern(p, callee->name);
		if (name < 0)
			return LT_ERR_NOMEM;
		f = afdo_site_get(f, callee->call_line - st[k]->decl_line,
		             p->discr ? callee->call_discriminator : 0,
		             (uint32_t)name, callee->decl_line);
	}
	if (!f)
		return LT_ERR_NOMEM;
	*inst = f;
	*out = afdo_pos_get(f, row->line - st[0]->decl_line,
	               p->discr ? row->discriminator : 0);
	return *out ? AFDO_WALK_OK : LT_ERR_NOMEM;
}

int afdo_is_call(const struct lt_image *img, uint64_t addr)
{
	const struct lt_region *r = lt_image_region(img, addr);
	if (!r)
		return 0;
	uint8_t link = r->info[lt_region_idx(r, addr)].link;
	return link == LT_LINK_CALL || link == LT_LINK_CORO;
}

/* Adds n calls of callee to q's call targets (contract in afdo.h). */
int afdo_target_add(struct afdo_pos *q, uint32_t callee, uint64_t n)
{
	size_t i = 0;
	while (i < q->ntgt && q->tgt[i].name < callee)
		i++;
	if (i < q->ntgt && q->tgt[i].name == callee) {
		q->tgt[i].count += n;
		return 0;
	}
	struct afdo_target *v = realloc(q->tgt, (q->ntgt + 1) * sizeof(*v));
	if (!v)
		return LT_ERR_NOMEM;
	q->tgt = v;
	memmove(v + i + 1, v + i, (q->ntgt - i) * sizeof(*v));
	v[i] = (struct afdo_target){callee, n};
	q->ntgt++;
	return 0;
}

/* The top-level instance of the function starting at addr (a symbol's
 * first address with DWARF), or NULL with *rc 0 when there is none. */
static struct afdo_inst *function_at(struct afdo_prof *p,
                                     const struct afdo_input *in,
                                     uint64_t addr, int *rc)
{
	const struct lt_inline_func *st[MAX_DEPTH];
	*rc = 0;
	const struct lt_sym *s = lt_symtab_lookup(in->syms, addr);
	if (!s || s->start != addr)
		return NULL;
	struct lt_inline_func root;
	int d = lt_dwarf_inline_stack(in->dw, addr, st, MAX_DEPTH);
	if (d <= 0 && symbol_root(in, addr, &root)) {
		st[0] = &root;
		d = 1;
	}
	if (d <= 0 || d > MAX_DEPTH)
		return NULL;
	long name = intern(p, st[d - 1]->name);
	struct afdo_inst *f = name < 0 ? NULL
	                    : top_get(p, (uint32_t)name, st[d - 1]->decl_line);
	if (!f)
		*rc = LT_ERR_NOMEM;
	return f;
}

/* Sets the total of f and every instance below it: its position counts
 * plus its callees' (contract in afdo.h). */
uint64_t afdo_sum_totals(struct afdo_inst *f)
{
	uint64_t t = 0;
	for (size_t i = 0; i < f->npos; i++)
		t += f->pos[i].count;
	for (size_t i = 0; i < f->nsite; i++)
		t += afdo_sum_totals(f->site[i].inst);
	f->total = t;
	return t;
}

/* Per-instruction counts: every block adds its count to each of its
 * instructions (walked with the image's length table). */
static int insn_counts(const struct afdo_input *in, struct afdo_map *insn)
{
	for (size_t i = 0; i < in->nblk; i++) {
		const struct afdo_pair *b = &in->blk[i];
		const struct lt_region *r = lt_image_region(in->img, b->a);
		uint64_t a = b->a;
		while (r && a <= b->b && a < r->end) {
			if (afdo_map_add(insn, a, 0, b->count) < 0)
				return LT_ERR_NOMEM;
			a += r->info[lt_region_idx(r, a)].len;
		}
	}
	return 0;
}

/* Returns 1 if the instruction at addr of img is an indirect jump. */
static int is_indirect(const struct lt_image *img, uint64_t addr)
{
	const struct lt_region *r = lt_image_region(img, addr);
	return r && r->info[lt_region_idx(r, addr)].cls == LT_INSN_IJUMP;
}

int afdo_prof_build(struct afdo_prof *p, const struct afdo_input *in,
                    int discr, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->discr = discr;
	struct afdo_map insn = {0};
	struct afdo_pair *ic = NULL;
	size_t nic = 0;
	int rc = intern(p, "") < 0 ? LT_ERR_NOMEM : 0;
	if (!rc)
		rc = insn_counts(in, &insn);
	if (!rc)
		rc = afdo_map_sorted(&insn, &ic, &nic);
	struct afdo_mids mids = {0};
	for (size_t i = 0; !rc && i < nic; i++) {
		struct afdo_pos *q;
		struct afdo_inst *f;
		int w = afdo_position_of(p, in, ic[i].a, &q, &f);
		if (w < 0) {
			rc = w;
		} else if (w == AFDO_WALK_OK) {
			if (ic[i].count > q->count)
				q->count = ic[i].count;
			rc = afdo_mid_record(&mids, p, in, ic, nic, i, f, q->off,
			                     q->discr);
		}
	}
	if (!rc)
		afdo_mid_settle(&mids, in->img);
	afdo_mid_free(&mids);
	for (size_t i = 0; !rc && i < in->nbr; i++) {
		const struct afdo_pair *b = &in->br[i];
		const struct lt_sym *s = lt_symtab_lookup(in->syms, b->b);
		if (!s || s->start != b->b)
			continue;
		/* A plain jump from another function to this one's entry is a
		 * tail call: it enters the function like a call (gcc's entry
		 * count, the head, counts it), and a head of 0 would make gcc
		 * take a function entered only that way as never run. */
		if (!afdo_is_call(in->img, b->a) &&
		    lt_symtab_lookup(in->syms, b->a) == s)
			continue;
		/* A callee without DWARF (a library) still is a call target,
		 * named by its symbol, but has no instance to take a head. */
		struct afdo_inst *callee = function_at(p, in, b->b, &rc);
		long name = callee ? (long)callee->name : intern(p, s->name);
		if (rc || name < 0) {
			rc = LT_ERR_NOMEM;
			break;
		}
		if (callee)
			callee->head += b->count;
		struct afdo_pos *q;
		struct afdo_inst *fi;
		int w = afdo_position_of(p, in, b->a, &q, &fi);
		if (w < 0)
			rc = w;
		else if (w == AFDO_WALK_OK)
			rc = afdo_target_add(q, (uint32_t)name, b->count);
		if (w == AFDO_WALK_OK && is_indirect(in->img, b->a))
			q->icall = 1;
	}
	/* A handler a trap enters (a signal handler, an interrupt
	 * handler) runs as if called: without the head gcc would take it
	 * as never run. The trapping code gets no call target. */
	for (size_t i = 0; !rc && i < in->ntrap; i++) {
		const struct lt_sym *s = lt_symtab_lookup(in->syms,
		                                          in->trap[i].b);
		if (!s || s->start != in->trap[i].b)
			continue;
		struct afdo_inst *f = function_at(p, in, in->trap[i].b, &rc);
		if (f)
			f->head += in->trap[i].count;
	}
	if (!rc && in->entry) {
		struct afdo_inst *f = function_at(p, in, in->entry, &rc);
		if (f)
			f->head++;
	}
	for (size_t i = 0; !rc && i < p->ntop; i++)
		afdo_sum_totals(p->top[i]);
	free(ic);
	afdo_map_free(&insn);
	if (rc) {
		snprintf(err, errlen, "receiver afdo: out of memory");
		afdo_prof_free(p);
	}
	return rc;
}

void afdo_prof_free(struct afdo_prof *p)
{
	for (size_t i = 0; i < p->ntop; i++)
		afdo_inst_free(p->top[i]);
	for (size_t i = 0; i < p->nstr; i++)
		free(p->str[i]);
	free(p->top);
	free(p->str);
	free(p->hash);
	memset(p, 0, sizeof(*p));
}
