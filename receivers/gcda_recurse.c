/* Calls a function inlined into itself makes of itself (gcda_mapper.h:
 * gm_recount_self). gcc -O2 turns a recursive function's last call
 * into a loop (tail recursion, with an accumulator for `return f(n - 1)
 * + f(n - 2)`) and inlines the other call into the function several
 * levels deep, hoisting each copy's loop setup (a trip count computed
 * from n) out of the per-call code: the copies' own first instructions
 * then run fewer times than they are entered, and the function's calls
 * counted from them fall far short. The instrumented run counts one call
 * per execution of each gcno block that calls the function itself, and
 * those blocks' counts come from the copies' loops and lines, so calls
 * from outside plus those counts give the calls. */
#include <string.h>

#include "gcda_mapper.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

/* Source lines that call the function itself, at most. */
#define MAX_SELF_LINES 16

/* A (file, line) pair in DWARF numbering. */
struct fline {
	uint32_t file; /* DWARF file index */
	uint32_t line; /* line */
};

/* Adds (file, line) to v[*n] unless there or full; returns 0 when full. */
static int add_line(struct fline *v, int *n, uint32_t file, uint32_t line)
{
	for (int k = 0; k < *n; k++)
		if (v[k].file == file && v[k].line == line)
			return 1;
	if (*n == MAX_SELF_LINES)
		return 0;
	v[(*n)++] = (struct fline){file, line};
	return 1;
}

/* Executions of the calls of the function's entry g->lo from its copies
 * elsewhere span[nspan] (a copy inlined into a caller calls the body for
 * its own recursive call). */
static uint64_t copy_calls(const struct gm *g, const struct gm_span *span,
                           size_t nspan)
{
	uint64_t n = 0;
	for (size_t k = 0; k < nspan; k++) {
		struct lt_insn d;
		for (uint64_t a = span[k].lo; a < span[k].hi; a += d.len) {
			if (lt_image_insn(g->x->img, a, &d) < 0 || d.len < 2)
				break;
			if (d.link != LT_LINK_NONE &&
			    d.cls == LT_INSN_JUMP && d.target == g->lo)
				n += gc_insn_count(g->x->c, g->x->im, a);
		}
	}
	return n;
}

/* Collects the lines the function's machine code calls itself from
 * into v[*n]: lines of calls of its own entry g->lo and call sites of
 * its copies inlined into itself. Adds the executions of those calls to
 * *direct. Returns 0 when there are too many lines. */
static int self_call_lines(const struct gm *g, struct fline *v, int *n,
                           uint64_t *direct)
{
	for (uint32_t i = 0; i < g->m_body; i++) {
		const struct minsn *in = &g->in[i];
		if (!gm_is_call(in) || in->tgt != g->lo)
			continue;
		*direct += gc_insn_count(g->x->c, g->x->im, in->addr);
		if (in->line && !add_line(v, n, in->file, in->line))
			return 0;
	}
	const struct lt_dwarf *dw = g->x->dw;
	for (size_t r = 0; dw && r < dw->nirange; r++) {
		if (dw->irange[r].hi <= g->lo || dw->irange[r].lo >= g->hi)
			continue;
		for (int32_t q = (int32_t)dw->irange[r].func; q >= 0;
		     q = dw->func[q].parent) {
			const struct lt_inline_func *fq = &dw->func[q];
			if (fq->depth && fq->call_line &&
			    strcmp(fq->name, g->f->name) == 0 &&
			    !add_line(v, n, fq->call_file, fq->call_line))
				return 0;
		}
	}
	return 1;
}

/* The calls of itself the flow's arcs g->arc give the blocks that call
 * the function itself (a fake arc to EXIT, a line where the machine code
 * calls its own entry or holds a copy of it inlined into itself): the
 * sum of their counts. Only blocks without lines of their own (est[b] <
 * 0: a function written on one line), whose only successor is entered
 * from them alone and has an estimate, qualify: a block with lines was
 * counted from them together with the copies' entries, which then hold.
 * 0 when some such block does not qualify or none exists. */
