/* An arm whose statement gcc's tail merging gave another line
 * (gcda_arms.h: gm_tail_merged_arms). At -O2, tail merging
 * (-ftree-tail-merge, after the profiling pass wrote the gcno) replaces
 * blocks that run the same statements into the same successor by one of
 * them, with that one's locations; later passes may copy the merged block
 * back onto each way that enters it. An interpreter's
 *
 *     case JNZ: if (!c->zf) c->pc = in->imm; break;      (line 90)
 *     case JGE: if (!c->nf) c->pc = in->imm; break;      (line 92)
 *
 * keeps a `c->pc = in->imm` for each test, every copy under line 92:
 *
 *     bnez t1,.Lnext      line 90: JNZ's test
 *     lh   t6,4(a5)       line 92: JNZ's `c->pc = in->imm`
 *     j    .Lloop
 *
 * The way into the copy runs first a line neither of line 90's arms
 * lists, so the lines match the test to no block. The statement's text
 * can: when the arm block of the test's condition (the block on the
 * condition's one-arm side, whose only successor is the other arc's
 * destination) lists a line holding a statement written exactly as one on
 * the line the way runs first, and a block of that line has the same only
 * successor (tail merging merges blocks of one successor), the way runs
 * the arm; the other way, running neither the arm's line nor the test's
 * first, is the join's (past tests threading decided on it). The
 * kept copy's own test (its way on the arm's own line, which the
 * condition lists too) counts only when that way's first code is no edge
 * copy: a join's value moves may sit on that line on either way. A guess
 * (the texts may agree by chance): bounds only. */
#include <stdlib.h>
#include <string.h>

#include "gcda_arms.h"
#include "gcda_mapper.h"
#include "gcda_regs.h"
#include "gcda_srctext.h"
#include "gcda_waydest.h"
#include "ltpipe/dwarf_lines.h"
#include "ltpipe/insn.h"

/* Longest source line read. */
#define LINE_MAX_READ 4096
/* Most statements read from one line. */
#define MAX_STMTS 16

/* One statement of a line. */
struct stmt {
	char *s; /* its text without blanks and braces (owned) */
};

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Does text[p..] start the keyword kw (not part of a longer name)? */
static int keyword_at(const char *t, size_t p, size_t e, const char *kw)
{
	size_t n = strlen(kw);
	return p + n <= e && !strncmp(t + p, kw, n) &&
	       (p + n == e || !is_ident(t[p + n]));
}

static size_t skip_blanks(const char *t, size_t p, size_t e)
{
	while (p < e && (t[p] == ' ' || t[p] == '\t' || t[p] == '{' ||
	                 t[p] == '}'))
		p++;
	return p;
}

/* Past a parenthesized group starting at t[p] == '(': the index after
 * its ')', or e when it does not close before e. */
static size_t past_parens(const char *t, size_t p, size_t e)
{
	int depth = 0;
	for (; p < e; p++) {
		if (t[p] == '(')
			depth++;
		else if (t[p] == ')' && --depth == 0)
			return p + 1;
	}
	return e;
}

/* The statement of text[p, e) (one `;`-ended piece) without what only
 * leads into it: labels (`case K:`, `default:`, `name:`), `else`, `do`
 * and the headers `if (...)`, `while (...)`, `for (...)`, `switch (...)`;
 * blanks dropped. NULL for a piece left empty or a bare jump (`break`,
 * `continue`, `return`, `goto x`: alike on most lines, they tell no
 * statement apart), or one holding a `?`/`:` the label rule cannot read. */
