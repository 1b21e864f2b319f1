/* The count the afdo receiver writes for gcc (mid) of each position, and
 * the lines it leaves out for gcc (split).
 * gcc <= 14 keys counts by line only, gives each GIMPLE block the largest
 * count of its statements' lines, then takes annotated blocks as exact and
 * derives edges from them. A line spread over blocks of different counts
 * (a for loop's init, test and step; an if and its body on one line)
 * misleads it whatever count it gets: the maximum makes the cold blocks
 * (the preheader holding the loop's init, the body of a rarely true if)
 * as hot as the hottest, and gcc lays the hot path out of line; the
 * minimum is worse (an invariant instruction hoisted out of a loop makes
 * the loop body cold). So:
 * - a line with STATEMENT rows (is_stmt rows of the line table on an
 *   instruction of that line, where gcc put a statement's beginning) gets
 *   the count of its statements: each statement (line and column) ran as
 *   often as control passed its beginning, summed over its copies (tail
 *   duplication and loop header copying repeat a statement's beginning;
 *   rows in one straight run of code count once), and the line that of
 *   its FIRST statement (lowest column): the init of a `for`, the test
 *   of an `if (c) x++;`. gcc's afdo_set_bb_count gives a block the
 *   largest count of its statements, looked up by line offset in
 *   get_count_info, so the line's count reaches every block holding one
 *   of its statements. The first statement's block is where control
 *   enters the line (a loop's preheader, an if's test block), and the
 *   line's other statements sit in blocks that run no more often (an
 *   if's body) or in the loop, whose header and latch the body's own
 *   lines and afdo_propagate's flow raise (a block below the sum of its
 *   known in-edges is raised to it). A larger count, the test's (the
 *   largest, used before), never comes down: it makes the preheader as
 *   hot as the loop, and afdo_find_equiv_class spreads it to every block
 *   of the same count class outside the loop (strings: 22% -> 56%;
 *   taken branches recovered on the corpus 28% -> 39%). Instructions the scheduler hoisted into hotter
 *   blocks (a speculated `s + 1`, a load moved above a test) carry the
 *   line but no statement row, so they no longer make the statement as
 *   hot as the block they landed in, and a duplicated test (gcc -O2
 *   copies an `if (ch == 0) return;` into each of a state machine's
 *   exits) gets its whole count instead of its hottest copy's. Rows
 *   that share their address with a later row of another line are left
 *   out: such a statement has no code there (its own was merged or
 *   if-converted away; a `*bad = 1` turned into a conditional store
 *   shows its row at the next iteration's start);
 * - code the scheduler HOISTED above an earlier line's test deciding
 *   whether it runs (its statement row with it) counts as often as the
 *   outcome holding the rest of it (afdo_tests.c), in the statement
 *   count as in the median below; so does a loop's step moved above
 *   the body's back edge (afdo_step.c: my_sqrt's counter above its
 *   break test);
 * - a test whose outcome goes straight into its loop's continuation (a
 *   `continue`, whose GIMPLE block gcc annotates with the if's line)
 *   counts at most as often as that outcome (afdo_continue.c);
 * - otherwise mid is the upper MEDIAN over the line's instructions: the
 *   block holding most of the line's code;
 * - a line without statement rows whose conditional branches ran with
 *   exactly two different counts is mostly a loop header (a rotated loop's entry test and latch
 *   test, or a test before the loop): mid is the lower, the loop's entry
 *   count, right for the preheader holding its init, while gcc recovers
 *   the header's own count by flow from the body;
 * - an `if (c) x;` on one line (the line's one executed conditional
 *   branch jumps forward, and an outcome runs the line's own code: its
 *   first instruction is of the line, ran exactly as often as the outcome,
 *   and its straight run tests nothing more, else it is the second half
 *   of an `a && b`): mid is at most that outcome's count, the arm's. gcc
 *   gives the arm's block (it holds only the line's statements) the
 *   line's count, and a block's count never comes down: the test's count
 *   made bankacct's rarely true `if ((r >> 8) % 13 == 0) t->amount *=
 *   40;` arm 100% likely (gcc duplicated gen_tx's body around it; -202%
 *   of FDO's gain -> -75%). The test's own block mostly holds the statements
 *   before it too, or is raised by flow (lru -37% -> 13%, pqsim 105% ->
 *   137%, errpath 63% -> 80%; sorts' median of three 50% -> 37%; corpus
 *   62% -> 63%). Several tests on the line (copies, peeled iterations:
 *   geom's bbox) say nothing sure about which arm is which;
 * - a call on the line ran exactly as often as its statement: mid is at
 *   least the hottest call's count (gcc's call-edge counts);
 * - a line whose conditional branches ran with three or more different
 *   counts holds several decisions. gcc gives each of its GIMPLE test
 *   blocks the one count, and afdo_propagate_edge then settles their
 *   edges from it: a test block with one predecessor takes its whole
 *   count from the test before it, so that test's other way gets the
 *   rest, often 0. One count fits when the tests all ran about as often
 *   (an && CHAIN, each test passing nearly all its runs to the next):
 *   the tests that ran more often than the line's first statement (all
 *   of them when it ran at least as often as the hottest; the others are
 *   the copy of a loop's condition that header copying puts before the
 *   loop, one GIMPLE block with the latch's copy when gcc annotates) have
 *   at least two different counts, the lowest at least half the highest:
 *   mid is the hottest test's count (lz77's `len = 0; while (len < MAXM
 *   && i + len < n && in[a + len] == in[b + len]) len++;`: left out, the
 *   loop looked never run; -77% -> 7%). Any other such line is SPLIT and
 *   left out, so its blocks take counts from flow and its branches keep
 *   gcc's static guesses, unless it holds an indirect call that reached
 *   a function (gcc promotes indirect calls from the position's targets:
 *   bsearchq's `while (j >= gap && cmp(..) > 0)`). A direct call no
 *   longer keeps it: strtab's `if (strlen(kw[k]) == len && memcmp(kw[k],
 *   w, len) == 0)` gave the memcmp block the strlen test's count, that
 *   test looked always true, and cunroll refused to peel the 16-keyword
 *   loop (max-peel-branches on the hot path), so strlen of the constant
 *   strings was never folded as FDO does (-7% -> 84% of FDO's 465k).
 *   Nor a line holding a SWITCH's table jump with a statement row: it
 *   is one GIMPLE block when gcc reads the profile, and gets its first
 *   statement's count (afdo_switch.c); nor a switch lowered to tests:
 *   one statement, no call, no backward test, its code left for three
 *   or more places (afdo_multiway.c).
 *   No count fits a || inside a loop: multitu's insertion sort `for (j =
 *   i - 1; j >= 0 && (p[j].x > v.x || (p[j].x == v.x && p[j].y > v.y));
 *   j--)` measured by hand-edited profiles: the init's count 1196 (the
 *   preheader's) makes the header's exit edge take the loop's runs
 *   (-54%); the hottest test's, 90753, gets the loop unrolled but the
 *   B block (single predecessor A) takes all of A's count, A's edge to
 *   the body gets 0 and the hot path is laid out of line (-301%); left
 *   out, the A, B and C blocks stay at 0 (the rotated loop's header is
 *   cold, not unrolled: 0%, FDO saves 165k). gcc 15's discriminator keys
 *   would separate them; gcc <= 14 cannot. Written as 0 it gains half
 *   of FDO's taken branches through a profile gcc's flow contradicts (a
 *   layout accident, README "AutoFDO"): not kept;
 * - a line with no code of its own (its statements merged into others')
 *   that still has a zero-length is_stmt row in the line table gets the
 *   largest count of the instructions such rows sit on (a VIEW position:
 *   count 0, left out of the LLVM, text and lines=max output): gcc would
 *   otherwise leave its blocks at zero, that is never executed.
 * Measured on the corpus (scripts/afdo-parity.sh, share of instrumented
 * FDO's instruction savings recovered; first 56 programs: split lines
 * written with their first statement's count 61%, the median 62%, the
 * hottest test's 51%, the && chain rule and direct calls not keeping a
 * split line 63% -> 75%, taken branches 52% -> 57%): maximum -12%
 * (worse than no profile), median 48%, median without split lines 60%, the loop entry
 * and call rules 62%, view positions 63%; on the 19-program corpus
 * 66%, statement rows 68% (fsm, hdrinline, loops, recursion, branchy up;
 * strings, errpath down: a for line's init and test are different
 * statements, and its larger count reached the preheader), the first
 * statement's count 68% (strings 22% -> 56%; loops 122% -> 79%: the
 * inner sieve loop's preheader no longer looks hotter than its outer
 * loop, and gcc now lays out like FDO, with as few taken branches).
 * Known loss: a loop latch holding only the step (after a continue)
 * gets the init's count, under its true count; afdo_propagate_edge then
 * fixes its unknown in-edge at 0 (the sieve's inner loop exit). And no
 * line count gives a loop entered from a two-way block its entry edge:
 * the latch (the step's line, the test's too) is never below the
 * header, its edge is known first, so the entry edge gets header minus
 * latch, 0 (bigint's bn_add: the early `return -1` 100% likely). For
 * the same reason a `for` condition with a second exit loses it: the
 * latch holds the step, of the tests' line, so it equals the second
 * test's block, its edge to the latch takes that block's whole count and
 * its exit gets 0 (fpmath's `i < 40 && fabsf(..) > e`: the same profile
 * from gcc with the line at 1500, 11497, 50000 or left out).
 * Nor does any count make gcc 12 peel a loop under AutoFDO: its iteration
 * estimate needs a reliable_p() header count, and AFDO-quality counts
 * never are (the corpus FDO builds peel in 53 of 74 programs, ours in
 * none; 416k of FDO's 4578k instructions saved, README "AutoFDO").
 * Gaps no line count closes (replacing every line count by gcov's line
 * count from the instrumented twin, an oracle, recovers no more on sorts,
 * setjmp, recursion, branchy, hdrinline, and less on calls and fsm):
 * a `do i++; while (..)` sharing its header with an enclosing `for (;;)`
 * makes gcc's afdo_find_equiv_class put the loop's exit forwarder in the
 * header's class (same loop, dominance both ways), so the inner loop's
 * back edge is left 0 (sorts' quick_sort); an `if (c) { body }` or a
 * `c ? x : f() + g()` on one line gives the body or the calls the
 * test's count (sorts' median of three, recursion's fib); lines left out
 * for several decisions keep gcc's static guesses (fsm, hdrinline). */
