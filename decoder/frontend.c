/* Frontend: packets + images -> block events (see frontend.h and
 * shared/docs/LTRACE-FORMAT.md sections 5-7 for the replay rules). */
#include "ltpipe/frontend.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpred.h"
#include "ltpipe/error.h"
#include "ltpipe/ring.h"

#define EV_BATCH 1024
/* Bound on blocks followed while walking without packets (direct jumps in
 * BP mode, predicted branches to an end sync): a trace that does not fit
 * the program must not hang the decoder. */
#define WALK_LIMIT (1u << 22)

enum fe_state {
	FE_IDLE = 0, /* before a start sync or after an end sync */
	FE_RUN = 1,  /* decoding: pc is valid */
	FE_LOST = 2, /* after an error: skipping to the next sync */
};

/* The straight-line block starting at the current pc. */
struct blk {
	uint64_t last;   /* address of the block-ending instruction */
	uint32_t n;      /* instructions through it */
	uint8_t cls;     /* its class */
	uint8_t len;     /* its length */
	int32_t tgt;     /* its direct target offset */
};

#define TVEC_MAX 8 /* trap vectors remembered for spike-2025 traps */

struct lt_frontend {
	struct lt_frontend_config cfg;     /* settings as given */
	const struct lt_image_set *images; /* programs */
	lt_event_sink sink;                /* event consumer */
	void *user;                        /* its context */
	struct lt_parser parser;           /* packet parser */
	int state;                         /* enum fe_state */
	int mode;                          /* LT_MODE_BT or LT_MODE_BP in use */
	int follow_jal;                    /* BP without IJ packets */
	int stop;                          /* the sink asked to stop */
	uint64_t pc;                       /* next instruction to execute */
	uint64_t time;                     /* absolute time */
	uint8_t prv;                       /* current privilege */
	uint64_t ctx;                      /* current context id */
	uint64_t amask;                    /* address mask (addr_bits) */
	int sext;                          /* refunded addresses are sign-
	                                      extended from addr_bits (RV64
	                                      images; RV32 ones are unsigned) */
	int moved;                         /* an image ran moved (bias) */
	const struct lt_region *reg;       /* region holding pc (cache) */
	uint16_t img;                      /* image index of reg */
	struct lt_bpred bp;                /* predictor (BP mode) */
	uint32_t bp_entries;               /* its size */
	int bp_ready;                      /* bp allocated */
	uint64_t tvec[TVEC_MAX];           /* trap targets seen (spike-2025) */
	unsigned ntvec;                    /* how many */
	uint64_t pkt_off;                  /* offset of the packet at hand */
	uint64_t pkt_idx;                  /* its index among the packets */
	struct lt_decode_stats st;         /* totals */
	struct lt_ring *ring;              /* direct output, or NULL: sink */
	struct lt_event *ev;               /* where events are written: buf[]
	                                      or claimed ring slots */
	size_t nev;                        /* events written at ev */
	size_t cap;                        /* room at ev */
	struct lt_event buf[EV_BATCH];     /* held events (sink mode) */
};

/* ---- events ---- */

/* Hands the written events on: publishes them in the ring, or calls the
 * sink with the held batch. */
static void flush_events(struct lt_frontend *f)
{
	if (f->ring) {
		lt_ring_publish(f->ring, f->nev);
		f->cap = 0;
	} else if (f->nev && !f->stop) {
		if (f->sink(f->user, f->ev, f->nev) != 0)
			f->stop = 1;
	}
	f->nev = 0;
}

/* Makes room for at least one event (claiming ring slots, waiting for the
 * slowest consumer when the ring is full). */
static void make_room(struct lt_frontend *f)
{
	flush_events(f);
	if (f->ring) {
		size_t got;
		f->ev = lt_ring_claim(f->ring, EV_BATCH, &got);
		f->cap = got;
	}
}