static char *statement(const char *t, size_t p, size_t e)
{
	for (;;) {
		p = skip_blanks(t, p, e);
		static const char *const heads[] = {"if", "while", "for",
		                                    "switch"};
		int again = 0;
		for (size_t k = 0; k < 4 && !again; k++) {
			if (!keyword_at(t, p, e, heads[k]))
				continue;
			size_t q = skip_blanks(t, p + strlen(heads[k]), e);
			if (q >= e || t[q] != '(')
				return NULL;
			p = past_parens(t, q, e);
			again = 1;
		}
		if (!again && (keyword_at(t, p, e, "else") ||
		               keyword_at(t, p, e, "do"))) {
			p += t[p] == 'e' ? 4 : 2;
			again = 1;
		}
		if (!again && keyword_at(t, p, e, "default")) {
			size_t q = skip_blanks(t, p + 7, e);
			if (q < e && t[q] == ':') {
				p = q + 1;
				again = 1;
			}
		}
		if (!again && keyword_at(t, p, e, "case")) {
			size_t q = p + 4;
			while (q < e && t[q] != ':' && t[q] != '?')
				q++;
			if (q >= e || t[q] != ':')
				return NULL;
			p = q + 1;
			again = 1;
		}
		if (!again && p < e && is_ident(t[p]) &&
		    !(t[p] >= '0' && t[p] <= '9')) {
			/* `name:` (a goto label), not `a ? b : c`. */
			size_t q = p;
			while (q < e && is_ident(t[q]))
				q++;
			size_t r = q;
			while (r < e && (t[r] == ' ' || t[r] == '\t'))
				r++;
			if (r < e && t[r] == ':' && (r + 1 >= e ||
			                             t[r + 1] != ':')) {
				p = r + 1;
				again = 1;
			}
		}
		if (!again)
			break;
	}
	if (p >= e)
		return NULL;
	static const char *const jumps[] = {"break", "continue", "return",
	                                    "goto"};
	for (size_t k = 0; k < 4; k++)
		if (keyword_at(t, p, e, jumps[k])) {
			size_t q = skip_blanks(t, p + strlen(jumps[k]), e);
			if (k < 2 || q >= e || k == 3)
				return NULL;
		}
	char *s = malloc(e - p + 1);
	size_t n = 0;
	if (!s)
		return NULL;
	for (size_t q = p; q < e; q++) {
		if (t[q] == '?' || t[q] == '"' || t[q] == '\'') {
			free(s);
			return NULL; /* literals and ?: unread */
		}
		if (t[q] != ' ' && t[q] != '\t' && t[q] != '{' && t[q] != '}')
			s[n++] = t[q];
	}
	s[n] = 0;
	if (n < 3) {
		free(s);
		return NULL;
	}
	return s;
}

/* The statements of DWARF (file, line) into st[], their number (0 when
 * the line cannot be read); the caller frees each st[k].s. Pieces end at
 * `;` outside parentheses (a `for` header's own `;`s are inside); text
 * after the last `;` and comments (from a comment opener on) are no
 * statement. */
static int line_stmts(const struct gm *g, uint32_t file, uint32_t line,
                      struct stmt *st)
{
	if (file == LT_DWARF_NO_FILE || file >= g->x->dw->nfiles)
		return 0;
	char *t = gm_source_line(g->x->src, g->x->dw->file[file], line,
	                         LINE_MAX_READ);
	if (!t)
		return 0;
	size_t e = strlen(t), p = 0;
	static const char *const opens[] = {"//", "/*"};
	for (int k = 0; k < 2; k++) {
		const char *cm = strstr(t, opens[k]);
		if (cm && (size_t)(cm - t) < e)
			e = (size_t)(cm - t);
	}
	int n = 0, depth = 0;
	for (size_t q = 0; q < e && n < MAX_STMTS; q++) {
		if (t[q] == '(')
			depth++;
		else if (t[q] == ')')
			depth--;
		else if (t[q] == ';' && depth == 0) {
			char *s = statement(t, p, q);
			if (s)
				st[n++].s = s;
			p = q + 1;
		}
	}
	free(t);
	return n;
}

static void free_stmts(struct stmt *st, int n)
{
	for (int k = 0; k < n; k++)
		free(st[k].s);
}

/* Does a line block d lists hold a statement of st[n]? */
static int block_holds(const struct gm *g, uint32_t d, const struct stmt *st,
                       int n)
{
	const struct lt_gcno_block *bl = &g->f->blocks[d];
	for (uint32_t l = 0; l < bl->n_lines; l++) {
		uint32_t file = g->x->filemap[bl->lines[l].file];
		struct stmt mine[MAX_STMTS];
		int m = line_stmts(g, file, bl->lines[l].line, mine);
		int hit = 0;
		for (int a = 0; a < m && !hit; a++)
			for (int k = 0; k < n && !hit; k++)
				hit = !strcmp(mine[a].s, st[k].s);
		free_stmts(mine, m);
		if (hit)
			return 1;
	}
	return 0;
}

/* Is there a gcno block other than arm listing (file, line) whose only
 * real successor is join: a block tail merging could have kept? */
static int merge_partner(const struct gm *g, uint32_t arm, uint32_t join,
                         uint32_t file, uint32_t line)
{
	for (uint32_t b = 2; b < g->f->n_blocks; b++)
		if (b != arm && gm_block_has_line(g, b, file, line) &&
		    gm_only_succ(g, b) == (long)join)
			return 1;
	return 0;
}

/* gm_tail_merged_arms; *merged (when not NULL) gets the line the arm's way
 * ran first when that was a merge partner's line (the text told), else
 * stays as it was. own: a way whose first code, no edge copy, is on the
 * arm's own line runs the arm too (0: the text tells only). */
