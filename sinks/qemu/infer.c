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

/* Sets the outcome of hold `h` from the epc its handler returned to. */
static void resolve(struct lt_infer *inf, const struct lt_infer_hold *h,
                    uint64_t epc)
{
	struct lt_infer_rec *b = &inf->q[h->branch];
	struct lt_infer_rec *i = &inf->q[h->intr];
	int taken = epc == h->target;

	b->rec.itype = taken ? LT_IT_BRANCH_TAKEN : LT_IT_BRANCH_NOT_TAKEN;
	i->rec.iaddr = taken ? h->target : h->seq;
	b->unresolved = 0;
	i->unresolved = 0;
}

/* Makes the records of `x` (executed at time tx) given that `y` (at ty)
 * ran next. Returns 0 or LT_ERR_NOMEM. */
static int classify(struct lt_infer *inf, const struct lt_qinsn *x,
                    uint64_t tx, uint64_t y, uint64_t ty)
{
	uint64_t seq = x->addr + x->len;
	long bi, ii;
	int ok = 1;

	switch (x->cls) {
	case LT_INSN_BRANCH:
		if (y == x->target || y == seq) {
			ok = enqueue(inf, x->addr, y == x->target ?
			             LT_IT_BRANCH_TAKEN : LT_IT_BRANCH_NOT_TAKEN,
			             tx, 0) >= 0;
			break;
		}
		if (inf->n_holds == inf->holds_cap) {
			size_t cap = inf->holds_cap ? inf->holds_cap * 2 : 8;
			struct lt_infer_hold *h =
				realloc(inf->holds, cap * sizeof(*h));
			if (!h)
				return LT_ERR_NOMEM;
			inf->holds = h;
			inf->holds_cap = cap;
		}
		bi = enqueue(inf, x->addr, LT_IT_BRANCH_NOT_TAKEN, tx, 1);
		ii = bi < 0 ? -1 : enqueue(inf, seq, LT_IT_INTERRUPT, ty, 1);
		if (ii < 0)
			return LT_ERR_NOMEM;
		inf->holds[inf->n_holds++] = (struct lt_infer_hold){
			(size_t)bi, (size_t)ii, x->target, seq, inf->depth };
		inf->depth++;
		inf->n_interrupts++;
		break;
	case LT_INSN_JUMP:
		ok = enqueue(inf, x->addr, LT_IT_INF_JUMP, tx, 0) >= 0;
		if (ok && y != x->target) {
			ok = enqueue(inf, x->target, LT_IT_INTERRUPT, ty, 0) >= 0;
			inf->depth++;
			inf->n_interrupts++;
		}
		break;
	case LT_INSN_IJUMP:
		ok = enqueue(inf, x->addr, LT_IT_UNINF_JUMP, tx, 0) >= 0;
		break;
	case LT_INSN_TRET:
		ok = enqueue(inf, x->addr, LT_IT_RETURN, tx, 0) >= 0;
		if (inf->depth)
			inf->depth--;
		if (inf->n_holds && inf->holds[inf->n_holds - 1].depth ==
		                    inf->depth) {
			resolve(inf, &inf->holds[inf->n_holds - 1], y);
			inf->n_holds--;
		}
		break;
	case LT_INSN_TRAP:
	case LT_INSN_INVALID:
		if (y != seq) {
			ok = enqueue(inf, x->addr, LT_IT_EXCEPTION, tx, 0) >= 0;
			inf->depth++;
			inf->n_exceptions++;
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
		resolve(inf, &inf->holds[0], inf->holds[0].seq);
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
		resolve(inf, h, h->seq);
	}
	drain(inf);
	return inf->err;
}
