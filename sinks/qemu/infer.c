/* Executed-instruction stream -> ingress records: see infer.h. */
#include "infer.h"

#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/insn.h"

void lt_infer_init(struct lt_infer *inf, const struct lt_infer_config *cfg,
                   lt_infer_push_fn push, void *user)
{
	memset(inf, 0, sizeof(*inf));
	inf->cfg = *cfg;
	inf->push = push;
	inf->user = user;
}

void lt_infer_fini(struct lt_infer *inf)
{
	free(inf->q);
	free(inf->holds);
	inf->q = NULL;
	inf->holds = NULL;
	inf->q_len = inf->q_head = inf->q_cap = 0;
	inf->n_holds = inf->holds_cap = 0;
}

/* Passes every resolved record at the queue head on. */
static void drain(struct lt_infer *inf)
{
	while (inf->q_head < inf->q_len && !inf->q[inf->q_head].unresolved) {
		struct lt_infer_rec *r = &inf->q[inf->q_head++];
		int rc = inf->push(inf->user, &r->rec, r->periodic);

		if (rc < 0 && !inf->err)
			inf->err = rc;
	}
	if (inf->q_head == inf->q_len)
		inf->q_head = inf->q_len = 0;
}

/* Appends a record; returns its queue index, or -1 without memory. */
static long enqueue(struct lt_infer *inf, uint64_t iaddr, int itype,
                    uint64_t time, int unresolved)
{
	struct lt_infer_rec *r;

	if (inf->q_len == inf->q_cap) {
		size_t cap = inf->q_cap ? inf->q_cap * 2 : 64;
		struct lt_infer_rec *q = realloc(inf->q, cap * sizeof(*q));
		if (!q)
			return -1;
		inf->q = q;
		inf->q_cap = cap;
	}
	r = &inf->q[inf->q_len];
	r->rec.iaddr = iaddr;
	r->rec.time = time;
	r->rec.ctx = inf->cfg.ctx;
	r->rec.itype = (uint8_t)itype;
	r->rec.priv = inf->cfg.priv;
	r->periodic = inf->periodic_due;
	r->unresolved = (uint8_t)unresolved;
	inf->periodic_due = 0;
	return (long)inf->q_len++;
}

/* Sets the outcome of hold `h` from the epc its handler returned to
 * (known = 0: the handler never returned; a branch counts as not taken, a
 * jump as going to the handler, with no interrupt). */
static void resolve(struct lt_infer *inf, const struct lt_infer_hold *h,
                    uint64_t epc, int known)
{
	struct lt_infer_rec *b = &inf->q[h->branch];
	struct lt_infer_rec *i = &inf->q[h->intr];

	if (h->jump) {
		i->rec.iaddr = known ? epc : h->seq;
		if (!known)
			i->rec.itype = LT_IT_NOTHING;
	} else {
		int taken = known && epc == h->target;

		b->rec.itype = taken ? LT_IT_BRANCH_TAKEN
		                     : LT_IT_BRANCH_NOT_TAKEN;
		i->rec.iaddr = taken ? h->target : h->seq;
	}
	b->unresolved = 0;
	i->unresolved = 0;
}

/* Notes that `y` ran right after a trap: a trap vector. */
static void saw_vector(struct lt_infer *inf, uint64_t y)
{
	for (size_t k = 0; k < inf->n_vec; k++)
		if (inf->vec[k] == y)
			return;
	if (inf->n_vec == LT_INFER_VECTORS)
		memmove(inf->vec, inf->vec + 1, --inf->n_vec * sizeof(inf->vec[0]));
	inf->vec[inf->n_vec++] = y;
}

/* Whether `y` is a trap vector seen before. */
static int is_vector(const struct lt_infer *inf, uint64_t y)
{
	for (size_t k = 0; k < inf->n_vec; k++)
		if (inf->vec[k] == y)
			return 1;
	return 0;
}

/* Queues record `itype` of x (unresolved when `jump`: an IJUMP/TRET whose
 * target is the epc) and a held INTERRUPT after it, pushing a hold that the
 * matching xRET resolves. Returns 0 or LT_ERR_NOMEM. */
static int hold(struct lt_infer *inf, const struct lt_qinsn *x, int itype,
                uint64_t tx, uint64_t y, uint64_t ty, int jump)
{
	uint64_t seq = x->addr + x->len;
	long bi, ii;

	if (inf->n_holds == inf->holds_cap) {
		size_t cap = inf->holds_cap ? inf->holds_cap * 2 : 8;
		struct lt_infer_hold *h = realloc(inf->holds, cap * sizeof(*h));
		if (!h)
			return LT_ERR_NOMEM;
		inf->holds = h;
		inf->holds_cap = cap;
	}
	bi = enqueue(inf, x->addr, itype, tx, 1);
	ii = bi < 0 ? -1 : enqueue(inf, jump ? y : seq, LT_IT_INTERRUPT, ty, 1);
	if (ii < 0)
		return LT_ERR_NOMEM;
	inf->holds[inf->n_holds++] = (struct lt_infer_hold){
		(size_t)bi, (size_t)ii, jump ? 0 : x->target, jump ? y : seq,
		inf->depth, (uint8_t)jump };
	inf->depth++;
	inf->n_interrupts++;
	saw_vector(inf, y);
	return 0;
}