static inline void emit(struct lt_frontend *f, int kind, uint64_t start,
                        uint64_t last, uint64_t next, uint32_t n,
                        uint64_t aux)
{
	if (f->nev == f->cap)
		make_room(f);
	struct lt_event *e = &f->ev[f->nev++];
	e->start = start;
	e->last = last;
	e->next = next;
	e->time = f->time;
	e->aux = aux;
	e->icount = n;
	e->kind = (uint8_t)kind;
	e->prv = f->prv;
	e->hart = f->cfg.hart;
	e->img = f->img;
	e->ctx = (uint32_t)f->ctx;
	if (kind != LT_EV_START && kind != LT_EV_LOST) {
		f->st.blocks++;
		f->st.insns += n;
	}
}

/* ---- errors ---- */

static void record_error(struct lt_frontend *f, int code, const char *fmt,
                         ...) __attribute__((format(printf, 3, 4)));

static void record_error(struct lt_frontend *f, int code, const char *fmt,
                         ...)
{
	f->st.errors++;
	if (f->st.nkept < LT_MAX_KEPT_ERRORS) {
		struct lt_decode_error *e = &f->st.err[f->st.nkept++];
		e->offset = f->pkt_off;
		e->packet = f->pkt_idx;
		e->code = code;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
}

/* Enters the LOST state (once per loss): a LOST marker event, then every
 * packet is skipped until a sync re-anchors the pc. */
static void lose(struct lt_frontend *f)
{
	if (f->state == FE_LOST)
		return;
	f->state = FE_LOST;
	f->st.losses++;
	if (f->mode == LT_MODE_BP)
		f->st.bp_loss = 1;
	emit(f, LT_EV_LOST, f->pc, f->pc, f->pc, 0, f->pkt_off);
}

static const char *cls_name(int cls)
{
	static const char *const names[] = {
		"a non-control-flow instruction", "a conditional branch",
		"a direct jump", "an indirect jump", "a trap return",
		"an ecall/ebreak", "an invalid instruction"};
	return cls >= 0 && cls <= LT_INSN_INVALID ? names[cls] : "?";
}

/* ---- addresses and blocks ---- */

static inline uint64_t fix_addr(const struct lt_frontend *f, uint64_t a)
{
	unsigned b = f->cfg.addr_bits;
	if (b >= 64)
		return a;
	a &= f->amask;
	if (f->sext && (a >> (b - 1) & 1))
		a |= ~f->amask; /* sign-extend from the top bit */
	return a;
}

/* A trace address (where the program ran) as the image's address: inside
 * a moved PIE's executable span, its link address. */
static inline uint64_t to_link(const struct lt_frontend *f, uint64_t a)
{
	if (!f->moved)
		return a;
	for (size_t i = 0; i < f->images->n; i++) {
		const struct lt_image *img = f->images->sel[i].img;
		if (img->bias && a - img->bias - img->exec_lo <
		                 img->exec_hi - img->exec_lo)
			return a - img->bias;
	}
	return a;
}

/* An image address as the trace has it (the inverse of to_link). */
static inline uint64_t to_run(const struct lt_frontend *f, uint64_t a)
{
	if (!f->moved)
		return a;
	for (size_t i = 0; i < f->images->n; i++) {
		const struct lt_image *img = f->images->sel[i].img;
		if (!img->bias || a - img->exec_lo >= img->exec_hi - img->exec_lo)
			continue;
		const struct lt_region *r = lt_image_region(img, a);
		if (r && !r->owned)
			return a + img->bias;
	}
	return a;
}

/* Makes f->reg the region holding pc. Returns 0 or LT_ERR_NO_MAP. */
static inline int locate(struct lt_frontend *f, uint64_t pc)
{
	const struct lt_region *r = f->reg;
	if (r && pc - r->base < r->end - r->base)
		return 0;
	r = lt_image_set_find(f->images, f->prv, f->ctx, pc, &f->img);
	if (!r)
		return LT_ERR_NO_MAP;
	f->reg = r;
	return 0;
}

/* Fills b with the block starting at f->pc. Returns 0 or an error already
 * recorded. */
static inline int step(struct lt_frontend *f, struct blk *b)
{
	uint64_t pc = f->pc;
	if ((pc & 1) || locate(f, pc) != 0) {
		record_error(f, LT_ERR_NO_MAP,
		             "pc 0x%" PRIx64 " is outside every executable "
		             "section of the program", pc);
		return LT_ERR_NO_MAP;
	}
	const struct lt_region *r = f->reg;
	uint32_t i = (uint32_t)((pc - r->base) >> 1);
	const struct lt_hw *h = &r->hw[i];
	b->last = r->base + 2 * (uint64_t)h->cf;
	b->n = h->n;
	b->cls = h->cls;
	b->len = h->len;
	b->tgt = h->tgt;
	return 0;
}

static int expect(struct lt_frontend *f, const struct blk *b, int cls,
                  const char *pkt)
{
	if (b->cls == cls)
		return 0;
	record_error(f, LT_ERR_MISMATCH,
	             "%s packet, but the block from 0x%" PRIx64 " ends in %s "
	             "at 0x%" PRIx64, pkt, f->pc, cls_name(b->cls), b->last);
	return LT_ERR_MISMATCH;
}

/* If addr lies on the straight line from f->pc through b->last, returns
 * the number of instructions before it and sets *prev to the address of
 * the instruction before it (or pc). Otherwise returns -1. */
static int64_t on_line(const struct lt_frontend *f, const struct blk *b,
                       uint64_t addr, uint64_t *prev)
{
	if (addr < f->pc || addr > b->last)
		return -1;
	const struct lt_region *r = f->reg;
	uint64_t a = f->pc, p = f->pc;
	int64_t n = 0;
	while (a < addr) {
		p = a;
		a += r->info[(a - r->base) >> 1].len;
		n++;
	}
	if (a != addr)
		return -1;
	*prev = p;
	return n;
}

/* Takes the direct jump ending b: a JUMP block event. */
static void take_jump(struct lt_frontend *f, const struct blk *b)
{
	uint64_t next = b->last + (int64_t)b->tgt;
	emit(f, LT_EV_JUMP, f->pc, b->last, next, b->n, 0);
	f->pc = next;
}

/* Resolves the conditional branch ending b with outcome `taken`. */
static void take_branch(struct lt_frontend *f, const struct blk *b,
                        int taken)
{
	uint64_t next = taken ? b->last + (int64_t)b->tgt : b->last + b->len;
	emit(f, taken ? LT_EV_TAKEN : LT_EV_NOT_TAKEN, f->pc, b->last, next,
	     b->n, 0);
	f->pc = next;
}

/* Steps to the next block ending in something other than a direct jump,
 * following direct jumps when IJ packets are absent (BP mode). */
static int step_follow(struct lt_frontend *f, struct blk *b)
{
	for (uint32_t k = 0;; k++) {
		if (step(f, b) < 0)
			return LT_ERR_NO_MAP;
		if (b->cls != LT_INSN_JUMP || !f->follow_jal)
			return 0;
		if (k >= WALK_LIMIT) {
			record_error(f, LT_ERR_MISMATCH,
			             "no packet-resolved instruction within %u "
			             "direct jumps of 0x%" PRIx64,
			             WALK_LIMIT, f->pc);
			return LT_ERR_MISMATCH;
		}
		take_jump(f, b);
	}
}

/* The branch a BP-mode walk meets: replay the predictor, the outcome is the
 * prediction xor `miss`. */
static void bp_branch(struct lt_frontend *f, const struct blk *b, int miss)
{
	uint64_t pc = to_run(f, b->last);
	int taken = lt_bpred_predict(&f->bp, pc) ^ miss;
	lt_bpred_update(&f->bp, pc, taken);
	take_branch(f, b, taken);
}

/* Walk policy when a block ends before the target address. */
enum walk_policy {
	WALK_PACKETS = 0, /* every control-flow insn had a packet: none to follow
	                     (except direct jumps in BP mode) */
	WALK_END = 1,     /* to an end sync: BP follows the predictor (pending
	                     hits are never flushed); BT tolerates one unreported
	                     message before the end */
};

/* Whether `addr` is on the straight line starting at `from`. */
static int line_has(struct lt_frontend *f, uint64_t from, uint64_t addr)
{
	uint64_t save_pc = f->pc;
	const struct lt_region *save_reg = f->reg;
	uint16_t save_img = f->img;
	struct blk b;
	uint64_t prev;
	f->pc = from;
	int ok = 0;
	if ((from & 1) == 0 && locate(f, from) == 0) {
		const struct lt_region *r = f->reg;
		struct lt_hw h = r->hw[(from - r->base) >> 1];
		b.last = r->base + 2 * (uint64_t)h.cf;
		ok = on_line(f, &b, addr, &prev) >= 0;
	}
	f->pc = save_pc;
	f->reg = save_reg;
	f->img = save_img;
	return ok;
}

/* Walks from pc to addr. The final block (pc .. addr, or .. the insn before
 * addr when !inclusive) is emitted as `kind` with next = `next` and aux.
 * Returns 0 or a recorded error. */
static int walk_to(struct lt_frontend *f, uint64_t addr, int inclusive,
                   int kind, uint64_t next, uint64_t aux, int policy)
{
	int guessed = 0;
	if (f->pc == addr && (kind == LT_EV_EXCEPTION ||
	                      kind == LT_EV_INTERRUPT) &&
	    ((addr & 1) || locate(f, addr) != 0)) {
		/* A fault on fetching pc itself (a jump to no code): no insn */
		emit(f, kind, addr, addr, next, 0, aux);
		f->pc = next;
		return 0;
	}
	for (uint32_t k = 0;; k++) {
		struct blk b;
		uint64_t prev;
		if (step(f, &b) < 0)
			return LT_ERR_NO_MAP;
		int64_t before = on_line(f, &b, addr, &prev);
		if (before >= 0) {
			uint32_t n = (uint32_t)before + (inclusive ? 1 : 0);
			uint64_t last = inclusive ? addr : prev;
			emit(f, kind, f->pc, last, next, n, aux);
			f->pc = next;
			return 0;
		}
		if (k >= WALK_LIMIT)
			break;
		if (b.cls == LT_INSN_JUMP &&
		    (f->follow_jal || (policy == WALK_END && !guessed))) {
			guessed |= !f->follow_jal;
			take_jump(f, &b);
			continue;
		}
		if (b.cls == LT_INSN_BRANCH && policy == WALK_END) {
			if (f->mode == LT_MODE_BP) {
				bp_branch(f, &b, 0);
				continue;
			}
			if (!guessed) {
				/* BT: the last message before the end may be
				 * unreported; take the side that reaches addr. */
				guessed = 1;
				uint64_t t = b.last + (int64_t)b.tgt;
				if (line_has(f, t, addr))
					take_branch(f, &b, 1);
				else if (line_has(f, b.last + b.len, addr))
					take_branch(f, &b, 0);
				else
					break;
				continue;
			}
		}
		record_error(f, LT_ERR_MISMATCH,
		             "address 0x%" PRIx64 " is not reachable from 0x%"
		             PRIx64 ": the block ends in %s at 0x%" PRIx64,
		             addr, f->pc, cls_name(b.cls), b.last);
		return LT_ERR_MISMATCH;
	}
	record_error(f, LT_ERR_MISMATCH,
	             "address 0x%" PRIx64 " not reached within %u blocks", addr,
	             WALK_LIMIT);
	return LT_ERR_MISMATCH;
}

/* ---- packets ---- */

static int set_mode_from_cfg(struct lt_frontend *f, const struct lt_packet *p)
{
	int mode = f->cfg.mode;
	uint32_t entries = f->cfg.bp_entries;
	if (p->has_cfg) {
		int m = p->cfg & 3;
		if (mode == LT_MODE_AUTO && (m == 1 || m == 3)) {
			/* RTL modes 1 (branch history) and 3 emit neither
			 * branch nor hit/miss packets: no walk can follow
			 * them (conflict C7 of the format notes). */
			record_error(f, LT_ERR_BAD_PACKET,
			             "cfg byte 0x%02x: branch mode %d carries no "
			             "branch packets and cannot be decoded (--mode "
			             "overrides)", p->cfg, m);
			f->st.resolved_mode = m; /* no trap re-anchors either */
			return LT_ERR_BAD_PACKET;
		}
		if (mode == LT_MODE_AUTO)
			mode = m == 2 ? LT_MODE_BP : LT_MODE_BT;
		if (entries == 0) {
			unsigned k = (p->cfg >> 2) & 0x1F;
			/* RTL tables are 64..1024 entries; beyond 2^24 the
			 * byte is taken as corrupt rather than allocated. */
			entries = k <= 18 ? 64u << k : 0;
			if (!entries) {
				record_error(f, LT_ERR_BAD_PACKET,
				             "cfg byte 0x%02x: predictor size "
				             "64<<%u is beyond 2^24 entries",
				             p->cfg, k);
				return LT_ERR_BAD_PACKET;
			}
		}
	}
	if (mode == LT_MODE_AUTO)
		mode = LT_MODE_BT;
	if (entries == 0)
		entries = 1024;
	if (mode == LT_MODE_BP && (!f->bp_ready || entries != f->bp_entries)) {
		if (f->bp_ready)
			lt_bpred_fini(&f->bp);
		f->bp_ready = 0;
		if (lt_bpred_init(&f->bp, entries) != 0) {
			record_error(f, LT_ERR_BAD_PACKET,
			             "unusable predictor size %u (cfg byte 0x%02x)",
			             entries, p->cfg);
			return LT_ERR_BAD_PACKET;
		}
		f->bp_ready = 1;
	}
	f->bp_entries = entries;
	f->mode = mode;
	f->follow_jal = mode == LT_MODE_BP &&
	                f->parser.format != LT_FMT_SPIKE_2025;
	f->st.resolved_mode = mode;
	f->st.resolved_bp_entries = entries;
	return 0;
}

/* Adopts the privilege and context id a sync or trap packet carries. */
static void take_context(struct lt_frontend *f, const struct lt_packet *p)
{
	if (p->has_prv)
		f->prv = p->to_prv;
	if (p->has_ctx)
		f->ctx = p->ctx;
}

/* A sync that opens a segment (or re-anchors after a loss). */
static void sync_start(struct lt_frontend *f, const struct lt_packet *p)
{
	if (set_mode_from_cfg(f, p) != 0) {
		lose(f);
		return;
	}
	take_context(f, p);
	f->time = p->value;
	if (f->st.segments == 0)
		f->st.first_time = p->value;
	f->st.segments++;
	f->st.ended = 0;
	f->pc = to_link(f, fix_addr(f, p->target));
	f->reg = NULL;
	f->state = FE_RUN;
	emit(f, LT_EV_START, f->pc, f->pc, f->pc, 0, f->ctx);
}

static int is_legacy(int fmt)
{
	return fmt == LT_FMT_TACIT_2025 || fmt == LT_FMT_TACIT_2025_UNSHIFTED ||
	       fmt == LT_FMT_SPIKE_2025;
}

static void on_sync(struct lt_frontend *f, const struct lt_packet *p)
{
	int sub = p->subtype;
	uint64_t target = to_link(f, fix_addr(f, p->target));
	if (is_legacy(f->parser.format))
		sub = f->state == FE_RUN ? LT_SYNC_END : LT_SYNC_START;
	if (f->state != FE_RUN) {
		/* Idle or lost: start and periodic syncs anchor the pc; an end
		 * sync closes nothing. */
		if (sub == LT_SYNC_END) {
			/* When idle (not already lost), the start of this
			 * segment is missing: the trace was cut. */
			if (f->state == FE_IDLE)
				record_error(f, LT_ERR_MISMATCH,
				             "end sync without a start sync (the "
				             "segment's start is missing)");
			f->state = FE_IDLE;
			return;
		}
		sync_start(f, p);
		return;
	}
	switch (sub) {
	case LT_SYNC_START:
	case LT_SYNC_NONE:
		record_error(f, LT_ERR_MISMATCH,
		             "start sync inside a running segment (end sync "
		             "missing)");
		lose(f);
		sync_start(f, p);
		return;
	case LT_SYNC_PERIODIC: {
		if (walk_to(f, target, 0, LT_EV_SYNC, target, 0, WALK_PACKETS) < 0) {
			lose(f);
			sync_start(f, p);
			return;
		}
		take_context(f, p);
		f->time = p->value;
		return;
	}
	default: /* end */
		f->time = p->value;
		if (p->has_prv)
			f->prv = p->to_prv;
		if (walk_to(f, target, 1, LT_EV_END, target, f->ctx, WALK_END) < 0) {
			lose(f);
			f->state = FE_IDLE;
			return;
		}
		f->state = FE_IDLE;
		f->st.ended = 1;
		return;
	}
}

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
	if (step_follow(f, &b) < 0)
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
		record_error(f, LT_ERR_MISMATCH,
		             "spike trap: no trap point found from 0x%" PRIx64,
		             f->pc);
		return LT_ERR_MISMATCH;
	}
	*certain = best == 3;
	return 0;
}