static uint64_t self_calls(const struct gm *g, const struct fline *v, int n,
                           const int64_t *est)
{
	uint64_t sum = 0;
	int found = 0;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (!gm_has_fake_out(g, b))
			continue;
		int calls = 0;
		for (int k = 0; k < n && !calls; k++)
			calls = gm_block_has_line(g, b, v[k].file, v[k].line);
		if (!calls)
			continue;
		long s = gm_only_succ(g, b);
		if (est[b] >= 0 || s < 2 || g->npred[s] != 1 || est[s] < 0)
			return 0;
		for (uint32_t a = 0; a < g->f->n_arcs; a++)
			if (g->f->arcs[a].dst == b && g->arc[a] > 0)
				sum += (uint64_t)g->arc[a];
		found = 1;
	}
	return found ? sum : 0;
}

int gm_recount_self(struct gm *g, const struct gm_span *span, size_t nspan,
                    const int64_t *est, const int64_t *hard, int have_arcs,
                    uint64_t machine, const int64_t *routed)
{
	struct fline v[MAX_SELF_LINES];
	int n = 0;
	uint64_t direct = copy_calls(g, span, nspan);
	if (!self_call_lines(g, v, &n, &direct) || !n)
		return 0;
	uint64_t rec = self_calls(g, v, n, est);
	uint64_t outside = machine > direct ? machine - direct : 0;
	if (!rec || outside + rec <= g->entries)
		return 0;
	g->entries = outside + rec;
	memcpy(g->arc, routed, g->f->n_arcs * sizeof(*g->arc));
	return gm_make_flow(g, have_arcs, est, hard);
}

/* Is copy c (a gm_span's copy: a DWARF instance, or a whole clone with
 * the top bit) inlined into a copy of the function itself? */
static int nested_copy(const struct gm *g, uint32_t c)
{
	const struct lt_dwarf *dw = g->x->dw;
	if (!dw || (c & 0x80000000u) || c >= dw->nfuncs)
		return 0;
	for (int32_t p = dw->func[c].parent; p >= 0; p = dw->func[p].parent)
		if (strcmp(dw->func[p].name, g->f->name) == 0)
			return 1;
	return 0;
}

void gm_self_block_estimate(const struct gm *g, const struct gm_span *span,
                            size_t nspan, uint64_t own, int64_t *est)
{
	struct fline v[MAX_SELF_LINES];
	int n = 0;
	uint64_t direct = copy_calls(g, span, nspan);
	if (!self_call_lines(g, v, &n, &direct) || !n)
		return;
	/* Entered from outside: the body, and the copies elsewhere not
	 * inlined into a copy of the function (those are its own calls),
	 * less the calls of its entry from its own code. */
	uint64_t outer = own;
	for (size_t i = 0, j; i < nspan; i = j) {
		for (j = i; j < nspan && span[j].copy == span[i].copy; j++)
			;
		uint64_t e = nested_copy(g, span[i].copy) ? 0 :
			     gm_span_entries(g, span + i, j - i);
		if (e == UINT64_MAX)
			return;
		outer += e;
	}
	uint64_t outside = outer > direct ? outer - direct : 0;
	long only = -1;
	for (uint32_t b = 2; b < g->f->n_blocks; b++) {
		if (!gm_has_fake_out(g, b))
			continue;
		for (int k = 0; k < n; k++)
			if (gm_block_has_line(g, b, v[k].file, v[k].line)) {
				if (only >= 0)
					return;
				only = b;
				break;
			}
	}
	/* A block without an estimate (a function on one line) is
	 * gm_recount_self's: the flow's count of it makes the calls. */
	if (only < 0 || est[only] < 0 || g->entries <= outside)
		return;
	int64_t want = (int64_t)(g->entries - outside);
	/* The call returns to the block after it, entered from it alone. */
	for (int depth = 0; only >= 2 && depth < 2; depth++) {
		if (est[only] < want)
			est[only] = want;
		long s = gm_only_succ(g, (uint32_t)only);
		if (s < 2 || g->npred[s] != 1)
			break;
		only = s;
	}
}