/* Makes the records of `x` (executed at time tx) given that `y` (at ty)
 * ran next. Returns 0 or LT_ERR_NOMEM. */
static int classify(struct lt_infer *inf, const struct lt_qinsn *x,
                    uint64_t tx, uint64_t y, uint64_t ty)
{
	uint64_t seq = x->addr + x->len;
	int ok = 1;

	switch (x->cls) {
	case LT_INSN_BRANCH:
		if (y == x->target || y == seq) {
			ok = enqueue(inf, x->addr, y == x->target ?
			             LT_IT_BRANCH_TAKEN : LT_IT_BRANCH_NOT_TAKEN,
			             tx, 0) >= 0;
			break;
		}
		return hold(inf, x, LT_IT_BRANCH_NOT_TAKEN, tx, y, ty, 0);
	case LT_INSN_JUMP:
		ok = enqueue(inf, x->addr, LT_IT_INF_JUMP, tx, 0) >= 0;
		if (ok && y != x->target) {
			ok = enqueue(inf, x->target, LT_IT_INTERRUPT, ty, 0) >= 0;
			inf->depth++;
			inf->n_interrupts++;
			saw_vector(inf, y);
		}
		break;
	case LT_INSN_IJUMP:
		if (is_vector(inf, y))
			return hold(inf, x, LT_IT_UNINF_JUMP, tx, y, ty, 1);
		ok = enqueue(inf, x->addr, LT_IT_UNINF_JUMP, tx, 0) >= 0;
		break;
	case LT_INSN_TRET:
		if (inf->depth)
			inf->depth--;
		if (is_vector(inf, y))
			/* Back to back: the holds at this depth now wait for
			 * the new handler's xRET, which returns to the same
			 * epc this one did. */
			return hold(inf, x, LT_IT_RETURN, tx, y, ty, 1);
		ok = enqueue(inf, x->addr, LT_IT_RETURN, tx, 0) >= 0;
		while (inf->n_holds && inf->holds[inf->n_holds - 1].depth ==
		                       inf->depth) {
			resolve(inf, &inf->holds[inf->n_holds - 1], y, 1);
			inf->n_holds--;
		}
		break;
	case LT_INSN_TRAP:
	case LT_INSN_INVALID:
		if (y != seq) {
			ok = enqueue(inf, x->addr, LT_IT_EXCEPTION, tx, 0) >= 0;
			inf->depth++;
			inf->n_exceptions++;
			saw_vector(inf, y);
			break;
		}
		/* it behaved like an ordinary instruction */
		/* fall through */
	default:
		ok = enqueue(inf, x->addr, LT_IT_NOTHING, tx, 0) >= 0;
		if (ok && y != seq) {
			ok = enqueue(inf, seq, LT_IT_INTERRUPT, ty, 0) >= 0;
			inf->depth++;
			inf->n_interrupts++;
			saw_vector(inf, y);
		}
		break;
	}
	return ok ? 0 : LT_ERR_NOMEM;
}

int lt_infer_exec(struct lt_infer *inf, const struct lt_qinsn *y)
{
	const struct lt_qinsn *x = inf->prev;
	uint64_t ty;
	int rc;

	if (!x) {
		inf->prev = y;
		inf->prev_time = inf->cfg.time0;
		inf->n_exec = 1;
		return inf->err;
	}
	ty = inf->prev_time + 1;
	if (x->cls == LT_INSN_BRANCH || x->cls == LT_INSN_JUMP ||
	    x->cls == LT_INSN_IJUMP) {
		if (y->addr != x->addr + x->len)
			ty += inf->cfg.taken_cycles;
	}
	if (inf->cfg.stall_every && inf->n_exec % inf->cfg.stall_every == 0)
		ty += inf->cfg.stall_cycles;
	rc = classify(inf, x, inf->prev_time, y->addr, ty);
	if (rc < 0)
		return rc;
	/* The periodic sync goes to the record after the N-th instruction's. */
	if (inf->cfg.periodic && inf->n_exec % inf->cfg.periodic == 0)
		inf->periodic_due = 1;
	inf->prev = y;
	inf->prev_time = ty;
	inf->n_exec++;
	while (inf->n_holds && inf->q_len - inf->q_head > LT_INFER_MAX_HELD) {
		resolve(inf, &inf->holds[0], 0, 0);
		memmove(inf->holds, inf->holds + 1,
		        --inf->n_holds * sizeof(inf->holds[0]));
		drain(inf);
	}
	drain(inf);
	return inf->err;
}

int lt_infer_finish(struct lt_infer *inf)
{
	if (inf->prev) {
		if (enqueue(inf, inf->prev->addr, LT_IT_NOTHING,
		            inf->prev_time, 0) < 0)
			return LT_ERR_NOMEM;
		inf->prev = NULL;
	}
	while (inf->n_holds) {
		const struct lt_infer_hold *h = &inf->holds[--inf->n_holds];
		resolve(inf, h, 0, 0);
	}
	drain(inf);
	return inf->err;
}