static void on_trap(struct lt_frontend *f, const struct lt_packet *p)
{
	uint64_t from = 0;
	int certain = 1;
	if (p->has_from) {
		from = to_link(f, fix_addr(f, p->from));
	} else if (spike_from(f, p, &from, &certain) < 0) {
		lose(f);
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
		rc = walk_to(f, from, 1, LT_EV_EXCEPTION, next, from,
		             WALK_PACKETS);
		break;
	case LT_TRAP_INTERRUPT:
		rc = walk_to(f, from, 0, LT_EV_INTERRUPT, next, from,
		             WALK_PACKETS);
		break;
	default:
		rc = walk_to(f, from, 1, LT_EV_TRET, next, 0, WALK_PACKETS);
		break;
	}
	if (rc < 0) {
		lose(f);
		return;
	}
	take_context(f, p);
	f->reg = NULL;
}

/* A trap packet met after a loss: its from-address is absolute, so the
 * trap's target is known whatever the lost packets held. Decoding resumes
 * there (a START marker) with the privilege and context the packet carries,
 * if both addresses are code of the programs: after corrupt bytes the
 * parser may be misaligned, and trap-like bytes inside other packets must
 * not re-anchor the walk. Before any sync the mode comes from the
 * configuration. */
static void trap_anchor(struct lt_frontend *f, const struct lt_packet *p)
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
	    (f->st.segments == 0 && set_mode_from_cfg(f, p) != 0))
		return;
	take_context(f, p);
	f->pc = next;
	f->reg = NULL;
	f->state = FE_RUN;
	emit(f, LT_EV_START, f->pc, f->pc, f->pc, 0, f->ctx);
}