#include <stdlib.h>
#include <string.h>

#include "afdo.h"
#include "ltpipe/error.h"
#include "ltpipe/insn.h"

/* One executed instruction's count at its position (positions move when
 * an instance's array grows, so they are named by instance and key). */
struct afdo_rec {
	uintptr_t inst;  /* the position's instance */
	uint32_t off;    /* its line offset */
	uint32_t discr;  /* its discriminator */
	uint64_t count;  /* the instruction's executions */
	int view;        /* 0: an instruction of the line; 1: a line with no
	                    code of its own starts here; 2: a statement of
	                    the line starts here (an is_stmt row) */
	int branch;      /* the instruction is a conditional branch */
	int call;        /* the instruction is a call */
	uint64_t addr;   /* the instruction's address (statement records) */
	uint32_t col;    /* the statement's column (statement records) */
	int back;        /* a conditional branch jumping backwards */
	uint64_t arm;    /* a conditional branch's outcome count that runs
	                    the line's own code (an arm on the line), or
	                    UINT64_MAX */
	int table;       /* a switch's table jump (afdo_switch.c) */
	uint64_t exits[2]; /* a transfer's taken and fall-through
	                      destinations outside its line's code, or 0
	                      (afdo_multiway.c) */
};

/* Orders by position, then count. */
static int afdo_rec_order(const void *pa, const void *pb)
{
	const struct afdo_rec *a = pa, *b = pb;
	if (a->inst != b->inst)
		return a->inst < b->inst ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	if (a->discr != b->discr)
		return a->discr < b->discr ? -1 : 1;
	if (a->view != b->view)
		return a->view < b->view ? -1 : 1;
	if (a->view == 2 && a->col != b->col)
		return a->col < b->col ? -1 : 1;
	if (a->view == 2 && a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	return 0;
}

/* Returns 1 if the instruction at addr of img is a conditional branch. */
static int is_branch(const struct lt_image *img, uint64_t addr)
{
	const struct lt_region *r = lt_image_region(img, addr);
	return r && r->info[lt_region_idx(r, addr)].cls == LT_INSN_BRANCH;
}

/* Appends record r to *ip (growing it). */
static int push_rec(struct afdo_rec **ip, size_t *nip, size_t *cap,
                    struct afdo_rec r)
{
	if (*nip == *cap) {
		size_t c = *cap * 2;
		struct afdo_rec *v = realloc(*ip, c * sizeof(*v));
		if (!v)
			return LT_ERR_NOMEM;
		*ip = v;
		*cap = c;
	}
	(*ip)[(*nip)++] = r;
	return 0;
}

/* Records the is_stmt rows of addr's group (in the file of the row addr
 * is reported with) for f with addr's count: those on the reported line
 * as statement records (a statement that begins with code here: it runs
 * each time control passes here, wherever the scheduler moved the rest
 * of its instructions), those before it on other lines as view records
 * (lines with no code here: a line gcc finds no count for leaves its
 * blocks at zero unless flow recovers them). */
static int view_lines(const struct lt_dwarf *dw, uint64_t addr,
                      uint64_t count, struct afdo_inst *f,
                      struct afdo_rec **ip, size_t *nip, size_t *cap)
{
	long r = lt_dwarf_line_find(dw, addr);
	if (r < 0 || dw->range[r].lo != addr)
		return 0;
	const struct lt_line_range *g = &dw->range[r];
	const struct lt_line_row *last = &dw->row[g->last];
	for (uint32_t k = g->first; k <= g->last; k++) {
		const struct lt_line_row *w = &dw->row[k];
		if (!w->is_stmt || !w->line || w->file != last->file ||
		    w->line < f->decl_line || w->line - f->decl_line > 0xffff)
			continue;
		struct afdo_pos *q = afdo_pos_get(f, w->line - f->decl_line, 0);
		if (!q)
			return LT_ERR_NOMEM;
		int rc = 0;
		if (w->line == last->line)
			rc = push_rec(ip, nip, cap, (struct afdo_rec){
				(uintptr_t)f, q->off, 0, count, 2, 0, 0, addr,
				w->column, 0, UINT64_MAX, 0, {0, 0}});
		if (!rc && k < g->last && w->line != last->line)
			rc = push_rec(ip, nip, cap, (struct afdo_rec){
				(uintptr_t)f, q->off, 0, count, 1, 0, 0, 0, 0, 0,
				UINT64_MAX, 0, {0, 0}});
		if (rc)
			return rc;
	}
	return 0;
}

/* Returns 1 if control can leave the straight line between addresses a
 * and b (a < b) of img before reaching b: a transfer or trap among the
 * instructions from a up to b, or a gap in the image. */
static int leaves_between(const struct lt_image *img, uint64_t a, uint64_t b)
{
	const struct lt_region *r = lt_image_region(img, a);
	while (r && a < b && a < r->end) {
		const struct lt_hwinfo *i = &r->info[lt_region_idx(r, a)];
		if (i->cls != LT_INSN_OTHER || !i->len)
			return 1;
		a += i->len;
	}
	return a < b;
}

/* Returns the count for an && chain (see the top comment) from the
 * records v[i..j) of one position, sorted by count, whose conditional
 * branches ran at most `hi` times and whose first statement ran `stmt`
 * times (0: none): the branches that ran more often than the statement
 * (all of them when it ran at least as often as every branch, or there is
 * none; those that did not are the condition's copy before the loop)
 * must have at least two different counts, the lowest at least half the
 * highest. Returns hi then, else 0. */
static uint64_t chain_count(const struct afdo_rec *v, size_t i, size_t j,
                            uint64_t stmt, uint64_t hi)
{
	uint64_t entry = stmt < hi ? stmt : 0;
	for (size_t k = i; k < j; k++)
		if (!v[k].view && v[k].branch && v[k].count > entry)
			return v[k].count < hi && v[k].count * 2 >= hi ? hi : 0;
	return 0;
}

/* Sets each position's mid and split from m's records (contract in
 * afdo.h). */
void afdo_mid_settle(struct afdo_mids *m, const struct lt_image *img)
{
	struct afdo_rec *v = m->v;
	size_t n = m->n;
	qsort(v, n, sizeof(*v), afdo_rec_order);
	for (size_t i = 0, j; i < n; i = j) {
		size_t nbr = 0, nreal = 0, nstmt = 0, nbrins = 0;
		uint64_t last = 0, low = 0, call = 0, view = 0, stmt = 0;
		uint64_t arm = UINT64_MAX;
		uint64_t exits[3] = {0, 0, 0};
		int back = 0, table = 0, nexit = 0, ncol = 0;
		uint64_t prev = 0, prevc = 0, colsum = 0;
		uint32_t col = 0;
		for (j = i; j < n && v[j].inst == v[i].inst &&
		     v[j].off == v[i].off && v[j].discr == v[i].discr; j++) {

			if (v[j].view == 2) {
				/* Sorted by column: the first sum is the
				 * line's first statement's. */
				if (nstmt && v[j].col != col) {
					if (!stmt)
						stmt = colsum;
					colsum = 0;
					nstmt = 0;
				}
				if (!nstmt)
					ncol++;
				col = v[j].col;
				/* Sorted by address: one count per straight
				 * run, however many statements start in it. */
				if (nstmt && (v[j].addr == prev ||
				    (v[j].count == prevc &&
				     !leaves_between(img, prev, v[j].addr))))
					continue;
				nstmt++;
				colsum += v[j].count;
				prev = v[j].addr;
				prevc = v[j].count;
				continue;
			}
			if (v[j].view) {
				if (v[j].count > view)
					view = v[j].count;
				continue;
			}
			nreal++;
			table |= v[j].table;
			for (int e = 0; e < 2; e++) {
				int seen = !v[j].exits[e];
				for (int k = 0; k < nexit && !seen; k++)
					seen = exits[k] == v[j].exits[e];
				if (!seen && nexit < 3)
					exits[nexit++] = v[j].exits[e];
			}
			if (v[j].branch) {
				nbrins++;
				back |= v[j].back;
				if (v[j].arm < arm)
					arm = v[j].arm;
			}
			if (v[j].call && v[j].count > call)
				call = v[j].count;
			/* Sorted by count: a new value differs from the last. */
			if (v[j].branch && (!nbr || v[j].count != last)) {
				if (!nbr)
					low = v[j].count;
				nbr++;
				last = v[j].count;
			}
		}
		if (!stmt)
			stmt = colsum;
		/* An `if (c) x;` on one line: its one test's arm (see the
		 * top comment). */
		if (nbrins != 1 || back)
			arm = UINT64_MAX;
		struct afdo_inst *f = (struct afdo_inst *)v[i].inst;
		struct afdo_pos *q = afdo_pos_find(f, v[i].off, v[i].discr);
		/* A switch is one GIMPLE block when gcc reads the profile,
		 * lowered to a jump table or to tests: one statement, no
		 * call, its tests leaving it three ways or more, none
		 * backwards (afdo_multiway.c). */
		if (nexit >= 3 && ncol == 1 && !call && !back)
			table = 1;
		if (table && stmt && nbr >= 3) {
			q->mid = stmt > call ? stmt : call;
			q->split = 0;
			continue;
		}
		uint64_t chain = nbr >= 3 ? chain_count(v, i, j, stmt, last) : 0;
		if (chain) {
			q->mid = chain > call ? chain : call;
			q->split = 0;
			continue;
		}
		if (stmt) {
			if (arm < stmt)
				stmt = arm;
			q->mid = stmt > call ? stmt : call;
			q->split = nbr >= 3;
			continue;
		}
		if (!nreal) {
			q->mid = view;
			q->split = 0;
			continue;
		}
		q->mid = nbr == 2 ? low : v[i + nreal / 2].count;
		if (arm < q->mid)
			q->mid = arm;
		if (call > q->mid)
			q->mid = call;
		q->split = nbr >= 3;
	}
}

/* Returns 1 if the conditional branch at addr of img jumps backwards (a
 * loop's test). */
static int branch_back(const struct lt_image *img, uint64_t addr)
{
	const struct lt_region *r = lt_image_region(img, addr);
	return r && r->info[lt_region_idx(r, addr)].tgt <= 0;
}

int afdo_mid_record(struct afdo_mids *m, struct afdo_prof *p,
                    const struct afdo_input *in, const struct afdo_pair *ic,
                    size_t nic, size_t i, struct afdo_inst *f, uint32_t off,
                    uint32_t discr)
{
	if (!m->cap) {
		m->cap = nic + 16;
		m->v = malloc(m->cap * sizeof(*m->v));
		if (!m->v)
			return LT_ERR_NOMEM;
	}
	int br = is_branch(in->img, ic[i].a);
	int rc = push_rec(&m->v, &m->n, &m->cap, (struct afdo_rec){
		(uintptr_t)f, off, discr, ic[i].count, 0, br,
		afdo_is_call(in->img, ic[i].a), 0, 0,
		br && branch_back(in->img, ic[i].a), UINT64_MAX,
		afdo_table_jump(in, ic[i].a), {0, 0}});
	if (rc || p->discr)
		return rc;
	size_t first = m->n - 1;
	rc = afdo_branch_exits(p, in, ic[i].a, ic[i].count, f, off,
	                       m->v[first].exits);
	if (!rc && br)
		rc = afdo_branch_arm(p, in, ic, nic, ic[i].a, ic[i].count, f,
		                     off, &m->v[first].arm);
	if (!rc && br)
		rc = afdo_continue_arm(p, in, ic, nic, ic[i].a, ic[i].count, f,
		                       off, &m->v[first].arm);
	if (!rc)
		rc = view_lines(in->dw, ic[i].a, ic[i].count, f, &m->v, &m->n,
		                &m->cap);
	/* Code hoisted above a test: its records (the instruction's, its
	 * statements') count as the outcome holding the rest of it
	 * (afdo_tests.c). */
	uint64_t cap = rc ? UINT64_MAX
	             : afdo_hoist_cap(p, in, ic, nic, ic[i].a, f, off, &rc);
	uint64_t step = rc ? UINT64_MAX
	              : afdo_step_cap(p, in, ic[i].a, f, off, &rc);
	if (step < cap)
		cap = step;
	for (size_t k = first; cap < ic[i].count && k < m->n; k++)
		if (m->v[k].view != 1 && m->v[k].off == off &&
		    m->v[k].inst == (uintptr_t)f)
			m->v[k].count = cap;
	return rc;
}

void afdo_mid_free(struct afdo_mids *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}
