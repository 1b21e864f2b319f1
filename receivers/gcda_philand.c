/* Jump-table landings without a line of their own (gcda_mapper.h:
 * gm_phi_landing_arc).
 *
 * A case whose statements are only assignments of constants to a
 * variable that lives in a register after the switch (`default: state =
 * 3; break;`, `case 2: state = 2; continue;`) keeps no code of its own
 * once the profiling pass has run: the assignment became a PHI argument,
 * and out-of-SSA puts a constant load on the case's edge,
 *
 *     li   s8,3
 *     j    .Ljoin
 *
 * to which the line table gives no row (the instructions carry no
 * location), so they read as the line of whatever the layout put before
 * them. The gcno arc of such a case goes to the join's block directly
 * (the case's empty block was removed), or to a block whose lines kept no
 * code (`state = 2; continue;`) and on to the join. The landing's jump
 * tells which join: the one arc of the switch whose way, past blocks
 * without code of their own, reaches the block that lists the line the
 * jump lands on. A case with code of its own would have run it at the
 * landing, so arcs to such cases are not candidates. */
#include "gcda_mapper.h"
#include "gcda_waydest.h"
#include "ltpipe/insn.h"

/* Instructions of a landing before its jump: constant loads and copies
 * for the PHIs at the join. */
#define MAX_MOVES 4

/* Does block d list a line with machine code other than (sf, sl), the
 * switch's own line (which a case block may list as well), and (uf, ul),
 * the line the landing jumps to? */
static int block_has_code(const struct gm *g, uint32_t d, uint32_t sf,
                          uint32_t sl, uint32_t uf, uint32_t ul)
{
	const struct lt_gcno_block *bl = &g->f->blocks[d];
	for (uint32_t k = 0; k < bl->n_lines; k++) {
		uint32_t f = g->x->filemap[bl->lines[k].file];
		uint32_t l = bl->lines[k].line;
		if (!(l == sl && f == sf) && !(l == ul && f == uf) &&
		    gm_line_has_code(g, f, l))
			return 1;
	}
	return 0;
}

long gm_phi_landing_arc(const struct gm *g, uint32_t b, long t)
{
	const struct lt_gcno_block *sb = &g->f->blocks[b];
	if (t < 0 || !sb->n_lines)
		return -1;
	uint32_t sf = g->x->filemap[sb->lines[sb->n_lines - 1].file];
	uint32_t sl = sb->lines[sb->n_lines - 1].line;
	/* The landing: a few moves, then a plain jump. */
	int k = 0;
	while (t < (long)g->m && k <= MAX_MOVES &&
	       g->in[t].cls == LT_INSN_OTHER &&
	       !gm_is_store(g->x->img, g->in[t].addr) &&
	       gm_falls_to_next(g, (uint32_t)t)) {
		t++;
		k++;
	}
	if (t >= (long)g->m || k > MAX_MOVES ||
	    g->in[t].cls != LT_INSN_JUMP || g->in[t].link != LT_LINK_NONE)
		return -1;
	long u = gm_insn_at(g, g->in[t].tgt);
	if (u < 0 || !g->in[u].cline)
		return -1;
	uint32_t uf = g->in[u].cfile, ul = g->in[u].cline;
	long hit = -1;
	for (uint32_t q = 0; q < g->nout[b]; q++) {
		uint32_t a = g->outa[b][q];
		if (g->f->arcs[a].flags & LT_GCOV_ARC_FAKE)
			continue;
		long d = g->f->arcs[a].dst;
		/* The case's own block, if any, has no code; the join may. */
		for (int depth = 0; depth < 4 && d >= 2; depth++) {
			int lists = gm_block_has_line(g, (uint32_t)d, uf, ul);
			if (lists && (depth || !block_has_code(g, (uint32_t)d,
			                                       sf, sl, uf, ul))) {
				if (hit >= 0)
					return -1;
				hit = a;
				break;
			}
			if (block_has_code(g, (uint32_t)d, sf, sl, uf, ul) || lists)
				break;
			d = gm_only_succ(g, (uint32_t)d);
		}
	}
	return hit;
}