/* A packet other than a sync outside a running segment. Before the first
 * sync or after an end sync no encoder writes one (the trace was cut, or
 * the stream is not what --format says): that is lost data, reported once
 * per stretch. While lost, time deltas still add up (exact when the loss
 * was a program mismatch, not corrupt bytes) and a trap re-anchors. */
static void skipped_packet(struct lt_frontend *f, const struct lt_packet *p)
{
	if (f->state == FE_IDLE) {
		record_error(f, LT_ERR_MISMATCH, "%s packet %s",
		             p->type == LT_PKT_TRAP ? "a trap" : "a branch/jump",
		             f->st.segments ? "after the end sync (outside every "
		                              "segment)"
		                            : "before the first sync (the trace "
		                              "does not start with a sync)");
		f->state = FE_LOST;
	}
	f->st.bytes_skipped += p->size;
	if (p->type == LT_PKT_TRAP && p->has_from) {
		trap_anchor(f, p);
		return;
	}
	if (!(p->type == LT_PKT_TB && f->mode == LT_MODE_BP))
		f->time += p->value;
}

static void on_packet(struct lt_frontend *f, const struct lt_packet *p)
{
	struct blk b;
	f->st.packets++;
	f->st.pkt_type[p->type]++;
	f->st.pkt_compressed += p->compressed;
	if (p->type == LT_PKT_SYNC) {
		on_sync(f, p);
		return;
	}
	if (f->state != FE_RUN) {
		skipped_packet(f, p);
		return;
	}
	switch (p->type) {
	case LT_PKT_TB:
		if (f->mode == LT_MODE_BP) {
			/* Hit count: no time. */
			uint64_t cap = f->cfg.max_hits ? f->cfg.max_hits
			                               : (uint64_t)1 << 32;
			if (p->value > cap) {
				record_error(f, LT_ERR_BAD_PACKET,
				             "hit count %" PRIu64 " exceeds the "
				             "bound %" PRIu64, p->value, cap);
				goto lost;
			}
			for (uint64_t k = 0; k < p->value; k++) {
				if (step_follow(f, &b) < 0 ||
				    expect(f, &b, LT_INSN_BRANCH, "hit") < 0)
					goto lost;
				bp_branch(f, &b, 0);
			}
			return;
		}
		f->time += p->value;
		if (step(f, &b) < 0 ||
		    expect(f, &b, LT_INSN_BRANCH, "taken-branch") < 0)
			goto lost;
		take_branch(f, &b, 1);
		return;
	case LT_PKT_NT:
		f->time += p->value;
		if (f->mode == LT_MODE_BP) {
			if (step_follow(f, &b) < 0 ||
			    expect(f, &b, LT_INSN_BRANCH, "miss") < 0)
				goto lost;
			bp_branch(f, &b, 1);
			return;
		}
		if (step(f, &b) < 0 ||
		    expect(f, &b, LT_INSN_BRANCH, "not-taken-branch") < 0)
			goto lost;
		take_branch(f, &b, 0);
		return;
	case LT_PKT_IJ:
		f->time += p->value;
		if (step(f, &b) < 0 ||
		    expect(f, &b, LT_INSN_JUMP, "inferable-jump") < 0)
			goto lost;
		take_jump(f, &b);
		return;
	case LT_PKT_UJ: {
		f->time += p->value;
		if (step_follow(f, &b) < 0 ||
		    expect(f, &b, LT_INSN_IJUMP, "uninferable-jump") < 0)
			goto lost;
		uint64_t next = to_link(f, fix_addr(f, (to_run(f, b.last) &
		                                        f->amask) ^ p->target));
		emit(f, LT_EV_IJUMP, f->pc, b.last, next, b.n, 0);
		f->pc = next;
		return;
	}
	case LT_PKT_TRAP:
		on_trap(f, p);
		return;
	default:
		return;
	}
lost:
	lose(f);
}

