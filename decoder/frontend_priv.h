/* The frontend's internals shared by its files (frontend.c: blocks, walks,
 * syncs and branch packets; frontend_trap.c: trap packets). Not part of the
 * library's interface. */
#ifndef LTPIPE_FRONTEND_PRIV_H
#define LTPIPE_FRONTEND_PRIV_H

#include <inttypes.h>
#include <stdint.h>

#include "bpred.h"
#include "ltpipe/error.h"
#include "ltpipe/frontend.h"
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

/* Walk policy when a block ends before the target address. */
enum walk_policy {
	WALK_PACKETS = 0, /* every control-flow insn had a packet: none to follow
	                     (except direct jumps in BP mode) */
	WALK_END = 1,     /* to an end sync: BP follows the predictor (pending
	                     hits are never flushed); BT tolerates one unreported
	                     message before the end */
};

/* Makes room for at least one event (frontend.c). */
void fe_make_room(struct lt_frontend *f);
/* Records a decode error at the packet at hand (frontend.c). */
void fe_error(struct lt_frontend *f, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Enters the LOST state once per loss, with a LOST event (frontend.c). */
void fe_lose(struct lt_frontend *f);
/* Steps to the next block not ending in a followed direct jump
 * (frontend.c). Returns 0 or a recorded error. */
int fe_step_follow(struct lt_frontend *f, struct blk *b);
/* Walks from pc to addr, emitting the final block as `kind` (frontend.c).
 * Returns 0 or a recorded error. */
int fe_walk_to(struct lt_frontend *f, uint64_t addr, int inclusive, int kind,
               uint64_t next, uint64_t aux, int policy);
/* Adopts a packet's privilege and context (frontend.c). */
void fe_take_context(struct lt_frontend *f, const struct lt_packet *p);
/* Sets the mode and predictor from a packet's cfg byte or the
 * configuration (frontend.c). Returns 0 or a recorded error. */
int fe_set_mode(struct lt_frontend *f, const struct lt_packet *p);
/* A trap packet in a running segment (frontend_trap.c). */
void fe_on_trap(struct lt_frontend *f, const struct lt_packet *p);
/* A trap packet met while lost: re-anchors on its absolute from-address
 * when both ends are program code (frontend_trap.c). */
void fe_trap_anchor(struct lt_frontend *f, const struct lt_packet *p);

static inline void emit(struct lt_frontend *f, int kind, uint64_t start,
                        uint64_t last, uint64_t next, uint32_t n,
                        uint64_t aux)
{
	if (f->nev == f->cap)
		fe_make_room(f);
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
		/* Nothing decoded yet: the first sync's own address is no
		 * code, most often a trace of another variant or program. */
		fe_error(f, LT_ERR_NO_MAP,
		             "pc 0x%" PRIx64 " is outside every executable "
		             "section of the program%s", pc, f->st.blocks ? "" :
		             " (the first sync's address: wrong --format or "
		             "--elf?)");
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

#endif
