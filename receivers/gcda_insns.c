/* The machine instructions a gcno function is mapped from (gcda_mapper.h):
 * decoding its range or its copies' spans, with lines, and the questions
 * every step asks of them. */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/error.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Is i a call (a jump or indirect jump that links)? */
int gm_is_call(const struct minsn *i)
{
	return (i->cls == LT_INSN_JUMP || i->cls == LT_INSN_IJUMP) &&
	       (i->link == LT_LINK_CALL || i->link == LT_LINK_CORO);
}

/* The instruction bits at addr of img: returns its length (2 for a
 * compressed one, 4) with *raw set, or 0 when the image does not hold
 * all of it. */
static int raw_at(const struct lt_image *img, uint64_t addr, uint32_t *raw)
{
	const struct lt_region *r = lt_image_region(img, addr);
	if (!r || addr + 2 > r->end)
		return 0;
	const uint8_t *b = r->bytes + (addr - r->base);
	*raw = (uint32_t)b[0] | (uint32_t)b[1] << 8;
	if ((*raw & 3) != 3)
		return 2;
	if (addr + 4 > r->end)
		return 0;
	*raw |= (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return 4;
}

int gm_is_store(const struct lt_image *img, uint64_t addr)
{
	uint32_t raw;
	if (!raw_at(img, addr, &raw))
		return 0;
	if ((raw & 3) != 3) {
		uint32_t f3 = raw >> 13 & 7;
		/* c.fsd, c.sw, c.sd; the quadrant-2 forms are sp-based. */
		return (raw & 3) == 0 && f3 >= 5;
	}
	uint32_t op = raw & 0x7f, rs1 = raw >> 15 & 31;
	return (op == 0x23 || op == 0x27 || op == 0x2f) && rs1 != 2;
}

uint32_t gm_op_key(const struct lt_image *img, uint64_t addr)
{
	uint32_t raw;
	int len = raw_at(img, addr, &raw);
	if (len == 2) {
		uint32_t f3 = raw >> 13 & 7, rd = raw >> 7 & 31;
		uint32_t rs2 = raw >> 2 & 31;
		/* c.add (not c.mv, c.jalr, c.ebreak): add rd,rd,rs2. */
		if ((raw & 3) == 2 && f3 == 4 && (raw >> 12 & 1) && rd &&
		    rs2)
			return 0x33;
		/* c.sub, c.xor, c.or, c.and, c.subw, c.addw. */
		if ((raw & 3) == 1 && f3 == 4 && (raw >> 10 & 3) == 3) {
			static const uint32_t op[8] = {
				0x40000033, 0x4033, 0x6033, 0x7033,
				0x4000003b, 0x3b, 0, 0};
			return op[(raw >> 12 & 1) << 2 | (raw >> 5 & 3)];
		}
		return 0;
	}
	if (len != 4)
		return 0;
	uint32_t op = raw & 0x7f, f7 = raw >> 25;
	if (op == 0x33 || op == 0x3b)
		return raw & 0xfe00707f;
	/* fadd, fsub, fmul, fdiv (funct3 the rounding mode); fmin, fmax
	 * (funct3 the operation). fsgnj (moves, fneg, fabs) and the
	 * conversions are left out. */
	if (op == 0x53 && f7 < 0x10)
		return raw & 0xfe00007f;
	if (op == 0x53 && f7 >= 0x14 && f7 < 0x18)
		return raw & 0xfe00707f;
	if (op == 0x43 || op == 0x47 || op == 0x4b || op == 0x4f)
		return raw & 0x0600007f;
	return 0;
}

int gm_grows_stack(const struct lt_image *img, uint64_t addr)
{
	uint32_t raw;
	if (!raw_at(img, addr, &raw))
		return 0;
	if ((raw & 3) != 3)
		/* c.addi16sp with a negative immediate (its sign bit 12). */
		return (raw & 3) == 1 && (raw >> 13 & 7) == 3 &&
		       (raw >> 7 & 31) == 2 && (raw >> 12 & 1);
	uint32_t op = raw & 0x7f, rd = raw >> 7 & 31, f3 = raw >> 12 & 7;
	uint32_t rs1 = raw >> 15 & 31;
	if (rd != 2 || rs1 != 2 || f3 != 0)
		return 0;
	/* addi sp,sp,-N; sub sp,sp,rs2 (a frame too large for addi). */
	return (op == 0x13 && (raw >> 31)) ||
	       (op == 0x33 && (raw >> 25) == 0x20);
}

int gm_frees_stack(const struct lt_image *img, uint64_t addr)
{
	uint32_t raw;
	if (!raw_at(img, addr, &raw))
		return 0;
	if ((raw & 3) != 3)
		/* c.addi16sp with a positive immediate (sign bit 12 clear,
		 * not all zero: that encoding is reserved). */
		return (raw & 3) == 1 && (raw >> 13 & 7) == 3 &&
		       (raw >> 7 & 31) == 2 && !(raw >> 12 & 1) &&
		       (raw & 0x107c);
	uint32_t op = raw & 0x7f, rd = raw >> 7 & 31, f3 = raw >> 12 & 7;
	uint32_t rs1 = raw >> 15 & 31;
	/* addi sp,sp,N with N > 0. */
	return op == 0x13 && rd == 2 && rs1 == 2 && f3 == 0 &&
	       !(raw >> 31) && (raw >> 20);
}

/* A transfer that ends a machine block (the next insn starts a new one). */
int gm_ends_block(const struct minsn *i)
{
	return (i->cls == LT_INSN_BRANCH || i->cls == LT_INSN_JUMP ||
	        i->cls == LT_INSN_IJUMP || i->cls == LT_INSN_TRET) &&
	       !gm_is_call(i);
}

/* Index of the instruction at addr among g->in[lo, hi) (sorted), or
 * -1. */
static long insn_in(const struct gm *g, long lo, long hi, uint64_t addr)
{
	long end = hi;
	while (lo < hi) {
		long mid = (lo + hi) / 2;
		if (g->in[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && g->in[lo].addr == addr ? lo : -1;
}

/* Returns the index of the instruction at addr, or -1: the body and
 * the cold parts are each sorted. */
long gm_insn_at(const struct gm *g, uint64_t addr)
{
	uint32_t body = g->m_body && g->m_body < g->m ? g->m_body : g->m;
	long k = insn_in(g, 0, (long)body, addr);
	return k >= 0 || body == g->m ? k :
	       insn_in(g, (long)body, (long)g->m, addr);
}

/* Is insn i + 1 the instruction right after insn i in memory? */
int gm_falls_to_next(const struct gm *g, uint32_t i)
{
	return i + 1 < g->m &&
	       g->in[i + 1].addr == g->in[i].addr + g->in[i].len;
}

/* Index of the first non-nop instruction at or after i (m if none):
 * a jump to a goto-location nop really reaches the code after it. */
uint32_t gm_skip_nops(const struct gm *g, uint32_t i)
{
	while (i < g->m && g->in[i].nop)
		i++;
	return i;
}

/* Is insn i a conditional branch followed by a plain jump? gcc emits
 * that pair for one gcno block whose fallthrough successor is not next in
 * the layout, so no boundary is forced between them. */
int gm_branch_then_jump(const struct gm *g, uint32_t i)
{
	return g->in[i].cls == LT_INSN_BRANCH && i + 1 < g->m &&
	       g->in[i + 1].cls == LT_INSN_JUMP &&
	       g->in[i + 1].link == LT_LINK_NONE;
}

/* Sets i->cfile/cline: while (file, line) is in none of the gcno
 * function's blocks and the code is inlined, the call site one level
 * out; a successor running inlined code thus shows the caller's line of
 * the call. */
static void caller_line(const struct gm *g, uint64_t a, struct minsn *i)
{
	const struct lt_dwarf *dw = g->x->dw;
	i->cfile = i->file;
	i->cline = i->line;
	long q = dw && i->line ? lt_dwarf_inline_find(dw, a) : -1;
	for (; q >= 0 && dw->func[q].depth > 0; q = dw->func[q].parent) {
		uint32_t b;
		for (b = 2; b < g->f->n_blocks; b++)
			if (gm_block_has_line(g, b, i->cfile, i->cline))
				return;
		if (!dw->func[q].call_line)
			return;
		i->cfile = dw->func[q].call_file;
		i->cline = dw->func[q].call_line;
	}
}

/* The AMO funct5 (bits 31..27) of the 32-bit A-extension instruction at
 * by (end: the region's end), or -1 when it is none. */
static int amo_funct5(const uint8_t *by, const uint8_t *end)
{
	if (by + 4 > end || (by[0] & 0x7f) != 0x2f)
		return -1;
	return by[3] >> 3;
}

/* gcc emits each RISC-V atomic it has no single instruction for
 * (compare-and-swap, sub-word exchanges) as one RTL insn whose template
 * is a load-reserved / store-conditional retry loop: `1: lr; ...; bne
 * out; ...; sc; bnez 1b; out:`. Its branches are no control flow of
 * the CFG (one GIMPLE statement, one gcno block, however often it
 * retries), so the instructions g->in[from, g->m) of one region r get
 * them as plain instructions: they neither end nor start a block, pin
 * no condition and make no loop. */
static void flatten_lr_sc(struct gm *g, uint32_t from,
                          const struct lt_region *r)
{
	const uint8_t *end = r->bytes + (r->end - r->base);
	for (uint32_t i = from; i < g->m; i++) {
		if (amo_funct5(r->bytes + (g->in[i].addr - r->base), end) != 2)
			continue;
		uint32_t k = i + 1;
		while (k < g->m && k - i < 16 &&
		       amo_funct5(r->bytes + (g->in[k].addr - r->base),
		                  end) != 3)
			k++;
		if (k + 1 >= g->m || k - i >= 16)
			continue;
		struct minsn *back = &g->in[k + 1];
		if (back->cls != LT_INSN_BRANCH || back->tgt != g->in[i].addr)
			continue;
		for (uint32_t j = i; j <= k + 1; j++)
			if (g->in[j].cls == LT_INSN_BRANCH) {
				g->in[j].cls = LT_INSN_OTHER;
				g->in[j].tgt = 0;
			}
		i = k + 1;
	}
}

/* Does control never run on from insn i into the next instruction (a
 * plain jump, an indirect jump that is no call, a return)? */
static int stops(const struct minsn *i)
{
	return (i->cls == LT_INSN_JUMP || i->cls == LT_INSN_IJUMP ||
	        i->cls == LT_INSN_TRET) && !gm_is_call(i);
}

/* Decodes the instructions of [lo, hi) with their lines, appending to
 * g->in. Returns 0 or LT_ERR_NOMEM. */
static int load_range(struct gm *g, uint64_t lo, uint64_t hi)
{
	const struct lt_region *r = lt_image_region(g->x->img, lo);
	if (!r)
		return 0;
	if (hi > r->end)
		hi = r->end;
	size_t cap = g->m + (size_t)((hi - lo) / 2 + 1);
	struct minsn *n = realloc(g->in, cap * sizeof(*n));
	if (!n)
		return LT_ERR_NOMEM;
	g->in = n;
	memset(g->in + g->m, 0, (cap - g->m) * sizeof(*n));
	uint32_t first = g->m;
	for (uint64_t a = lo; a < hi;) {
		const struct lt_hwinfo *hw = &r->info[lt_region_idx(r, a)];
		struct minsn *i = &g->in[g->m++];
		i->addr = a;
		i->len = hw->len ? hw->len : 2;
		i->cls = hw->cls;
		i->link = hw->link;
		i->tgt = (i->cls == LT_INSN_BRANCH || i->cls == LT_INSN_JUMP) ?
			 a + (uint64_t)(int64_t)hw->tgt : 0;
		const struct lt_line_row *row =
			g->x->dw ? lt_dwarf_line(g->x->dw, a) : NULL;
		i->file = row && row->line ? row->file : LT_DWARF_NO_FILE;
		i->line = row ? row->line : 0;
		i->disc = row && row->line ? row->discriminator : 0;
		caller_line(g, a, i);
		const uint8_t *by = r->bytes + (a - r->base);
		i->nop = (i->len == 2 && a + 2 <= r->end && by[0] == 0x01 &&
		          by[1] == 0) ||
			 (i->len == 4 && a + 4 <= r->end && by[0] == 0x13 &&
			  !by[1] && !by[2] && !by[3]);
		a += i->len;
	}
	flatten_lr_sc(g, first, r);
	return 0;
}

/* qsort order of spans: by first address. */
static int cmp_span_lo(const void *a, const void *b)
{
	const struct gm_span *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Most moves before the jump of an edge's copy block. */
#define MAX_EDGE_MOVES 4

/* Code after a barrier that starts no line-table row and is only a few
 * moves (no store, no transfer) and a plain jump: the constant loads and
 * copies out-of-SSA put on an edge for the PHIs at its destination (a
 * switch's `default: state = 3; break;` as `li s8,3; j .Ljoin`) carry
 * no location, so the line table continues the row of the code laid out
 * before them, another case's or arm's. That line is not theirs: they
 * get none (gcda_philand.c tells a jump-table target's case from where
 * it jumps). */
static void unlined_edge_copies(struct gm *g)
{
	const struct lt_dwarf *dw = g->x->dw;
	for (uint32_t k = 1; dw && k < g->m_body; k++) {
		if (!stops(&g->in[k - 1]) || !gm_falls_to_next(g, k - 1))
			continue;
		uint32_t j = k;
		for (; j < g->m_body && j - k <= MAX_EDGE_MOVES; j++) {
			const struct lt_line_row *row =
				lt_dwarf_line(dw, g->in[j].addr);
			const struct minsn *in = &g->in[j];
			if (!row || row->addr == in->addr ||
			    (j > k && !gm_falls_to_next(g, j - 1)) ||
			    in->cls != LT_INSN_OTHER ||
			    gm_is_store(g->x->img, in->addr))
				break;
		}
		const struct minsn *jp = j < g->m_body ? &g->in[j] : NULL;
		const struct lt_line_row *row = jp ?
			lt_dwarf_line(dw, jp->addr) : NULL;
		if (j == k || j - k > MAX_EDGE_MOVES || !jp ||
		    jp->cls != LT_INSN_JUMP || jp->link != LT_LINK_NONE ||
		    !gm_falls_to_next(g, j - 1) || !row || row->addr == jp->addr)
			continue;
		for (uint32_t q = k; q <= j; q++) {
			g->in[q].file = g->in[q].cfile = LT_DWARF_NO_FILE;
			g->in[q].line = g->in[q].cline = 0;
		}
		k = j;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Is addr in the sorted targets tg[0, n)? */
static int targeted(uint64_t addr, const uint64_t *tg, size_t n)
{
	return bsearch(&addr, tg, n, sizeof(*tg), cmp_u64) != NULL;
}

/* The target of plain jumps (no branch's) laid out right after code it
 * runs on from, inside one line-table row (none starts at the target), a
 * few instructions (no store, no transfer, no call) and then a row of
 * another line: code gcc left without a location at a join that jump
 * threading jumps into (a zero extension the paths into a store share,
 * `j .L; ... addw a2,a2,1 (line 85); .L: slli; srli; (line 86) sw`),
 * which the row of the code laid out before it covers. That row's line
 * is not theirs: it would send the jump's way into the line before the
 * join (line 85, skipped on that way) rather than the join's own line.
 * They get none, as unlined_edge_copies' do. A branch's target there is
 * left alone: a `?:` arm's branch joins the rest of its statement's code
 * mid-row (`li t2,-1; beqz a4,.L; ...; .L: remw` of one call's
 * arguments), code of that row's own line. */
static void unlined_mid_landings(struct gm *g)
{
	const struct lt_dwarf *dw = g->x->dw;
	uint64_t *tg = dw ? malloc(2 * (g->m_body + 1) * sizeof(*tg)) : NULL;
	size_t nj = 0, nb = 0;
	if (!tg)
		return;
	uint64_t *bt = tg + g->m_body + 1;
	for (uint32_t i = 0; i < g->m_body; i++) {
		const struct minsn *in = &g->in[i];
		if (in->tgt == in->addr + in->len)
			continue;
		if (in->cls == LT_INSN_BRANCH)
			bt[nb++] = in->tgt;
		else if (in->cls == LT_INSN_JUMP && in->link == LT_LINK_NONE)
			tg[nj++] = in->tgt;
	}
	qsort(tg, nj, sizeof(*tg), cmp_u64);
	qsort(bt, nb, sizeof(*bt), cmp_u64);
	for (uint32_t k = 1; k < g->m_body; k++) {
		const struct lt_line_row *row = lt_dwarf_line(dw, g->in[k].addr);
		const struct lt_line_row *prev =
			lt_dwarf_line(dw, g->in[k - 1].addr);
		if (!row || row != prev || row->addr == g->in[k].addr ||
		    !g->in[k].line || !gm_falls_to_next(g, k - 1) ||
		    g->in[k - 1].cls != LT_INSN_OTHER ||
		    !targeted(g->in[k].addr, tg, nj) ||
		    targeted(g->in[k].addr, bt, nb))
			continue;
		uint32_t j = k;
		for (; j < g->m_body && j - k <= MAX_EDGE_MOVES; j++) {
			const struct minsn *in = &g->in[j];
			const struct lt_line_row *r = lt_dwarf_line(dw, in->addr);
			if (r != row || (j > k && !gm_falls_to_next(g, j - 1)) ||
			    in->cls != LT_INSN_OTHER ||
			    gm_is_store(g->x->img, in->addr))
				break;
		}
		const struct lt_line_row *next = j < g->m_body ?
			lt_dwarf_line(dw, g->in[j].addr) : NULL;
		if (j == k || j - k > MAX_EDGE_MOVES || !next ||
		    next->addr != g->in[j].addr || !gm_falls_to_next(g, j - 1) ||
		    !g->in[j].line || g->in[j].line == g->in[k].line)
			continue;
		for (uint32_t q = k; q < j; q++) {
			g->in[q].file = g->in[q].cfile = LT_DWARF_NO_FILE;
			g->in[q].line = g->in[q].cline = 0;
		}
		k = j;
	}
	free(tg);
}

/* Decodes the function's own range [g->lo, g->hi), then its cold parts
 * in address order (after the body, so that index 0 stays the entry and
 * the body keeps its block order for the alignment). */
int gm_load_insns(struct gm *g, const struct gm_span *cold, size_t ncold)
{
	int rc = load_range(g, g->lo, g->hi);
	g->m_body = g->m;
	if (!rc) {
		unlined_edge_copies(g);
		unlined_mid_landings(g);
	}
	if (rc || !ncold)
		return rc ? rc : gm_late_copies(g);
	struct gm_span *v = malloc(ncold * sizeof(*v));
	if (!v)
		return LT_ERR_NOMEM;
	memcpy(v, cold, ncold * sizeof(*v));
	qsort(v, ncold, sizeof(*v), cmp_span_lo);
	for (size_t k = 0; k < ncold && !rc; k++)
		if (v[k].hi > v[k].lo && (v[k].hi <= g->lo || v[k].lo >= g->hi) &&
		    (!k || v[k].lo >= v[k - 1].hi))
			rc = load_range(g, v[k].lo, v[k].hi);
	free(v);
	return rc ? rc : gm_late_copies(g);
}

/* Decodes the instructions of every copy span[n], in address order, as
 * if they were one function (for branch pins only: they are no CFG);
 * g->lo / g->hi become their bounds. Returns 0 or LT_ERR_NOMEM. */
int gm_load_copies(struct gm *g, const struct gm_span *span, size_t n)
{
	struct gm_span *v = malloc(n * sizeof(*v));
	if (!v)
		return LT_ERR_NOMEM;
	memcpy(v, span, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_span_lo);
	int rc = 0;
	g->lo = v[0].lo;
	g->hi = v[0].hi;
	for (size_t k = 0; k < n && !rc; k++) {
		if (k && v[k].lo < v[k - 1].hi)
			continue; /* overlapping: already decoded */
		rc = load_range(g, v[k].lo, v[k].hi);
		if (v[k].hi > g->hi)
			g->hi = v[k].hi;
	}
	free(v);
	return rc;
}

const struct lt_region *gm_span_region(const struct gm *g,
                                       const struct gm_span *s, uint64_t *hi)
{
	const struct lt_region *r = lt_image_region(g->x->img, s->lo);
	if (r)
		*hi = s->hi < r->end ? s->hi : r->end;
	return r;
}

size_t gm_copy_of(const struct gm *g, uint32_t k)
{
	for (size_t s = 0; s < g->nspan; s++)
		if (g->in[k].addr >= g->span[s].lo &&
		    g->in[k].addr < g->span[s].hi)
			return g->span[s].copy;
	return 0;
}

/* Jump-table targets (gm_indirect_landing) are code only an indirect
 * jump reaches. The trace shows only the targets that ran; the others
 * are still in the table, serving cases that did not run. */
int gm_indirect_landing(const struct gm *g, uint32_t k)
{
	if (!k || k >= g->m || g->in[k].nop || !gm_falls_to_next(g, k - 1) ||
	    !stops(&g->in[k - 1]))
		return 0;
	uint64_t at = g->in[k].addr;
	for (uint32_t i = 0; i < g->m; i++) {
		const struct minsn *in = &g->in[i];
		if ((in->cls == LT_INSN_BRANCH || in->cls == LT_INSN_JUMP) &&
		    in->tgt == at)
			return 0;
	}
	return 1;
}

/* (contract in gcda_mapper.h) */
int gm_row_starts(const struct gm *g, uint64_t addr)
{
	const struct lt_dwarf *dw = g->x->dw;
	long k = dw ? lt_dwarf_line_find(dw, addr) : -1;
	return k >= 0 && dw->range[k].lo == addr;
}

/* Bytes of a row's code gm_borrowed_row decodes, at most. */
#define MAX_ROW_BYTES 256

/* (contract in gcda_mapper.h) */
int gm_borrowed_row(const struct gm *g, uint64_t addr)
{
	const struct lt_dwarf *dw = g->x->dw;
	long k = dw ? lt_dwarf_line_find(dw, addr) : -1;
	if (k < 0 || dw->range[k].lo == addr ||
	    addr - dw->range[k].lo > MAX_ROW_BYTES)
		return 0;
	uint64_t a = dw->range[k].lo;
	int falls = 1;
	while (a < addr) {
		struct lt_insn d;
		int len = lt_image_insn(g->x->img, a, &d);
		if (len <= 0)
			return 0;
		falls = !((d.cls == LT_INSN_JUMP || d.cls == LT_INSN_IJUMP) &&
		          d.link != LT_LINK_CALL) &&
			d.cls != LT_INSN_TRET;
		a += (uint64_t)len;
	}
	return a == addr && !falls;
}