/* ---- public ---- */

const struct lt_region *lt_image_set_find(const struct lt_image_set *set,
                                          int prv, uint64_t ctx,
                                          uint64_t addr, uint16_t *which)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < set->n; i++) {
			const struct lt_image_sel *s = &set->sel[i];
			if (pass == 0 && ((s->prv >= 0 && s->prv != prv) ||
			                  (s->ctx >= 0 && (uint64_t)s->ctx != ctx)))
				continue;
			const struct lt_region *r = lt_image_region(s->img, addr);
			if (r) {
				*which = (uint16_t)i;
				return r;
			}
		}
	}
	return NULL;
}

struct lt_frontend *lt_frontend_new(const struct lt_frontend_config *cfg,
                                    const struct lt_image_set *images,
                                    lt_event_sink sink, void *user,
                                    char *err, size_t errlen)
{
	if (cfg->addr_bits < 16 || cfg->addr_bits > 64) {
		snprintf(err, errlen, "address width %u out of range 16..64",
		         cfg->addr_bits);
		return NULL;
	}
	if (cfg->bp_entries && (cfg->bp_entries & (cfg->bp_entries - 1))) {
		snprintf(err, errlen, "--bp-entries %u is not a power of two",
		         cfg->bp_entries);
		return NULL;
	}
	struct lt_frontend *f = calloc(1, sizeof(*f));
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	f->cfg = *cfg;
	f->ev = f->buf;
	f->cap = EV_BATCH;
	f->images = images;
	for (size_t i = 0; i < images->n; i++) {
		if (images->sel[i].img->bias)
			f->moved = 1;
		f->sext |= images->sel[i].img->xlen != 32;
	}
	f->sext |= images->n == 0;
	f->sink = sink;
	f->user = user;
	f->amask = cfg->addr_bits >= 64 ? ~(uint64_t)0
	                                 : ((uint64_t)1 << cfg->addr_bits) - 1;
	lt_parser_init(&f->parser, cfg->format);
	f->prv = LT_PRV_M;
	f->mode = cfg->mode == LT_MODE_BP ? LT_MODE_BP : LT_MODE_BT;
	f->st.resolved_format = cfg->format;
	return f;
}

