/* DWARF inline map: function instances (concrete subprograms and their
 * inlined subroutines) from .debug_info, flattened into disjoint spans that
 * each name the innermost instance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>

#include "dwarf_build.h"
#include "ltpipe/error.h"

/* Deepest DIE nesting followed; deeper trees are cut (bad DWARF). */
#define MAX_DIE_DEPTH 256

/* Longest abstract_origin / specification chain followed. */
#define MAX_ORIGIN_CHAIN 8

/* An address list of one DIE. */
struct pc_list {
	uint64_t (*r)[2]; /* [lo, hi) pairs */
	size_t n;         /* pairs in use */
	size_t cap;       /* pairs allocated */
};

/* Frees a libdwarf error if one was returned. */
static void drop_err(struct lt_dwarf_build *b, Dwarf_Error e)
{
	if (e)
		dwarf_dealloc_error(b->dbg, e);
}

/* Appends [lo, hi) to l unless empty. Returns 0 or LT_ERR_NOMEM. */
static int pc_add(struct pc_list *l, uint64_t lo, uint64_t hi)
{
	if (lo >= hi)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		void *p = realloc(l->r, cap * sizeof(*l->r));
		if (!p)
			return LT_ERR_NOMEM;
		l->r = p;
		l->cap = cap;
	}
	l->r[l->n][0] = lo;
	l->r[l->n][1] = hi;
	l->n++;
	return 0;
}

/* Reads the unsigned constant attribute `at` of die; 0 if absent. */
static uint64_t die_udata(struct lt_dwarf_build *b, Dwarf_Die die,
                          Dwarf_Half at, int *found)
{
	Dwarf_Attribute a;
	Dwarf_Error e = NULL;
	Dwarf_Unsigned v = 0;
	if (found)
		*found = 0;
	if (dwarf_attr(die, at, &a, &e) != DW_DLV_OK) {
		drop_err(b, e);
		return 0;
	}
	Dwarf_Signed sv = 0;
	if (dwarf_formudata(a, &v, &e) == DW_DLV_OK) {
		if (found)
			*found = 1;
	} else if (drop_err(b, e), e = NULL,
	           dwarf_formsdata(a, &sv, &e) == DW_DLV_OK && sv >= 0) {
		/* DW_FORM_implicit_const (gcc 12 uses it for call_file and
		 * decl_file) is only read by dwarf_formsdata. */
		v = (Dwarf_Unsigned)sv;
		if (found)
			*found = 1;
	} else {
		drop_err(b, e);
		v = 0;
	}
	dwarf_dealloc_attribute(a);
	return v;
}

/* DWARF 5 DW_AT_ranges (.debug_rnglists). */
static int ranges_v5(struct lt_dwarf_build *b, Dwarf_Attribute a,
                     struct pc_list *l)
{
	Dwarf_Half form;
	Dwarf_Unsigned val = 0, count = 0, goff;
	Dwarf_Off off;
	Dwarf_Rnglists_Head head = NULL;
	Dwarf_Error e = NULL;
	if (dwarf_whatform(a, &form, &e) != DW_DLV_OK)
		return lt_dwarf_fail(b, e, "DW_AT_ranges form");
	if (form == DW_FORM_rnglistx) {
		if (dwarf_formudata(a, &val, &e) != DW_DLV_OK)
			return lt_dwarf_fail(b, e, "DW_AT_ranges index");
	} else {
		if (dwarf_global_formref(a, &off, &e) != DW_DLV_OK)
			return lt_dwarf_fail(b, e, "DW_AT_ranges offset");
		val = off;
	}
	int rc = dwarf_rnglists_get_rle_head(a, form, val, &head, &count,
	                                     &goff, &e);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return lt_dwarf_fail(b, e, "range list");
	for (Dwarf_Unsigned i = 0; i < count && !rc; i++) {
		unsigned len, code;
		Dwarf_Unsigned r1, r2, c1, c2;
		Dwarf_Bool unavail = 0;
		if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code,
		                                      &r1, &r2, &unavail, &c1,
		                                      &c2, &e) != DW_DLV_OK) {
			rc = lt_dwarf_fail(b, e, "range list entry");
			break;
		}
		/* The cooked values already have the base applied. */
		switch (code) {
		case DW_RLE_offset_pair:
		case DW_RLE_startx_endx:
		case DW_RLE_startx_length:
		case DW_RLE_start_end:
		case DW_RLE_start_length:
			if (!unavail)
				rc = pc_add(l, c1, c2);
			break;
		default:
			break;
		}
	}
	dwarf_dealloc_rnglists_head(head);
	return rc;
}

