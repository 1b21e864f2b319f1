/* Frontend: packets + images -> block events (see frontend.h and
 * shared/docs/LTRACE-FORMAT.md sections 5-7 for the replay rules). */
#include "frontend_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
void fe_make_room(struct lt_frontend *f)
{
	flush_events(f);
	if (f->ring) {
		size_t got;
		f->ev = lt_ring_claim(f->ring, EV_BATCH, &got);
		f->cap = got;
	}
}

/* ---- errors ---- */

void fe_error(struct lt_frontend *f, int code, const char *fmt, ...)
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
void fe_lose(struct lt_frontend *f)
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


static int expect(struct lt_frontend *f, const struct blk *b, int cls,
                  const char *pkt)
{
	if (b->cls == cls)
		return 0;
	fe_error(f, LT_ERR_MISMATCH,
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
int fe_step_follow(struct lt_frontend *f, struct blk *b)
{
	for (uint32_t k = 0;; k++) {
		if (step(f, b) < 0)
			return LT_ERR_NO_MAP;
		if (b->cls != LT_INSN_JUMP || !f->follow_jal)
			return 0;
		if (k >= WALK_LIMIT) {
			fe_error(f, LT_ERR_MISMATCH,
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
int fe_walk_to(struct lt_frontend *f, uint64_t addr, int inclusive,
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
		fe_error(f, LT_ERR_MISMATCH,
		             "address 0x%" PRIx64 " is not reachable from 0x%"
		             PRIx64 ": the block ends in %s at 0x%" PRIx64,
		             addr, f->pc, cls_name(b.cls), b.last);
		return LT_ERR_MISMATCH;
	}
	fe_error(f, LT_ERR_MISMATCH,
	             "address 0x%" PRIx64 " not reached within %u blocks", addr,
	             WALK_LIMIT);
	return LT_ERR_MISMATCH;
}

/* ---- packets ---- */

int fe_set_mode(struct lt_frontend *f, const struct lt_packet *p)
{
	int mode = f->cfg.mode;
	uint32_t entries = f->cfg.bp_entries;
	if (p->has_cfg) {
		int m = p->cfg & 3;
		if (mode == LT_MODE_AUTO && (m == 1 || m == 3)) {
			/* RTL modes 1 (branch history) and 3 emit neither
			 * branch nor hit/miss packets: no walk can follow
			 * them (conflict C7 of the format notes). */
			fe_error(f, LT_ERR_BAD_PACKET,
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
				fe_error(f, LT_ERR_BAD_PACKET,
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
			fe_error(f, LT_ERR_BAD_PACKET,
			             "unusable predictor size %u (cfg byte 0x%02x)",
			             entries, p->cfg);
			return LT_ERR_BAD_PACKET;
		}
		f->bp_ready = 1;
	}
	f->bp_entries = entries;
	f->mode = mode;
	f->follow_jal = mode == LT_MODE_BP &&
	                !lt_format_is_spike(f->parser.format);
	f->st.resolved_mode = mode;
	f->st.resolved_bp_entries = entries;
	return 0;
}

/* Adopts the privilege and context id a sync or trap packet carries. */
void fe_take_context(struct lt_frontend *f, const struct lt_packet *p)
{
	if (p->has_prv)
		f->prv = p->to_prv;
	if (p->has_ctx)
		f->ctx = p->ctx;
}

/* The absolute time a sync's value stands for. RTL takes time from an
 * xlen-wide register: on RV32 it wraps at 2^32 (deltas are modulo 2^32, so
 * adding them keeps counting past the wrap). A 32-bit value is widened to
 * the first time at or after the current one with those low bits, so times
 * never run backwards; RTL time is monotonic. Spike's time (an instruction
 * count, mixed with mcycle at traps) is 64 bits wide on RV32 as well. */
static uint64_t sync_time(const struct lt_frontend *f, uint64_t value)
{
	if (f->sext || lt_format_is_spike(f->parser.format) ||
	    f->parser.format == LT_FMT_SPIKE_ARMED || value >> 32 ||
	    f->st.segments == 0)
		return value;
	uint64_t t = (f->time & ~(uint64_t)0xffffffff) | value;
	return t < f->time ? t + ((uint64_t)1 << 32) : t;
}

/* Spike 09418ad8's armed start: the sync names the first instruction
 * (`from`, where f->pc is) and the second (`next`); the encoder sent no
 * packet for the first, so its outcome is read from `next` and a branch
 * there does not train the predictor. Returns 0 or a recorded error. */
static int armed_first(struct lt_frontend *f, uint64_t next)
{
	struct blk b;
	uint64_t from = f->pc;
	if (step(f, &b) < 0)
		return LT_ERR_NO_MAP;
	if (b.last != from) /* not control flow: the walk runs through it */
		return next == from + f->reg->info[(from - f->reg->base) >> 1].len
		       ? 0 : LT_ERR_MISMATCH;
	switch (b.cls) {
	case LT_INSN_BRANCH:
		if (next != b.last + (int64_t)b.tgt && next != b.last + b.len)
			return LT_ERR_MISMATCH;
		take_branch(f, &b, next == b.last + (int64_t)b.tgt &&
		                   b.tgt != b.len);
		return 0;
	case LT_INSN_JUMP:
		if (next != b.last + (int64_t)b.tgt)
			return LT_ERR_MISMATCH;
		take_jump(f, &b);
		return 0;
	case LT_INSN_IJUMP:
		emit(f, LT_EV_IJUMP, f->pc, b.last, next, b.n, 0);
		f->pc = next;
		return 0;
	default: /* a trap or xRET as the first instruction: not modelled */
		return LT_ERR_MISMATCH;
	}
}

/* A sync that opens a segment (or re-anchors after a loss). */
static void sync_start(struct lt_frontend *f, const struct lt_packet *p)
{
	if (fe_set_mode(f, p) != 0) {
		fe_lose(f);
		return;
	}
	fe_take_context(f, p);
	f->time = sync_time(f, p->value);
	if (f->st.segments == 0)
		f->st.first_time = p->value;
	f->st.segments++;
	f->st.ended = 0;
	f->pc = to_link(f, fix_addr(f, p->target));
	f->reg = NULL;
	f->state = FE_RUN;
	if (f->parser.format == LT_FMT_SPIKE_ARMED && p->has_from) {
		uint64_t next = f->pc;
		f->pc = to_link(f, fix_addr(f, p->from));
		emit(f, LT_EV_START, f->pc, f->pc, f->pc, 0, f->ctx);
		if (armed_first(f, next) != 0) {
			fe_error(f, LT_ERR_MISMATCH,
			             "armed start sync: 0x%" PRIx64 " does not "
			             "lead to 0x%" PRIx64, p->from, p->target);
			fe_lose(f);
		}
		return;
	}
	emit(f, LT_EV_START, f->pc, f->pc, f->pc, 0, f->ctx);
}

static int is_legacy(int fmt)
{
	return fmt == LT_FMT_TACIT_2025 || fmt == LT_FMT_TACIT_2025_UNSHIFTED ||
	       lt_format_is_spike(fmt);
}

/* Whether addr is an instruction address of one of the programs. */
static int is_code(struct lt_frontend *f, uint64_t addr)
{
	uint16_t w;
	return (addr & 1) == 0 &&
	       lt_image_set_find(f->images, f->prv, f->ctx, addr, &w) != NULL;
}

static void on_sync(struct lt_frontend *f, const struct lt_packet *p)
{
	int sub = p->subtype;
	/* spike-armed: an end or periodic sync names its instruction in
	 * `from` (only the start sync's xor leads somewhere) */
	uint64_t target = to_link(f, fix_addr(f, p->has_from ? p->from
	                                                     : p->target));
	if (is_legacy(f->parser.format))
		sub = f->state == FE_RUN ? LT_SYNC_END : LT_SYNC_START;
	if (sub == LT_SYNC_PERIODIC && !is_code(f, target)) {
		/* RTL2's periodic sync is work in progress: its target and cfg
		 * are placeholders (0xC0FFEE, 0x7F). A periodic sync adds
		 * nothing the packets do not say, so one that points at no
		 * code neither re-anchors nor ends the walk; only its absolute
		 * time is taken (while running). */
		if (!f->st.syncs_ignored++)
			f->st.ignored_target = target;
		if (f->state == FE_RUN)
			f->time = sync_time(f, p->value);
		return;
	}
	if (f->state != FE_RUN) {
		/* Idle or lost: start and periodic syncs anchor the pc; an end
		 * sync closes nothing. */
		if (sub == LT_SYNC_END) {
			/* When idle (not already lost), the start of this
			 * segment is missing: the trace was cut. */
			if (f->state == FE_IDLE)
				fe_error(f, LT_ERR_MISMATCH,
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
		fe_error(f, LT_ERR_MISMATCH,
		             "start sync inside a running segment (end sync "
		             "missing)");
		fe_lose(f);
		sync_start(f, p);
		return;
	case LT_SYNC_PERIODIC: {
		if (fe_walk_to(f, target, 0, LT_EV_SYNC, target, 0, WALK_PACKETS) < 0) {
			fe_lose(f);
			sync_start(f, p);
			return;
		}
		fe_take_context(f, p);
		f->time = sync_time(f, p->value);
		return;
	}
	default: /* end */
		f->time = sync_time(f, p->value);
		if (p->has_prv)
			f->prv = p->to_prv;
		if (fe_walk_to(f, target, 1, LT_EV_END, target, f->ctx, WALK_END) < 0) {
			fe_lose(f);
			f->state = FE_IDLE;
			return;
		}
		f->state = FE_IDLE;
		f->st.ended = 1;
		return;
	}
}

/* A packet other than a sync outside a running segment. Before the first
 * sync or after an end sync no encoder writes one (the trace was cut, or
 * the stream is not what --format says): that is lost data, reported once
 * per stretch. While lost, time deltas still add up (exact when the loss
 * was a program mismatch, not corrupt bytes) and a trap re-anchors. */
static void skipped_packet(struct lt_frontend *f, const struct lt_packet *p)
{
	if (f->state == FE_IDLE) {
		fe_error(f, LT_ERR_MISMATCH, "%s packet %s",
		             p->type == LT_PKT_TRAP ? "a trap" : "a branch/jump",
		             f->st.segments ? "after the end sync (outside every "
		                              "segment)"
		                            : "before the first sync (the trace "
		                              "does not start with a sync)");
		f->state = FE_LOST;
	}
	f->st.bytes_skipped += p->size;
	if (p->type == LT_PKT_TRAP && p->has_from) {
		fe_trap_anchor(f, p);
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
				fe_error(f, LT_ERR_BAD_PACKET,
				             "hit count %" PRIu64 " exceeds the "
				             "bound %" PRIu64, p->value, cap);
				goto lost;
			}
			for (uint64_t k = 0; k < p->value; k++) {
				if (fe_step_follow(f, &b) < 0 ||
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
			if (fe_step_follow(f, &b) < 0 ||
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
		if (fe_step_follow(f, &b) < 0 ||
		    expect(f, &b, LT_INSN_IJUMP, "uninferable-jump") < 0)
			goto lost;
		uint64_t next = to_link(f, fix_addr(f, (to_run(f, b.last) &
		                                        f->amask) ^ p->target));
		emit(f, LT_EV_IJUMP, f->pc, b.last, next, b.n, 0);
		f->pc = next;
		return;
	}
	case LT_PKT_TRAP:
		fe_on_trap(f, p);
		return;
	default:
		return;
	}
lost:
	fe_lose(f);
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

void lt_frontend_images_changed(struct lt_frontend *f)
{
	/* A region the cache holds may have been superseded by a larger
	 * one (added code next to it): look it up again. */
	f->reg = NULL;
	f->moved = 0;
	for (size_t i = 0; i < f->images->n; i++)
		if (f->images->sel[i].img->bias)
			f->moved = 1;
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
	lt_frontend_images_changed(f);
	for (size_t i = 0; i < images->n; i++)
		f->sext |= images->sel[i].img->xlen != 32;
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
	fe_lose(f);
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
				fe_error(f, LT_ERR_BAD_PACKET, "%s", why);
			}
			if (f->state == FE_RUN)
				fe_lose(f);
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
	if (f->st.bytes == 0) {
		/* An encoder always writes at least its start sync: nothing
		 * at all is a capture that failed, not a program that ran no
		 * instructions. */
		fe_error(f, LT_ERR_TRUNC, "the trace is empty (no start sync)");
	} else if (lt_parser_pending(&f->parser)) {
		fe_error(f, LT_ERR_TRUNC,
		             "trace ends in the middle of a packet");
		if (f->state == FE_RUN)
			fe_lose(f);
	} else if (f->state == FE_RUN) {
		fe_error(f, LT_ERR_TRUNC,
		             "trace ends without an end sync (last pc 0x%" PRIx64
		             ")", f->pc);
		fe_lose(f);
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