/* The hot path: a one-byte compressed TB/NT/IJ packet in BT mode, decoded
 * without building a struct lt_packet. Same effect as on_packet. */
static inline void fast_bt(struct lt_frontend *f, uint8_t h)
{
	static const uint8_t type[4] = {LT_PKT_TB, LT_PKT_NT, 0, LT_PKT_IJ};
	struct blk b;
	int t = type[h & 3];
	f->st.packets++;
	f->st.pkt_type[t]++;
	f->st.pkt_compressed++;
	f->time += h >> 2;
	if (step(f, &b) < 0)
		goto lost;
	if (t == LT_PKT_IJ) {
		if (expect(f, &b, LT_INSN_JUMP, "inferable-jump") < 0)
			goto lost;
		take_jump(f, &b);
		return;
	}
	if (expect(f, &b, LT_INSN_BRANCH,
	           t == LT_PKT_TB ? "taken-branch" : "not-taken-branch") < 0)
		goto lost;
	take_branch(f, &b, t == LT_PKT_TB);
	return;
lost:
	lose(f);
}

int lt_frontend_feed(struct lt_frontend *f, const uint8_t *buf, size_t len)
{
	size_t pos = 0;
	struct lt_packet p;
	while (pos < len && !f->stop) {
		if (f->parser.part_len == 0 && f->state == FE_RUN &&
		    f->mode == LT_MODE_BT && (buf[pos] & 3) != 2) {
			f->pkt_off = f->parser.offset++;
			f->pkt_idx = f->st.packets;
			fast_bt(f, buf[pos++]);
			continue;
		}
		int rc = lt_parser_next(&f->parser, buf, len, &pos, &p);
		if (rc == 0)
			break;
		f->pkt_off = p.offset;
		f->pkt_idx = f->st.packets;
		if (rc < 0) {
			if (f->state != FE_LOST) {
				char why[sizeof(f->st.err[0].msg)];
				lt_packet_describe_bad(&p, f->parser.format, why,
				                       sizeof(why));
				record_error(f, LT_ERR_BAD_PACKET, "%s", why);
			}
			if (f->state == FE_RUN)
				lose(f);
			else if (f->state == FE_IDLE)
				f->state = FE_LOST;
			f->st.bytes_skipped++;
			continue;
		}
		on_packet(f, &p);
	}
	f->st.bytes += len;
	f->st.resolved_format = f->parser.format;
	f->st.last_time = f->time;
	flush_events(f);
	return f->stop ? LT_ERR_INVAL : 0;
}

int lt_frontend_finish(struct lt_frontend *f)
{
	f->pkt_off = f->parser.offset;
	f->pkt_idx = f->st.packets;
	if (lt_parser_pending(&f->parser)) {
		record_error(f, LT_ERR_TRUNC,
		             "trace ends in the middle of a packet");
		if (f->state == FE_RUN)
			lose(f);
	} else if (f->state == FE_RUN) {
		record_error(f, LT_ERR_TRUNC,
		             "trace ends without an end sync (last pc 0x%" PRIx64
		             ")", f->pc);
		lose(f);
	}
	f->st.last_time = f->time;
	flush_events(f);
	return f->stop ? LT_ERR_INVAL : 0;
}

void lt_frontend_set_ring(struct lt_frontend *f, struct lt_ring *ring)
{
	flush_events(f);
	f->ring = ring;
	f->cap = 0;
	if (!ring) {
		f->ev = f->buf;
		f->cap = EV_BATCH;
	}
}

const struct lt_decode_stats *lt_frontend_stats(const struct lt_frontend *f)
{
	return &f->st;
}

void lt_frontend_free(struct lt_frontend *f)
{
	if (!f)
		return;
	if (f->bp_ready)
		lt_bpred_fini(&f->bp);
	free(f);
}
