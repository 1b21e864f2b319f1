/* Frontend: trap packets (exceptions, interrupts, trap returns), including
 * spike-2025's xor-only traps and re-anchoring on a trap after a loss. */
#include "frontend_priv.h"

#include <string.h>

/* Remembers a trap's target (a trap vector) when its from-address was
 * certain; the oldest is forgotten when the table is full. */
static void learn_tvec(struct lt_frontend *f, uint64_t target)
{
	for (unsigned i = 0; i < f->ntvec; i++)
		if (f->tvec[i] == target)
			return;
	if (f->ntvec == TVEC_MAX) {
		memmove(f->tvec, f->tvec + 1, (TVEC_MAX - 1) * sizeof f->tvec[0]);
		f->ntvec--;
	}
	f->tvec[f->ntvec++] = target;
}

/* How well pc a explains a spike trap xor: 3 = its partner is a trap vector
 * seen before, 2 = the partner is 4-byte aligned code (mtvec/stvec hold
 * aligned bases), 1 = the partner is code, 0 = not a candidate. */
static int spike_rank(struct lt_frontend *f, uint64_t a, uint64_t xr)
{
	uint64_t t = to_link(f, fix_addr(f, (to_run(f, a) & f->amask) ^ xr));
	uint16_t w;
	for (unsigned i = 0; i < f->ntvec; i++)
		if (f->tvec[i] == t)
			return 3;
	if (!lt_image_set_find(f->images, f->prv, f->ctx, t, &w))
		return 0;
	return (t & 3) == 0 ? 2 : 1;
}

/* The from-address of a spike-2025 trap (which carries only the xor of from
 * and target) on the straight line from the pc: for an exception or a trap
 * return, the first ecall/ebreak or xRET; otherwise (an interrupt, or a
 * fault) the best-ranked pc (spike_rank), the first of equals. The format
 * is lossy: an interrupt whose vector was never seen is a guess. */
static int spike_from(struct lt_frontend *f, const struct lt_packet *p,
                      uint64_t *from, int *certain)
{
	struct blk b;
	if (fe_step_follow(f, &b) < 0)
		return LT_ERR_NO_MAP;
	const struct lt_region *r = f->reg;
	int want = p->subtype == LT_TRAP_RETURN ? LT_INSN_TRET : LT_INSN_TRAP;
	uint64_t a = f->pc;
	for (;;) {
		const struct lt_hwinfo *inf = &r->info[(a - r->base) >> 1];
		if (inf->cls == want && p->subtype != LT_TRAP_INTERRUPT) {
			*from = a;
			*certain = 1;
			return 0;
		}
		if (a >= b.last)
			break;
		a += inf->len;
	}
	int best = 0;
	for (a = f->pc;;) {
		int rank = spike_rank(f, a, p->target);
		if (rank > best) {
			best = rank;
			*from = a;
		}
		if (a >= b.last || best == 3)
			break;
		a += r->info[(a - r->base) >> 1].len;
	}
	if (best == 0) {
		fe_error(f, LT_ERR_MISMATCH,
		             "spike trap: no trap point found from 0x%" PRIx64,
		             f->pc);
		return LT_ERR_MISMATCH;
	}
	*certain = best == 3;
	return 0;
}

void fe_on_trap(struct lt_frontend *f, const struct lt_packet *p)
{
	uint64_t from = 0;
	int certain = 1;
	if (p->has_from) {
		from = to_link(f, fix_addr(f, p->from));
	} else if (spike_from(f, p, &from, &certain) < 0) {
		fe_lose(f);
		return;
	}
	uint64_t next = to_link(f, fix_addr(f, (to_run(f, from) & f->amask) ^
	                                       p->target));
	if (certain && p->subtype != LT_TRAP_RETURN)
		learn_tvec(f, next);
	f->time += p->value;
	int rc;
	switch (p->subtype) {
	case LT_TRAP_EXCEPTION:
		rc = fe_walk_to(f, from, 1, LT_EV_EXCEPTION, next, from,
		             WALK_PACKETS);
		break;
	case LT_TRAP_INTERRUPT:
		rc = fe_walk_to(f, from, 0, LT_EV_INTERRUPT, next, from,
		             WALK_PACKETS);
		break;
	default:
		rc = fe_walk_to(f, from, 1, LT_EV_TRET, next, 0, WALK_PACKETS);
		break;
	}
	if (rc < 0) {
		fe_lose(f);
		return;
	}
	fe_take_context(f, p);
	f->reg = NULL;
}

/* A trap packet met after a loss: its from-address is absolute, so the
 * trap's target is known whatever the lost packets held. Decoding resumes
 * there (a START marker) with the privilege and context the packet carries,
 * if both addresses are code of the programs: after corrupt bytes the
 * parser may be misaligned, and trap-like bytes inside other packets must
 * not re-anchor the walk. Before any sync the mode comes from the
 * configuration. */
void fe_trap_anchor(struct lt_frontend *f, const struct lt_packet *p)
{
	uint64_t from = to_link(f, fix_addr(f, p->from));
	uint64_t next = to_link(f, fix_addr(f, (to_run(f, from) & f->amask) ^
	                                       p->target));
	uint16_t w; /* (any image will do: a plausibility check) */
	f->time += p->value;
	if (!lt_image_set_find(f->images, f->prv, f->ctx, from, &w) ||
	    !lt_image_set_find(f->images, f->prv, f->ctx, next, &w))
		return;
	if ((f->st.resolved_mode & 1) || /* cfg mode 1/3: undecodable */
	    (f->st.segments == 0 && fe_set_mode(f, p) != 0))
		return;
	fe_take_context(f, p);
	f->pc = next;
	f->reg = NULL;
	f->state = FE_RUN;
	emit(f, LT_EV_START, f->pc, f->pc, f->pc, 0, f->ctx);
}