static int tail_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                     long *fa, uint32_t *merged, int own)
{
	const struct minsn *in = &g->in[i];
	/* Only the function's own tests: a copy of a callee inlined early
	 * lists the callee's lines in a block, and so may each copy gcc
	 * inlined later, which tests no block of this function. */
	if (in->cline != in->line || in->cfile != in->file ||
	    !gm_in_own_body(g, in->file, in->line))
		return 0;
	if (!g->x->optimized || !g->x->src || gm_n_real_out(g, b) != 2 ||
	    gm_has_fake_out(g, b) || g->nout[b] != 2 ||
	    !gm_falls_to_next(g, i))
		return 0;
	uint32_t x = g->outa[b][0], y = g->outa[b][1];
	uint32_t dx = g->f->arcs[x].dst, dy = g->f->arcs[y].dst;
	/* The arm: one arc's block, leading only to the other's. */
	long arm_arc, join_arc;
	uint32_t arm, join;
	if (dy >= 2 && gm_only_succ(g, dy) == (long)dx &&
	    !(dx >= 2 && gm_only_succ(g, dx) == (long)dy)) {
		arm_arc = y, join_arc = x, arm = dy, join = dx;
	} else if (dx >= 2 && gm_only_succ(g, dx) == (long)dy &&
	           !(dy >= 2 && gm_only_succ(g, dy) == (long)dx)) {
		arm_arc = x, join_arc = y, arm = dx, join = dy;
	} else {
		return 0;
	}
	/* A way into a few of the caller's instructions (an inlined
	 * copy's register moves) that run back into the copy stays in it. */
	long t = gm_insn_at(g, in->tgt);
	long way[2] = {t >= 0 ? t : gm_resume(g, in->tgt, gm_copy_of(g, i)),
	               (long)i + 1};
	uint32_t fl[2][GM_MAX_RUN][2];
	int nfl[2], onarm[2] = {0, 0}, bytext[2] = {0, 0};
	for (int w = 0; w < 2; w++) {
		if (way[w] < 0 || gm_way_leaves(g, way[w]))
			return 0;
		nfl[w] = gm_run_lines(g, way[w], in, fl[w]);
		if (nfl[w] <= 0)
			return 0;
		uint32_t f0 = fl[w][0][0], l0 = fl[w][0][1];
		int in_join = gm_dest_has_any(g, join, fl[w], 1);
		if (gm_block_has_line(g, arm, f0, l0)) {
			/* The arm's own line, when the way's first code
			 * is no edge copy (the value a join receives from
			 * either way, which out of SSA may sit on the
			 * arm's line on both). */
			onarm[w] = own && !in_join &&
				   !gm_edge_copy(g, (uint32_t)way[w]);
			continue;
		}
		/* A first line of neither arm nor join, not the test's own,
		 * that a tail-merge partner of the arm lists. */
		if (in_join || (f0 == in->file && l0 == in->line) ||
		    !merge_partner(g, arm, join, f0, l0))
			continue;
		struct stmt st[MAX_STMTS];
		int n = line_stmts(g, f0, l0, st);
		onarm[w] = bytext[w] = n > 0 && block_holds(g, arm, st, n);
		free_stmts(st, n);
	}
	if (onarm[0] == onarm[1])
		return 0;
	int a = onarm[0] ? 0 : 1;
	/* The other way runs none of the arm's code first, nor the test's
	 * own line (the condition block's code, which tells no way): with
	 * two arcs, it is the join's (which may lie past further tests
	 * jump threading decided on the way). */
	uint32_t jf = fl[1 - a][0][0], jl = fl[1 - a][0][1];
	if (gm_block_has_line(g, arm, jf, jl) ||
	    (jf == in->file && jl == in->line))
		return 0;
	*ta = a == 0 ? arm_arc : join_arc;
	*fa = a == 0 ? join_arc : arm_arc;
	if (merged && bytext[a]) {
		merged[0] = fl[a][0][0];
		merged[1] = fl[a][0][1];
	}
	return 1;
}

int gm_tail_merged_arms(const struct gm *g, uint32_t i, uint32_t b, long *ta,
                        long *fa)
{
	return tail_arms(g, i, b, ta, fa, NULL, 1);
}

int gm_tail_merged_lines(const struct gm *g, uint32_t (*fl)[2], int max)
{
	int n = 0;
	if (!g->x->optimized || !g->x->src)
		return 0;
	for (uint32_t i = 0; i < g->m && n < max; i++) {
		const struct minsn *in = &g->in[i];
		if (in->cls != LT_INSN_BRANCH || !in->line)
			continue;
		long one = gm_only_cond_block(g, in), ta, fa;
		uint32_t merged[2] = {LT_DWARF_NO_FILE, 0};
		if (one < 0 ||
		    !tail_arms(g, i, (uint32_t)one, &ta, &fa, merged, 0) ||
		    merged[0] == LT_DWARF_NO_FILE)
			continue;
		int seen = 0;
		for (int k = 0; k < n && !seen; k++)
			seen = fl[k][0] == merged[0] && fl[k][1] == merged[1];
		if (!seen) {
			fl[n][0] = merged[0];
			fl[n][1] = merged[1];
			n++;
		}
	}
	return n;
}
