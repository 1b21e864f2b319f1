/* Mapping a gcno function (gcda_mapper.h), step 2b, the ways of the
 * branch pins (gcda_pin.c): where each matched branch's or jump table's
 * ways land and how often, and which arcs' landings control also reaches
 * by other paths (the path that skips a test the compiler resolved, a
 * jump threading copy, a shared return tail), so that the arc's count
 * may exceed its branches' sum. */
#include <stdlib.h>
#include <string.h>

#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Instructions of other lines the scheduler may put amid a line's code. */
#define SCHEDULED_MAX 2

/* Records one way (contract in gcda_mapper.h). */
void gm_way_add(struct gm_ways *w, uint64_t at, int64_t n, uint32_t arc)
{
	if (w->failed)
		return;
	if (w->len == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct gm_way *p = realloc(w->w, cap * sizeof(*p));
		if (!p) {
			w->failed = 1;
			return;
		}
		w->w = p;
		w->cap = cap;
	}
	w->w[w->len++] = (struct gm_way){at, n, arc};
}

static int cmp_way(const void *a, const void *b)
{
	uint64_t x = ((const struct gm_way *)a)->at;
	uint64_t y = ((const struct gm_way *)b)->at;
	return x < y ? -1 : x > y;
}

/* Where the straight-line code of one line starting at insn t leaves
 * to: the target of its closing jump, else the address after it. */