/* DWARF 2-4 DW_AT_ranges (.debug_ranges), relative to the unit base. */
static int ranges_v4(struct lt_dwarf_build *b, Dwarf_Die die,
                     Dwarf_Attribute a, struct pc_list *l)
{
	Dwarf_Off off, real;
	Dwarf_Ranges *rg = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Unsigned bytes;
	Dwarf_Error e = NULL;
	if (dwarf_global_formref(a, &off, &e) != DW_DLV_OK)
		return lt_dwarf_fail(b, e, "DW_AT_ranges offset");
	int rc = dwarf_get_ranges_b(b->dbg, off, die, &real, &rg, &n, &bytes,
	                            &e);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return lt_dwarf_fail(b, e, "range list");
	uint64_t base = b->cu_base;
	rc = 0;
	for (Dwarf_Signed i = 0; i < n && !rc; i++) {
		if (rg[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = rg[i].dwr_addr2;
		else if (rg[i].dwr_type == DW_RANGES_ENTRY)
			rc = pc_add(l, base + rg[i].dwr_addr1,
			            base + rg[i].dwr_addr2);
	}
	dwarf_ranges_dealloc(b->dbg, rg, n);
	return rc;
}

/* Fills l with the addresses of die (low_pc/high_pc or DW_AT_ranges);
 * l->n stays 0 for a DIE without code. Returns 0 or an error. */
static int die_pcs(struct lt_dwarf_build *b, Dwarf_Die die, struct pc_list *l)
{
	Dwarf_Addr lo, hi;
	Dwarf_Half form;
	enum Dwarf_Form_Class cls;
	Dwarf_Error e = NULL;
	Dwarf_Attribute a;
	l->n = 0;
	if (dwarf_lowpc(die, &lo, &e) == DW_DLV_OK) {
		if (dwarf_highpc_b(die, &hi, &form, &cls, &e) != DW_DLV_OK) {
			drop_err(b, e);
			return 0;
		}
		if (cls == DW_FORM_CLASS_CONSTANT)
			hi += lo;
		return pc_add(l, lo, hi);
	}
	drop_err(b, e);
	e = NULL;
	if (dwarf_attr(die, DW_AT_ranges, &a, &e) != DW_DLV_OK) {
		drop_err(b, e);
		return 0;
	}
	int rc = b->version >= 5 ? ranges_v5(b, a, l) : ranges_v4(b, die, a, l);
	dwarf_dealloc_attribute(a);
	return rc;
}

/* Returns the DIE that `at` (a reference) of die points to, or NULL. */
static Dwarf_Die die_ref(struct lt_dwarf_build *b, Dwarf_Die die,
                         Dwarf_Half at)
{
	Dwarf_Attribute a;
	Dwarf_Error e = NULL;
	Dwarf_Off off;
	Dwarf_Die out = NULL;
	if (dwarf_attr(die, at, &a, &e) != DW_DLV_OK) {
		drop_err(b, e);
		return NULL;
	}
	if (dwarf_global_formref(a, &off, &e) != DW_DLV_OK ||
	    dwarf_offdie_b(b->dbg, off, 1, &out, &e) != DW_DLV_OK) {
		drop_err(b, e);
		out = NULL;
	}
	dwarf_dealloc_attribute(a);
	return out;
}

/* Reads the string attribute `at` of die, or NULL. */
static const char *die_str(struct lt_dwarf_build *b, Dwarf_Die die,
                           Dwarf_Half at)
{
	Dwarf_Attribute a;
	Dwarf_Error e = NULL;
	char *s = NULL;
	if (dwarf_attr(die, at, &a, &e) != DW_DLV_OK) {
		drop_err(b, e);
		return NULL;
	}
	if (dwarf_formstring(a, &s, &e) != DW_DLV_OK) {
		drop_err(b, e);
		s = NULL;
	}
	dwarf_dealloc_attribute(a);
	return s;
}

/* Fills name, decl_file and decl_line of f from die and the DIEs its
 * abstract_origin / specification chain leads to. A decl_file found in
 * another unit cannot be mapped through this unit's file table and is
 * left as LT_DWARF_NO_FILE. Returns 0 or LT_ERR_NOMEM. */
static int func_names(struct lt_dwarf_build *b, Dwarf_Die die,
                      struct lt_inline_func *f)
{
	const char *link = NULL, *plain = NULL;
	int have_line = 0, have_file = 0;
	Dwarf_Die cur = die;
	for (int k = 0; cur && k < MAX_ORIGIN_CHAIN; k++) {
		if (!link)
			link = die_str(b, cur, DW_AT_linkage_name);
		if (!link)
			link = die_str(b, cur, DW_AT_MIPS_linkage_name);
		if (!plain)
			plain = die_str(b, cur, DW_AT_name);
		if (!have_line)
			f->decl_line = (uint32_t)die_udata(b, cur,
			                                   DW_AT_decl_line,
			                                   &have_line);
		if (!have_file) {
			uint64_t fno = die_udata(b, cur, DW_AT_decl_file,
			                         &have_file);
			Dwarf_Off cuoff = 0;
			Dwarf_Error e = NULL;
			if (have_file &&
			    dwarf_CU_dieoffset_given_die(cur, &cuoff, &e) ==
			            DW_DLV_OK &&
			    cuoff == b->cu_off)
				f->decl_file = lt_dwarf_unit_file(b, fno);
			drop_err(b, e);
		}
		Dwarf_Die next = die_ref(b, cur, DW_AT_abstract_origin);
		if (!next)
			next = die_ref(b, cur, DW_AT_specification);
		if (cur != die)
			dwarf_dealloc_die(cur);
		cur = next;
	}
	if (cur && cur != die)
		dwarf_dealloc_die(cur);
	const char *n = link ? link : plain ? plain : "??";
	f->name = lt_dwarf_intern(b, n, strlen(n));
	return f->name ? 0 : LT_ERR_NOMEM;
}

/* Adds a function instance for die with the given parent (-1: root) and
 * its raw ranges from l. Returns its index, or a negative lt_error. */
static long func_add(struct lt_dwarf_build *b, Dwarf_Die die, long parent,
                     long root, const struct pc_list *l)
{
	struct lt_dwarf *d = b->d;
	if (d->nfuncs == b->func_cap) {
		size_t cap = b->func_cap ? b->func_cap * 2 : 256;
		void *p = realloc(d->func, cap * sizeof(*d->func));
		if (!p)
			return LT_ERR_NOMEM;
		d->func = p;
		b->func_cap = cap;
	}
	long idx = (long)d->nfuncs;
	struct lt_inline_func f = {
		.decl_file = LT_DWARF_NO_FILE, .parent = (int32_t)parent,
		.call_file = LT_DWARF_NO_FILE,
	};
	if (parent >= 0) {
		f.depth = d->func[parent].depth + 1;
		int found = 0;
		uint64_t cf = die_udata(b, die, DW_AT_call_file, &found);
		if (found)
			f.call_file = lt_dwarf_unit_file(b, cf);
		f.call_line = (uint32_t)die_udata(b, die, DW_AT_call_line, NULL);
		f.call_column = (uint32_t)die_udata(b, die, DW_AT_call_column,
		                                    NULL);
		f.call_discriminator = (uint32_t)die_udata(
		        b, die, DW_AT_GNU_discriminator, NULL);
	}
	if (func_names(b, die, &f))
		return LT_ERR_NOMEM;
	d->func[d->nfuncs++] = f;
	if (root < 0)
		root = idx;
	if (b->nraw + l->n > b->raw_cap) {
		size_t cap = b->raw_cap ? b->raw_cap : 1024;
		while (cap < b->nraw + l->n)
			cap *= 2;
		void *p = realloc(b->raw, cap * sizeof(*b->raw));
		if (!p)
			return LT_ERR_NOMEM;
		b->raw = p;
		b->raw_cap = cap;
	}
	for (size_t i = 0; i < l->n; i++) {
		struct lt_dwarf_raw *r = &b->raw[b->nraw++];
		r->lo = l->r[i][0];
		r->hi = l->r[i][1];
		r->func = (uint32_t)idx;
		r->root = (uint32_t)root;
		r->depth = f.depth;
	}
	return idx;
}

/* Walks die and its siblings. parent/root: the enclosing instance and its
 * tree's root, -1 outside any subprogram with code. */
static int walk(struct lt_dwarf_build *b, Dwarf_Die die, long parent,
                long root, int depth, struct pc_list *l)
{
	int rc = 0;
	while (die && !rc) {
		Dwarf_Half tag = 0;
		Dwarf_Error e = NULL;
		long p = parent, r = root;
		int descend = 0;
		if (dwarf_tag(die, &tag, &e) != DW_DLV_OK)
			rc = lt_dwarf_fail(b, e, "DIE tag");
		else if (tag == DW_TAG_subprogram) {
			rc = die_pcs(b, die, l);
			p = r = -1;
			if (!rc && l->n) {
				long i = func_add(b, die, -1, -1, l);
				if (i < 0)
					rc = (int)i;
				p = r = i;
			}
			descend = 1;
		} else if (tag == DW_TAG_inlined_subroutine) {
			descend = 1;
			if (parent >= 0) {
				rc = die_pcs(b, die, l);
				if (!rc) {
					long i = func_add(b, die, parent, root,
					                  l);
					if (i < 0)
						rc = (int)i;
					p = i;
				}
			}
		} else if (tag == DW_TAG_lexical_block ||
		           tag == DW_TAG_namespace || tag == DW_TAG_module ||
		           tag == DW_TAG_try_block ||
		           tag == DW_TAG_catch_block) {
			descend = 1;
		}
		Dwarf_Die child = NULL;
		if (!rc && descend && depth < MAX_DIE_DEPTH) {
			int c = dwarf_child(die, &child, &e);
			if (c == DW_DLV_ERROR)
				rc = lt_dwarf_fail(b, e, "DIE children");
			else if (c == DW_DLV_OK)
				rc = walk(b, child, p, r, depth + 1, l);
		}
		Dwarf_Die next = NULL;
		if (!rc) {
			int s = dwarf_siblingof_b(b->dbg, die, 1, &next, &e);
			if (s == DW_DLV_ERROR)
				rc = lt_dwarf_fail(b, e, "DIE sibling");
		}
		dwarf_dealloc_die(die);
		die = next;
	}
	/* An error leaves the rest of the chain allocated: dwarf_finish
	 * frees it. */
	return rc;
}

int lt_dwarf_inline_unit(struct lt_dwarf_build *b, Dwarf_Die cu)
{
	Dwarf_Die child = NULL;
	Dwarf_Error e = NULL;
	struct pc_list l = { 0 };
	int c = dwarf_child(cu, &child, &e);
	if (c == DW_DLV_ERROR)
		return lt_dwarf_fail(b, e, "unit children");
	if (c == DW_DLV_NO_ENTRY)
		return 0;
	int rc = walk(b, child, -1, -1, 1, &l);
	free(l.r);
	if (rc == LT_ERR_NOMEM)
		snprintf(b->err, b->errlen, "%s: out of memory reading DWARF",
		         b->name);
	return rc;
}

/* ---- flattening ----------------------------------------------------------- */

/* Orders raw ranges by tree, then shallow before deep, then address. */
static int raw_cmp(const void *pa, const void *pb)
{
	const struct lt_dwarf_raw *a = pa, *b = pb;
	if (a->root != b->root)
		return a->root < b->root ? -1 : 1;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->func < b->func ? -1 : a->func > b->func;
}

/* Orders 64-bit values. */
static int u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return a < b ? -1 : a > b;
}

/* Orders spans by start, then instance index. */
static int span_cmp(const void *pa, const void *pb)
{
	const struct lt_inline_range *a = pa, *b = pb;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->func < b->func ? -1 : a->func > b->func;
}

/* Index of the largest cut <= v in cut[0..n). */
static size_t cut_find(const uint64_t *cut, size_t n, uint64_t v)
{
	size_t a = 0, z = n;
	while (z - a > 1) {
		size_t m = a + (z - a) / 2;
		if (cut[m] <= v)
			a = m;
		else
			z = m;
	}
	return a;
}

/* Appends the innermost-instance spans of one tree (raw[0..n), sorted
 * shallow first) to out. Returns 0 or LT_ERR_NOMEM. */
static int flatten_tree(const struct lt_dwarf_raw *raw, size_t n,
                        struct lt_inline_range *out, size_t *nout)
{
	uint64_t *cut = malloc(2 * n * sizeof(*cut));
	uint32_t *owner = malloc(2 * n * sizeof(*owner));
	if (!cut || !owner) {
		free(cut);
		free(owner);
		return LT_ERR_NOMEM;
	}
	size_t nc = 0;
	for (size_t i = 0; i < n; i++) {
		cut[nc++] = raw[i].lo;
		cut[nc++] = raw[i].hi;
	}
	qsort(cut, nc, sizeof(*cut), u64_cmp);
	size_t k = 0;
	for (size_t i = 0; i < nc; i++)
		if (!k || cut[k - 1] != cut[i])
			cut[k++] = cut[i];
	nc = k;
	for (size_t i = 0; i < nc; i++)
		owner[i] = UINT32_MAX;
	/* Deeper ranges come later and paint over their callers. */
	for (size_t i = 0; i < n; i++)
		for (size_t s = cut_find(cut, nc, raw[i].lo);
		     s + 1 < nc && cut[s] < raw[i].hi; s++)
			owner[s] = raw[i].func;
	for (size_t s = 0; s + 1 < nc; s++) {
		if (owner[s] == UINT32_MAX)
			continue;
		struct lt_inline_range *prev = *nout ? &out[*nout - 1] : NULL;
		if (prev && prev->func == owner[s] && prev->hi == cut[s]) {
			prev->hi = cut[s + 1];
			continue;
		}
		out[*nout].lo = cut[s];
		out[*nout].hi = cut[s + 1];
		out[*nout].func = owner[s];
		out[*nout].pad = 0;
		(*nout)++;
	}
	free(cut);
	free(owner);
	return 0;
}

int lt_dwarf_inline_finish(struct lt_dwarf_build *b)
{
	struct lt_dwarf *d = b->d;
	if (!b->nraw)
		return 0;
	qsort(b->raw, b->nraw, sizeof(*b->raw), raw_cmp);
	/* A tree of n ranges yields at most 2n - 1 spans. */
	struct lt_inline_range *out = malloc(2 * b->nraw * sizeof(*out));
	if (!out)
		return LT_ERR_NOMEM;
	size_t nout = 0;
	for (size_t i = 0; i < b->nraw;) {
		size_t j = i;
		while (j < b->nraw && b->raw[j].root == b->raw[i].root)
			j++;
		if (flatten_tree(b->raw + i, j - i, out, &nout)) {
			free(out);
			return LT_ERR_NOMEM;
		}
		i = j;
	}
	qsort(out, nout, sizeof(*out), span_cmp);
	size_t k = 0;
	uint64_t mark = 0;
	for (size_t i = 0; i < nout; i++) {
		if (!lt_dwarf_clip(b, &out[i].lo, &out[i].hi))
			continue;
		if (k && out[i].lo < mark) {
			if (out[i].hi <= mark)
				continue;
			out[i].lo = mark;
		}
		out[k++] = out[i];
		mark = out[i].hi;
	}
	d->irange = out;
	d->nirange = k;
	return 0;
}

/* ---- lookups ---------------------------------------------------------------- */

long lt_dwarf_inline_find(const struct lt_dwarf *d, uint64_t addr)
{
	size_t a = 0, z = d->nirange;
	while (a < z) {
		size_t m = a + (z - a) / 2;
		if (d->irange[m].hi <= addr)
			a = m + 1;
		else
			z = m;
	}
	if (a < d->nirange && d->irange[a].lo <= addr)
		return (long)d->irange[a].func;
	return -1;
}

int lt_dwarf_inline_stack(const struct lt_dwarf *d, uint64_t addr,
                          const struct lt_inline_func **stack, int max)
{
	long i = lt_dwarf_inline_find(d, addr);
	int n = 0;
	while (i >= 0) {
		if (n < max)
			stack[n] = &d->func[i];
		n++;
		i = d->func[i].parent;
	}
	return n;
}