static uint64_t run_exit(const struct gm *g, long t)
{
	uint32_t file = g->in[t].cfile, line = g->in[t].cline;
	for (; t < (long)g->m; t++) {
		const struct minsn *i = &g->in[t];
		if (i->cline && (i->cline != line || i->cfile != file))
			return i->addr;
		if (i->cls == LT_INSN_JUMP && !gm_is_call(i))
			return i->tgt;
		if (gm_ends_block(i) || gm_is_call(i) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return i->addr + i->len;
	}
	return 0;
}

/* Does the straight-line code of one line starting at insn t end in
 * a plain jump or run on into another line's code (not in a branch, a
 * call or an indirect jump)? */
static int run_continues(const struct gm *g, long t)
{
	uint32_t file = g->in[t].cfile, line = g->in[t].cline;
	for (; t < (long)g->m; t++) {
		const struct minsn *i = &g->in[t];
		if (i->cline && (i->cline != line || i->cfile != file))
			return 1;
		if (i->cls == LT_INSN_JUMP && i->link == LT_LINK_NONE)
			return 1;
		if (gm_ends_block(i) || gm_is_call(i))
			return 0;
		if (!gm_falls_to_next(g, (uint32_t)t))
			return 0;
	}
	return 0;
}

/* Does straight-line code from address `from` (plain jumps followed, no
 * branch, call or indirect jump on the way) reach address `to` within a
 * few instructions? Jump threading's copy of a block often has code of
 * other lines (a loop's induction variable set up for the copy that
 * skipped the first test) between it and the shared continuation. */
static int flows_to(const struct gm *g, uint64_t from, uint64_t to)
{
	for (int steps = 0; steps < 8; steps++) {
		if (from == to)
			return 1;
		long t = gm_insn_at(g, from);
		if (t < 0)
			return 0;
		const struct minsn *i = &g->in[t];
		if (i->cls == LT_INSN_JUMP && i->link == LT_LINK_NONE) {
			from = i->tgt;
			continue;
		}
		if (gm_ends_block(i) || gm_is_call(i) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return 0;
		from = i->addr + i->len;
	}
	return from == to;
}

/* Does straight code from insn t (of another line) return to (file,
 * line) within SCHEDULED_MAX instructions? The scheduler puts a few
 * instructions of other lines (a reload, an address) amid a line's code;
 * a later arrival there is still an arrival into the landing's line. */
static int line_resumes(const struct gm *g, long t, uint32_t file,
                        uint32_t line)
{
	for (long k = t; k < (long)g->m && k < t + SCHEDULED_MAX; k++) {
		const struct minsn *i = &g->in[k];
		if (i->cline == line && i->cfile == file)
			return 1;
		if (gm_ends_block(i) || gm_is_call(i) ||
		    !gm_falls_to_next(g, (uint32_t)k))
			return 0;
	}
	return 0;
}

/* Longest run of a line's instructions compared by same_code. */
#define COPY_RUN 4

/* The encodings of up to COPY_RUN instructions of (file, line) in the
 * straight code from insn t, past at most SCHEDULED_MAX instructions of
 * other lines in a row; into enc[], their number returned. */
static int line_code(const struct gm *g, long t, uint32_t file,
                     uint32_t line, uint32_t enc[COPY_RUN])
{
	int n = 0, other = 0;
	for (; t < (long)g->m && n < COPY_RUN; t++) {
		const struct minsn *i = &g->in[t];
		if (i->nop) {
			/* nothing */
		} else if (i->cline != line || i->cfile != file) {
			if (++other > SCHEDULED_MAX)
				break;
		} else {
			struct lt_insn d;
			if (lt_image_insn(g->x->img, i->addr, &d) < 0)
				break;
			enc[n++] = d.raw;
			other = 0;
		}
		if (gm_ends_block(i) || gm_is_call(i) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			break;
	}
	return n;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Is the code of the landing at insn t0 (its line's first instructions,
 * three or more) also elsewhere, executed: the same instructions of the
 * same line, in any order, starting at another insn? Jump threading copies the code a
 * test's way leads to onto the path that knew the test's outcome, and
 * the scheduler mixes other lines' code into either copy differently
 * (run_exit then tells no copy): executions may reach the arc's code
 * there without the branch. */
static int same_code(const struct gm *g, long t0, long t1)
{
	const struct minsn *at = &g->in[t0];
	uint32_t file = at->cfile, line = at->cline;
	uint32_t enc[COPY_RUN], oth[COPY_RUN];
	int n = line_code(g, t0, file, line, enc);
	if (n < 3)
		return 0;
	qsort(enc, (size_t)n, sizeof(*enc), cmp_u32);
	for (long k = 0; k < (long)g->m; k++) {
		const struct minsn *i = &g->in[k];
		if ((k >= t0 && k <= t1) || i->cline != line ||
		    i->cfile != file || i->nop ||
		    !gc_insn_count(g->x->c, g->x->im, i->addr))
			continue;
		if (line_code(g, k, file, line, oth) == n) {
			qsort(oth, (size_t)n, sizeof(*oth), cmp_u32);
			if (!memcmp(enc, oth, n * sizeof(*enc)))
				return 1;
		}
	}
	return 0;
}

/* Longest run of a line's instructions compared by same_shape. */
#define SHAPE_RUN 12

/* Is token s (of a rendered operand list) a register's name? */
static int reg_name(const char *s, size_t n)
{
	static const char *const fixed[] = {"zero", "ra", "sp", "gp", "tp",
	                                    "fp"};
	for (size_t k = 0; k < sizeof(fixed) / sizeof(*fixed); k++)
		if (strlen(fixed[k]) == n && !memcmp(s, fixed[k], n))
			return 1;
	size_t p = s[0] == 'f' && n > 2 ? 1 : 0; /* ft0, fa1, fs2 */
	if (n - p < 2 || !strchr("ast", s[p]))
		return 0;
	for (size_t k = p + 1; k < n; k++)
		if (s[k] < '0' || s[k] > '9')
			return 0;
	return 1;
}

/* The shape of the instruction at addr: its operation and immediates,
 * registers left out, a compressed form read as its full one (`c.andi
 * a5,15` and `andi a2,a0,15` alike), hashed; 0 when it cannot be read. */
static uint64_t insn_shape(const struct gm *g, uint64_t addr)
{
	struct lt_insn d;
	char buf[96];
	if (lt_image_insn(g->x->img, addr, &d) < 0)
		return 0;
	lt_insn_render(&d, g->x->img->xlen, buf, sizeof(buf));
	const char *p = buf;
	if (!strncmp(p, "c.", 2))
		p += 2;
	if (!strncmp(p, "li\t", 3) || !strncmp(p, "mv\t", 3))
		p = p[0] == 'l' ? "addi\t" : "add\t"; /* c.li, c.mv */
	uint64_t h = 1469598103934665603ull;
	for (const char *q = p; *q;) {
		size_t n = strcspn(q, ",()\t");
		if (n && !(q != p && reg_name(q, n))) {
			for (size_t k = 0; k < n; k++)
				h = (h ^ (uint8_t)q[k]) * 1099511628211ull;
			h = (h ^ (uint8_t)'|') * 1099511628211ull;
		}
		q += n;
		if (*q)
			q++;
	}
	return h ? h : 1;
}

/* The shapes of up to SHAPE_RUN instructions of (file, line) in the
 * straight code from insn t, past at most SCHEDULED_MAX instructions of
 * other lines in a row; into sh[], sorted, their number returned. */
static int line_shape(const struct gm *g, long t, uint32_t file,
                      uint32_t line, uint64_t sh[SHAPE_RUN])
{
	int n = 0, other = 0;
	for (; t < (long)g->m && n < SHAPE_RUN; t++) {
		const struct minsn *i = &g->in[t];
		if (i->nop) {
			/* nothing */
		} else if (i->cline != line || i->cfile != file) {
			if (++other > SCHEDULED_MAX)
				break;
		} else {
			if (!(sh[n++] = insn_shape(g, i->addr)))
				return 0;
			other = 0;
		}
		if (gm_ends_block(i) || gm_is_call(i) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			break;
	}
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && sh[b - 1] > sh[b]; b--) {
			uint64_t x = sh[b];
			sh[b] = sh[b - 1];
			sh[b - 1] = x;
		}
	return n;
}

/* Does a recorded way land at insn k, or run straight into it through
 * at most SCHEDULED_MAX instructions? */
static int way_lands(const struct gm *g, const struct gm_ways *w, long k)
{
	for (size_t q = 0; q < w->len; q++) {
		long t = gm_insn_at(g, w->w[q].at);
		for (int n = 0; t >= 0 && t <= k && n <= SCHEDULED_MAX;
		     n++, t++) {
			if (t == k)
				return 1;
			if (gm_ends_block(&g->in[t]) || gm_is_call(&g->in[t]) ||
			    !gm_falls_to_next(g, (uint32_t)t))
				break;
		}
	}
	return 0;
}

/* Is the landing code at insn t0 (its line's instructions in the
 * straight code from there, four or more) also elsewhere, executed and
 * starting its line's code there: the same operations and immediates in
 * any order, in other registers, where no recorded way of w lands (an
 * unrolled loop's copies each have their own matched test)? Jump
 * threading's copy of the code a test's way leads to is allocated and
 * scheduled anew on the path that knew the test (`if (g[x & 15u] > x)`
 * decided by an earlier test of the same values, its then-statement's
 * copy interleaved with that path's own code), which same_code does not
 * see. */
static int same_shape(const struct gm *g, const struct gm_ways *w, long t0,
                      long t1, int64_t *runs)
{
	const struct minsn *at = &g->in[t0];
	uint32_t file = at->cfile, line = at->cline;
	uint64_t sh[SHAPE_RUN], oth[SHAPE_RUN];
	int n = line_shape(g, t0, file, line, sh);
	if (n < 4)
		return 0;
	for (long k = 0; k < (long)g->m; k++) {
		const struct minsn *i = &g->in[k];
		if ((k >= t0 && k <= t1) || i->cline != line ||
		    i->cfile != file || i->nop ||
		    (k && g->in[k - 1].cline == line &&
		     g->in[k - 1].cfile == file) ||
		    !gc_insn_count(g->x->c, g->x->im, i->addr))
			continue;
		if (line_shape(g, k, file, line, oth) == n &&
		    !memcmp(sh, oth, n * sizeof(*sh)) && !way_lands(g, w, k)) {
			*runs = (int64_t)gc_insn_count(g->x->c, g->x->im,
			                               i->addr);
			return 1;
		}
	}
	return 0;
}

/* Does control reach the code at address `at` other than by the ways
 * that bring it there `in` times? Yes when `at` runs more often, or
 * when a later instruction of the straight-line code of the same source
 * line does (a jump into the middle of it: gcc often lands the path that
 * skips a resolved test one instruction past the loop's head). 2 when
 * another copy only may be one; *runs then gets the runs of a copy of
 * other registers (same_shape), else stays. */
static int other_arrivals(const struct gm *g, const struct gm_ways *w,
                          uint64_t at, int64_t in, int64_t *runs)
{
	if ((int64_t)gc_insn_count(g->x->c, g->x->im, at) != in)
		return 1;
	long t = gm_insn_at(g, at);
	if (t < 0)
		return 0;
	long t0 = t, t1 = t;
	uint32_t file = g->in[t].cfile, line = g->in[t].cline;
	for (; t < (long)g->m; t++) {
		const struct minsn *i = &g->in[t];
		t1 = t;
		if (i->cline && (i->cline != line || i->cfile != file) &&
		    !line_resumes(g, t, file, line))
			break;
		if ((int64_t)gc_insn_count(g->x->c, g->x->im, i->addr) != in)
			return 1;
		if (gm_ends_block(i) || gm_is_call(i) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			break;
	}
	/* Another executed copy of the landing code (same line, leaving
	 * for the same place, directly or through a few instructions of
	 * other lines ending in no branch: a loop whose first test gcc
	 * resolved runs its first iteration's `if (i == 0)` arm in the
	 * preheader, then sets up the counter and jumps to the latch)
	 * elsewhere in the function: jump threading
	 * sent the path that skips the test to its own copy of the arc's
	 * code (an inlined callee's error path straight to the caller's
	 * `return -1`), so the arc's count may exceed the branches' sum. */
	if (!line)
		return 0;
	int weak = 0;
	uint64_t exit = run_exit(g, t0);
	for (long k = 0; k < (long)g->m; k++) {
		const struct minsn *i = &g->in[k];
		if (k >= t0 && k <= t1)
			continue;
		if (i->cline != line || i->cfile != file || i->nop ||
		    (k && g->in[k - 1].cline == line &&
		     g->in[k - 1].cfile == file &&
		     !gm_ends_block(&g->in[k - 1])))
			continue;
		if (!gc_insn_count(g->x->c, g->x->im, i->addr))
			continue;
		if (run_exit(g, k) == exit)
			return 1;
		if (run_continues(g, k) && flows_to(g, run_exit(g, k), exit))
			weak = 1;
	}
	return weak || same_code(g, t0, t1) ||
	       same_shape(g, w, t0, t1, runs) ? 2 : 0;
}

/* Does the way of arc a that lands at `at` (`in` times) only finish a
 * return: a's destination leads to EXIT, and the code at `at` is a jump,
 * or one instruction and a jump, to code that runs more often (the
 * function's shared return, or the caller's code after an inlined copy)?
 * The arcs of switches are left alone. gcc copies such a tail
 * (`li a0,0; j .Lret`) freely, and the path that skips a test the
 * compiler resolved sets the value in code of its own (another line's,
 * or none) and jumps to the shared return directly, so executions of a
 * may never pass the matched branch: its count may exceed their sum. */
static int return_tail(const struct gm *g, uint32_t a, uint64_t at,
                       int64_t in)
{
	if (gm_n_real_out(g, g->f->arcs[a].src) != 2 ||
	    !gm_dest_exits(g, g->f->arcs[a].dst))
		return 0;
	long t = gm_insn_at(g, at);
	for (int steps = 0; t >= 0 && t < (long)g->m && steps < 2;
	     steps++, t++) {
		const struct minsn *i = &g->in[t];
		if (i->cls == LT_INSN_JUMP && i->link == LT_LINK_NONE)
			return (int64_t)gc_insn_count(g->x->c, g->x->im,
			                              i->tgt) > in;
		if (gm_ends_block(i) || gm_is_call(i) ||
		    !gm_falls_to_next(g, (uint32_t)t))
			return 0;
	}
	return 0;
}

/* Does the way of arc a that lands at `at` (`in` times) go on by a
 * plain jump (bare, or after up to SCHEDULED_MAX instructions of d's
 * lines) into code of a's destination d, d having no other gcno
 * predecessor, and that code run more often? Then control reaches d's
 * code by a path that skips a's test: jump threading of a test the
 * compiler resolved there (after `ch == '!' && s[1] == '!'` failed on
 * its second test, the chain `else if (ch >= '0' ...) else if (ch !=
 * ' ') others++;` is known to end in others++ and is skipped), so a's
 * count may exceed its branches' sum. Returns how often d's code the
 * jump goes to ran (> in), else 0: d's count, when that code is d's
 * alone, which gm_ways_mark_shared takes for a lower bound of d. */
static int64_t jumps_on_into(const struct gm *g, uint32_t a, uint64_t at,
                             int64_t in)
{
	uint32_t d = g->f->arcs[a].dst;
	long t = gm_insn_at(g, at);
	if (d < 2 || g->npred[d] != 1 || t < 0)
		return 0;
	/* The jump may follow a few instructions of the arm's own code
	 * (`and a1,a5,15; j .Larm`: the path that skipped the test set
	 * that value itself before falling into the rest). */
	for (int k = 0; k < SCHEDULED_MAX && t + 1 < (long)g->m; k++) {
		const struct minsn *i = &g->in[t];
		if (i->cls == LT_INSN_JUMP || gm_ends_block(i) ||
		    gm_is_call(i) || !gm_falls_to_next(g, (uint32_t)t) ||
		    !i->cline ||
		    !gm_block_has_line(g, d, i->cfile, i->cline))
			break;
		t++;
	}
	const struct minsn *i = &g->in[t];
	if (i->cls != LT_INSN_JUMP || i->link != LT_LINK_NONE)
		return 0;
	long j = gm_insn_at(g, i->tgt);
	if (j < 0 || !g->in[j].cline ||
	    !gm_block_has_line(g, d, g->in[j].cfile, g->in[j].cline))
		return 0;
	int64_t n = (int64_t)gc_insn_count(g->x->c, g->x->im, i->tgt);
	return n > in ? n : 0;
}

/* gm_threaded_copy for arc a's way landing at `at`, given the landings
 * of all of a's ways in w (sorted; past 16 of them, that way alone). */
static int threaded(const struct gm *g, const struct gm_ways *w, uint32_t a,
                    uint64_t at)
{
	uint64_t lands[16];
	size_t n = 0;
	for (size_t k = 0; k < w->len; k++)
		if (w->w[k].arc == a && (!n || lands[n - 1] != w->w[k].at)) {
			if (n == 16)
				return gm_threaded_copy(g, a, at, &at, 1);
			lands[n++] = w->w[k].at;
		}
	return gm_threaded_copy(g, a, at, lands, n);
}

/* Is gcno block b a condition block of one line only (its one line
 * that of *ln, two real out-arcs): a test of a chain with no statement
 * of its own? */
static int bare_test(const struct gm *g, uint32_t b,
                     const struct lt_gcno_line *ln)
{
	const struct lt_gcno_block *bl = &g->f->blocks[b];
	return b >= 2 && bl->n_lines == 1 && bl->lines[0].file == ln->file &&
	       bl->lines[0].line == ln->line && gm_n_real_out(g, b) == 2 &&
	       !gm_has_fake_out(g, b);
}

/* Does control entering gcno block x reach block s through bare tests
 * of s's condition line only (x and those before s: `(c1 || c2) && c3`
 * on one line, x c1, s c2), within three arcs? Jump threading that
 * knows c2's outcome on a path resolves c1 and c2 together there: the
 * path lands on the code after both. */
static int through_tests(const struct gm *g, uint32_t x, uint32_t s)
{
	const struct lt_gcno_block *sb = &g->f->blocks[s];
	if (s < 2 || !sb->n_lines)
		return 0;
	const struct lt_gcno_line *ln = &sb->lines[sb->n_lines - 1];
	uint32_t front[8], n = 1;
	front[0] = x;
	for (int depth = 0; depth < 3; depth++) {
		uint32_t next[8], m = 0;
		for (uint32_t q = 0; q < n; q++) {
			uint32_t b = front[q];
			if (!bare_test(g, b, ln))
				continue;
			for (uint32_t k = 0; k < g->nout[b]; k++) {
				uint32_t d = g->f->arcs[g->outa[b][k]].dst;
				if (d == s)
					return 1;
				if (m < 8)
					next[m++] = d;
			}
		}
		memcpy(front, next, m * sizeof(*front));
		n = m;
	}
	return 0;
}

/* Does way r's arc lead into the condition block of way q's arc (so
 * that r's executions landing where q's do skipped q's test)? */
static int leads_into(const struct gm *g, const struct gm_way *q,
                      const struct gm_way *r)
{
	const struct lt_gcno_arc *a = &g->f->arcs[q->arc];
	const struct lt_gcno_arc *b = &g->f->arcs[r->arc];
	return b->dst != a->dst && b->src != a->src && r->n > 0 &&
	       (gm_chain_lines(g, b->dst, a->src, NULL, NULL) ||
	        through_tests(g, b->dst, a->src));
}

/* Marks shared[] every arc of the ways w->w[k, e) (one landing) whose
 * condition block another of those ways' arcs leads to (leads_into): that way's
 * executions landed on this arc's code without passing its test (jump
 * threading resolved the test on that path: after `if (sp > 0 && x)
 * break;` the `sp ? a : b` at the loop's exit), so the arc's count may
 * exceed its branches' sum. */
static void mark_threaded_into(const struct gm *g, const struct gm_ways *w,
                               size_t k, size_t e, uint8_t *shared)
{
	for (size_t q = k; q < e; q++)
		for (size_t r = k; r < e; r++)
			if (leads_into(g, &w->w[q], &w->w[r]))
				shared[w->w[q].arc] = 1;
}

/* mark_threaded_into for the ways that land on a bare plain jump: they
 * land where the jump goes (`bgeu s5,a4,L ; j .Lbody`: the second
 * test's way on jumps to the code the path that skipped both tests
 * falls into). */
static void mark_jumped_into(const struct gm *g, const struct gm_ways *w,
                             uint8_t *shared)
{
	for (size_t q = 0; q < w->len; q++) {
		long t = gm_insn_at(g, w->w[q].at);
		if (t < 0 || g->in[t].cls != LT_INSN_JUMP ||
		    g->in[t].link != LT_LINK_NONE)
			continue;
		for (size_t r = 0; r < w->len; r++)
			if (w->w[r].at == g->in[t].tgt &&
			    leads_into(g, &w->w[q], &w->w[r]))
				shared[w->w[q].arc] = 1;
	}
}

/* When the landing at `at` is a plain jump (a way that only jumps on to
 * code another way lands at or falls into: `(a && b) || c` tests c where
 * a's false way lands, and b's false way jumps there), does its target
 * run more often than all recorded ways landing at the jump or at the
 * target bring control there? Other paths then reach the code the way
 * leads to (switch cases jump threading sent straight to c's test). */
static int jump_arrivals(const struct gm *g, const struct gm_ways *w,
                         uint64_t at, int64_t in)
{
	long t = gm_insn_at(g, at);
	if (t < 0 || g->in[t].cls != LT_INSN_JUMP ||
	    g->in[t].link != LT_LINK_NONE)
		return 0;
	uint64_t to = g->in[t].tgt;
	int64_t n = in;
	for (size_t k = 0; k < w->len; k++)
		if (w->w[k].at == to)
			n += w->w[k].n;
	return (int64_t)gc_insn_count(g->x->c, g->x->im, to) > n;
}

/* Which arcs' landings control also reaches otherwise (contract in
 * gcda_mapper.h). */
void gm_ways_mark_shared(const struct gm *g, struct gm_ways *w,
                         uint8_t *shared, int64_t *lb)
{
	if (w->failed) {
		memset(shared, 1, g->f->n_arcs);
		return;
	}
	if (w->len)
		qsort(w->w, w->len, sizeof(*w->w), cmp_way);
	mark_jumped_into(g, w, shared);
	for (size_t k = 0, e; k < w->len; k = e) {
		int64_t in = 0;
		for (e = k; e < w->len && w->w[e].at == w->w[k].at; e++)
			in += w->w[e].n;
		mark_threaded_into(g, w, k, e, shared);
		int64_t copied = 0;
		int oa = other_arrivals(g, w, w->w[k].at, in, &copied);
		if (!oa && jump_arrivals(g, w, w->w[k].at, in))
			oa = 1;
		if (oa != 1) {
			/* oa == 2: a copy that only may be another arrival:
			 * no claim for the arc, and (shared 2) no licence
			 * for its siblings to exceed their pins. */
			for (size_t q = k; q < e; q++) {
				uint32_t a = w->w[q].arc;
				int64_t j = 0;
				if (return_tail(g, a, w->w[k].at, in) ||
				    threaded(g, w, a, w->w[k].at) ||
				    (j = jumps_on_into(g, a, w->w[k].at, in)))
					shared[a] = 1;
				else if (oa && !shared[a])
					shared[a] = 2;
				/* The threaded path ran the arm's code, which
				 * is d's alone (its only predecessor is a's
				 * condition): d ran at least that often. */
				uint32_t d = g->f->arcs[a].dst;
				if (j > lb[d])
					lb[d] = j;
				/* The one way landing on code a copy of other
				 * registers repeats, d's alone: d ran the
				 * way's runs and the copy's. */
				if (copied > 0 && e - k == 1 && d >= 2 &&
				    g->npred[d] == 1 && in + copied > lb[d])
					lb[d] = in + copied;
			}
			continue;
		}
		for (size_t q = k; q < e; q++)
			shared[w->w[q].arc] = 1;
	}
}
