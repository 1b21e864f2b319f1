/* stats receiver: totals, per-function instructions / cycles / calls, and
 * decode statistics, written at close to OUTDIR/stats.txt (a table) and
 * OUTDIR/stats.json.
 *
 * Counting rules (also in the receiver's help and the README):
 * - instructions: the sum of event icounts. A block is credited to the
 *   function holding its first instruction; a block that runs past the end
 *   of that function (falls through into the next symbol) is split at the
 *   symbol boundaries and each part credited to its own function.
 * - blocks: non-marker events (every kind but start and lost), credited to
 *   the function of the block's first address.
 * - cycles: each non-marker event's timestamp minus the previous event's
 *   timestamp (the time from the retirement of the previous block's last
 *   instruction to that of this block's) is credited to the function of the
 *   event's first address. A start event sets the reference time without
 *   crediting anything; after a lost event the gap to the next timestamped
 *   event is unknown, so that event only sets the reference (counted as an
 *   unattributed gap). Time never runs backwards in a valid trace; if it
 *   does, the delta counts as 0.
 * - calls: a non-marker event whose first address is a function's start
 *   address and that executed something (icount > 0; or an interrupt
 *   taken right at the entry, whose resumption is then not counted),
 *   unless the previous event was a trap return (the interrupted
 *   function resuming), and provided the previous block was in another
 *   function (or there was none: trace start, after a loss) or ended with
 *   a linking jump (jal/jalr writing ra or t0: a recursive call). Loop
 *   back-edges to a function's first instruction are therefore not calls.
 *
 * Hot path: O(1) per event. The function of the last block is cached
 * (same image and inside its address range: no lookup at all); otherwise
 * the symbol table's bucket index finds it. Per-function counters are
 * arrays indexed by symbol index, with one "[unknown]" slot per image for
 * addresses outside every symbol. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/insn.h"
#include "ltpipe/outfile.h"
#include "ltpipe/receiver.h"
#include "ltpipe/symbols.h"

#define NO_FN UINT32_MAX

/* Counters of one function. */
struct fn_stat {
	uint64_t insns;  /* instructions executed in it */
	uint64_t cycles; /* time credited to it */
	uint64_t calls;  /* entries at its start address (see the rules) */
	uint64_t blocks; /* blocks starting in it */
};

/* Symbols of one image of the session. */
struct img_syms {
	const struct lt_image *img;  /* the image */
	const struct lt_symtab *tab; /* its shared symbol table */
	uint32_t base;               /* index of its first entry in fn[] */
};

struct stats_state {
	const struct lt_session_info *s; /* session */
	struct lt_out *txt;              /* stats.txt */
	struct lt_out *json;             /* stats.json, or NULL */
	unsigned top;                    /* rows in the text table, 0 = all */
	struct img_syms *imgs;           /* one per image set entry */
	size_t nimgs;                    /* entries in imgs */
	struct fn_stat *fn;              /* per function, then per image one
	                                    unknown slot, then one for events
	                                    naming no image */
	uint32_t nfn;                    /* entries in fn */
	/* The cached function of the last block. */
	uint16_t c_img;                  /* its image, or UINT16_MAX */
	uint64_t c_lo;                   /* its start address */
	uint64_t c_len;                  /* its size (0: nothing cached) */
	uint32_t c_fi;                   /* its index in fn[] */
	/* The previous event, for cycles and calls. */
	uint64_t prev_time;              /* its timestamp */
	int have_time;                   /* prev_time is a valid reference */
	uint32_t prev_fi;                /* function of the previous block, or
	                                    NO_FN after a marker */
	uint8_t prev_kind;               /* its kind */
	uint16_t prev_img;               /* its image */
	uint64_t prev_last;              /* its last instruction */
	/* Totals. */
	uint64_t kind[LT_EV_KIND_COUNT]; /* events by kind */
	uint64_t events;                 /* all events */
	uint64_t blocks;                 /* non-marker events */
	uint64_t insns;                  /* instructions */
	uint64_t cycles;                 /* credited time */
	uint64_t gaps;                   /* deltas dropped after a loss */
	uint64_t first_time;             /* first timestamp seen */
	uint64_t last_time;              /* last timestamp seen */
	int seen_time;                   /* first_time is set */
};

/* Finds the function of addr in image entry img: its fn[] index, with its
 * range in *lo and *len (len 0 for an unknown address). */
static uint32_t fn_lookup(const struct stats_state *t, uint16_t img,
                          uint64_t addr, uint64_t *lo, uint64_t *len)
{
	*lo = 0;
	*len = 0;
	if (img >= t->nimgs)
		return t->nfn - 1;
	const struct img_syms *is = &t->imgs[img];
	long i = lt_symtab_find(is->tab, addr);
	if (i < 0)
		return is->base + (uint32_t)is->tab->n;
	*lo = is->tab->sym[i].start;
	*len = is->tab->sym[i].end - *lo;
	return is->base + (uint32_t)i;
}

/* Returns 1 if the instruction at addr in image img links (a call). */
static int is_linking(const struct stats_state *t, uint16_t img,
                      uint64_t addr)
{
	if (img >= t->nimgs)
		return 0;
	const struct lt_region *r = lt_image_region(t->imgs[img].img, addr);
	if (!r)
		return 0;
	uint8_t link = r->info[lt_region_idx(r, addr)].link;
	return link == LT_LINK_CALL || link == LT_LINK_CORO;
}

/* Credits the instructions of a block that runs past the end of its first
 * function (rare): each part goes to the function holding it. The counts
 * come from the image's step table (instructions from a halfword to the end
 * of its straight-line run), so no instruction is decoded. */
static void split_block(struct stats_state *t, const struct lt_event *e,
                        uint32_t fi, uint64_t end)
{
	uint32_t left = e->icount;
	const struct lt_region *r =
		lt_image_region(t->imgs[e->img].img, e->start);
	uint64_t a = e->start;
	while (r && end <= e->last && end < r->end) {
		uint32_t ia = lt_region_idx(r, a), ie = lt_region_idx(r, end);
		/* A boundary inside an instruction is not in this run. */
		if (r->hw[ia].cf != r->hw[ie].cf)
			break;
		uint32_t cnt = r->hw[ia].n - r->hw[ie].n;
		if (cnt >= left)
			break;
		t->fn[fi].insns += cnt;
		left -= cnt;
		a = end;
		uint64_t lo, len;
		fi = fn_lookup(t, e->img, a, &lo, &len);
		if (!len)
			break;
		end = lo + len;
	}
	t->fn[fi].insns += left;
}

/* Counts a batch: O(1) per event (see the top comment). */
static int stats_consume(void *state, const struct lt_event *ev, size_t n)
{
	struct stats_state *t = state;
	for (size_t i = 0; i < n; i++) {
		const struct lt_event *e = &ev[i];
		uint8_t kind = e->kind < LT_EV_KIND_COUNT ? e->kind : LT_EV_LOST;
		t->kind[kind]++;
		if (kind == LT_EV_START || kind == LT_EV_LOST) {
			if (kind == LT_EV_START) {
				t->prev_time = e->time;
				t->have_time = 1;
				if (!t->seen_time) {
					t->first_time = e->time;
					t->seen_time = 1;
				}
				/* (a later trace, another hart's, may start
				 * earlier than this one ended) */
				if (e->time < t->first_time)
					t->first_time = e->time;
				if (e->time > t->last_time)
					t->last_time = e->time;
			} else {
				t->have_time = 0;
			}
			t->prev_fi = NO_FN;
			t->prev_kind = kind;
			continue;
		}
		uint32_t fi;
		if (e->img == t->c_img && e->start - t->c_lo < t->c_len) {
			fi = t->c_fi;
		} else {
			fi = fn_lookup(t, e->img, e->start, &t->c_lo, &t->c_len);
			t->c_img = e->img;
			t->c_fi = fi;
		}
		struct fn_stat *f = &t->fn[fi];
		t->blocks++;
		f->blocks++;
		t->insns += e->icount;
		if (e->icount && e->last - t->c_lo >= t->c_len && t->c_len)
			split_block(t, e, fi, t->c_lo + t->c_len);
		else
			f->insns += e->icount;
		if (t->have_time) {
			uint64_t d = e->time >= t->prev_time ? e->time - t->prev_time
			                                     : 0;
			f->cycles += d;
			t->cycles += d;
		} else {
			t->gaps++;
			if (!t->seen_time) {
				t->first_time = e->time;
				t->seen_time = 1;
			}
		}
		if (e->time > t->last_time)
			t->last_time = e->time;
		t->prev_time = e->time;
		t->have_time = 1;
		if (e->start == t->c_lo && t->c_len &&
		    (e->icount || kind == LT_EV_INTERRUPT) &&
		    t->prev_kind != LT_EV_TRET &&
		    (t->prev_fi != fi ||
		     ((t->prev_kind == LT_EV_JUMP || t->prev_kind == LT_EV_IJUMP) &&
		      is_linking(t, t->prev_img, t->prev_last))))
			f->calls++;
		t->prev_fi = kind == LT_EV_END ? NO_FN : fi;
		t->prev_kind = kind;
		t->prev_img = e->img;
		t->prev_last = e->last;
	}
	t->events += n;
	return 0;
}

/* Name, address range and image of fn[] entry fi. */
static void fn_describe(const struct stats_state *t, uint32_t fi,
                        const char **name, const struct lt_sym **sym,
                        const char **image)
{
	*name = "[unknown]";
	*sym = NULL;
	*image = NULL;
	for (size_t k = 0; k < t->nimgs; k++) {
		const struct img_syms *is = &t->imgs[k];
		if (fi < is->base || fi > is->base + is->tab->n)
			continue;
		*image = is->img->path;
		if (fi < is->base + is->tab->n) {
			*sym = &is->tab->sym[fi - is->base];
			*name = (*sym)->name;
		}
		return;
	}
}

/* Sort key of one function. */
struct fn_key {
	uint64_t insns;  /* its instructions */
	uint64_t cycles; /* its cycles */
	uint32_t idx;    /* its fn[] index */
};

/* Most instructions first; ties by cycles, then fn[] order (address). */
static int fn_order(const void *pa, const void *pb)
{
	const struct fn_key *x = pa, *y = pb;
	if (x->insns != y->insns)
		return x->insns > y->insns ? -1 : 1;
	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Returns the fn[] indexes of functions with any count, in report order
 * (*n of them), or NULL when out of memory. */
static uint32_t *sorted_functions(const struct stats_state *t, uint32_t *n)
{
	struct fn_key *key = malloc((t->nfn ? t->nfn : 1) * sizeof(*key));
	uint32_t *idx = malloc((t->nfn ? t->nfn : 1) * sizeof(*idx));
	*n = 0;
	if (!key || !idx) {
		free(key);
		free(idx);
		return NULL;
	}
	for (uint32_t i = 0; i < t->nfn; i++) {
		const struct fn_stat *f = &t->fn[i];
		if (f->insns || f->cycles || f->calls || f->blocks)
			key[(*n)++] = (struct fn_key){f->insns, f->cycles, i};
	}
	qsort(key, *n, sizeof(*key), fn_order);
	for (uint32_t i = 0; i < *n; i++)
		idx[i] = key[i].idx;
	free(key);
	return idx;
}


static const char *const pkt_names[6] = {"tb", "nt", "uj", "ij", "trap",
                                         "sync"};

/* Percentage of part in whole with two decimals, as text. */
static void percent(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	if (!whole) {
		snprintf(buf, size, "-");
		return;
	}
	uint64_t bp = (uint64_t)((double)part * 10000.0 / (double)whole + 0.5);
	snprintf(buf, size, "%" PRIu64 ".%02" PRIu64, bp / 100, bp % 100);
}

/* Writes the human-readable report. */
static void write_txt(const struct stats_state *t, struct lt_out *o,
                      int incomplete, const uint32_t *idx, uint32_t nidx)
{
	const struct lt_decode_stats *ds = t->s->stats;
	lt_out_printf(o, "ltpipe stats: %s\n",
	           incomplete ? "INCOMPLETE (the stream was cut short)"
	                      : "complete");
	lt_out_printf(o, "instructions    %" PRIu64 "\n", t->insns);
	lt_out_printf(o, "blocks          %" PRIu64 "\n", t->blocks);
	lt_out_printf(o, "events          %" PRIu64 "\n", t->events);
	lt_out_printf(o, "cycles          %" PRIu64 "\n", t->cycles);
	lt_out_printf(o, "time            %" PRIu64 " .. %" PRIu64 "\n",
	           t->first_time, t->last_time);
	if (t->gaps)
		lt_out_printf(o, "unattributed    %" PRIu64 " gaps after losses\n",
		           t->gaps);
	if (ds) {
		lt_out_printf(o, "trace bytes     %" PRIu64 "\n", ds->bytes);
		if (ds->insns)
			lt_out_printf(o, "bytes/insn      %.4f\n",
			           (double)ds->bytes / (double)ds->insns);
		else
			lt_out_printf(o, "bytes/insn      -\n");
		lt_out_printf(o, "packets         %" PRIu64 "\n", ds->packets);
		for (int k = 0; k < 6; k++)
			lt_out_printf(o, "  %-13s %" PRIu64 "\n", pkt_names[k],
			           ds->pkt_type[k]);
		lt_out_printf(o, "  %-13s %" PRIu64 "\n", "(compressed)",
		           ds->pkt_compressed);
	}
	lt_out_printf(o, "events by kind\n");
	for (int k = 0; k < LT_EV_KIND_COUNT; k++)
		lt_out_printf(o, "  %-13s %" PRIu64 "\n", lt_event_kind_name(k),
		           t->kind[k]);
	uint32_t rows = t->top && t->top < nidx ? t->top : nidx;
	lt_out_printf(o, "functions       %" PRIu32 " executed; top %" PRIu32
	           " by instructions:\n", nidx, rows);
	lt_out_printf(o, "%14s %7s %14s %10s %10s  %-18s %s\n", "instructions",
	           "%", "cycles", "calls", "blocks", "address", "function");
	for (uint32_t r = 0; r < rows; r++) {
		const struct fn_stat *f = &t->fn[idx[r]];
		const char *name, *image;
		const struct lt_sym *sym;
		char pc[48], addr[24];
		fn_describe(t, idx[r], &name, &sym, &image);
		percent(pc, sizeof(pc), f->insns, t->insns);
		if (sym)
			snprintf(addr, sizeof(addr), "0x%" PRIx64, sym->start);
		else
			snprintf(addr, sizeof(addr), "-");
		lt_out_printf(o, "%14" PRIu64 " %7s %14" PRIu64 " %10" PRIu64
		           " %10" PRIu64 "  %-18s %s", f->insns, pc, f->cycles,
		           f->calls, f->blocks, addr, name);
		if (t->nimgs > 1 && image)
			lt_out_printf(o, " (%s)", image);
		lt_out_write(o, "\n", 1);
	}
}

/* Writes s as a JSON string. */
static void json_str(struct lt_out *o, const char *s)
{
	lt_out_write(o, "\"", 1);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			lt_out_printf(o, "\\%c", c);
		else if (c < 0x20)
			lt_out_printf(o, "\\u%04x", c);
		else
			lt_out_write(o, s, 1);
	}
	lt_out_write(o, "\"", 1);
}

/* Writes the same numbers, every executed function, as one JSON object. */
static void write_json(const struct stats_state *t, struct lt_out *o,
                       int incomplete, const uint32_t *idx, uint32_t nidx)
{
	const struct lt_decode_stats *ds = t->s->stats;
	lt_out_printf(o, "{\"complete\":%s,\"instructions\":%" PRIu64
	           ",\"blocks\":%" PRIu64 ",\"events\":%" PRIu64
	           ",\"cycles\":%" PRIu64 ",\"unattributed_gaps\":%" PRIu64
	           ",\"first_time\":%" PRIu64 ",\"last_time\":%" PRIu64,
	           incomplete ? "false" : "true", t->insns, t->blocks,
	           t->events, t->cycles, t->gaps, t->first_time, t->last_time);
	if (ds) {
		lt_out_printf(o, ",\"trace_bytes\":%" PRIu64 ",\"packets\":%" PRIu64,
		           ds->bytes, ds->packets);
		if (ds->insns)
			lt_out_printf(o, ",\"bytes_per_insn\":%.6f",
			           (double)ds->bytes / (double)ds->insns);
		else
			lt_out_printf(o, ",\"bytes_per_insn\":null");
		lt_out_printf(o, ",\"packet_types\":{");
		for (int k = 0; k < 6; k++)
			lt_out_printf(o, "\"%s\":%" PRIu64 ",", pkt_names[k],
			           ds->pkt_type[k]);
		lt_out_printf(o, "\"compressed\":%" PRIu64 "}", ds->pkt_compressed);
	}
	lt_out_printf(o, ",\"event_kinds\":{");
	for (int k = 0; k < LT_EV_KIND_COUNT; k++)
		lt_out_printf(o, "%s\"%s\":%" PRIu64, k ? "," : "",
		           lt_event_kind_name(k), t->kind[k]);
	lt_out_printf(o, "},\"functions\":[");
	for (uint32_t r = 0; r < nidx; r++) {
		const struct fn_stat *f = &t->fn[idx[r]];
		const char *name, *image;
		const struct lt_sym *sym;
		fn_describe(t, idx[r], &name, &sym, &image);
		lt_out_printf(o, "%s\n{\"name\":", r ? "," : "");
		json_str(o, name);
		lt_out_write(o, ",\"image\":", 9);
		if (image)
			json_str(o, image);
		else
			lt_out_write(o, "null", 4);
		if (sym)
			lt_out_printf(o, ",\"start\":\"0x%" PRIx64 "\",\"size\":%" PRIu64,
			           sym->start, sym->end - sym->start);
		else
			lt_out_printf(o, ",\"start\":null,\"size\":null");
		lt_out_printf(o, ",\"instructions\":%" PRIu64 ",\"cycles\":%" PRIu64
		           ",\"calls\":%" PRIu64 ",\"blocks\":%" PRIu64 "}",
		           f->insns, f->cycles, f->calls, f->blocks);
	}
	lt_out_printf(o, "]}\n");
}

/* Frees the state and releases the symbol tables. */
static void stats_free(struct stats_state *t)
{
	for (size_t k = 0; k < t->nimgs; k++)
		lt_symtab_put(t->imgs[k].tab);
	free(t->imgs);
	free(t->fn);
	free(t);
}

/* Parses the options, gets every image's symbols, opens both outputs
 * (so an unwritable directory fails before decoding). */
static int stats_open(void **state, const struct lt_session_info *s,
                      const struct lt_opts *opts, char *err, size_t errlen)
{
	static const char *const allowed[] = {"top", "json", NULL};
	if (lt_opts_check(opts, "stats", allowed, err, errlen) < 0)
		return LT_ERR_INVAL;
	unsigned long top = 20;
	const char *v = lt_opts_get(opts, "top");
	if (v) {
		char *end;
		top = strtoul(v, &end, 10);
		if (!*v || *end || top > UINT32_MAX) {
			snprintf(err, errlen,
			         "receiver stats: top=%s is not a number", v);
			return LT_ERR_INVAL;
		}
	}
	v = lt_opts_get(opts, "json");
	int want_json = !v || strcmp(v, "0") != 0;
	struct stats_state *t = calloc(1, sizeof(*t));
	size_t nimg = s->images ? s->images->n : 0;
	if (!t || !(t->imgs = calloc(nimg ? nimg : 1, sizeof(*t->imgs)))) {
		free(t);
		snprintf(err, errlen, "receiver stats: out of memory");
		return LT_ERR_NOMEM;
	}
	t->s = s;
	t->top = (unsigned)top;
	t->c_img = UINT16_MAX;
	t->prev_fi = NO_FN;
	t->prev_kind = LT_EV_START;
	uint64_t nfn = 1;
	for (size_t k = 0; k < nimg; k++) {
		t->imgs[k].img = s->images->sel[k].img;
		t->imgs[k].tab = lt_symtab_get(t->imgs[k].img, err, errlen);
		if (!t->imgs[k].tab) {
			stats_free(t);
			return LT_ERR_BAD_ELF;
		}
		t->nimgs = k + 1;
		t->imgs[k].base = (uint32_t)nfn - 1;
		nfn += t->imgs[k].tab->n + 1;
	}
	t->nfn = (uint32_t)nfn;
	t->fn = nfn < UINT32_MAX ? calloc(nfn, sizeof(*t->fn)) : NULL;
	if (!t->fn) {
		stats_free(t);
		snprintf(err, errlen, "receiver stats: out of memory");
		return LT_ERR_NOMEM;
	}
	char *p = lt_path_join(s->outdir, "stats.txt");
	t->txt = p ? lt_out_open(p, err, errlen) : NULL;
	free(p);
	if (t->txt && want_json) {
		p = lt_path_join(s->outdir, "stats.json");
		t->json = p ? lt_out_open(p, err, errlen) : NULL;
		free(p);
		if (!t->json) {
			lt_out_abort(t->txt);
			t->txt = NULL;
		}
	}
	if (!t->txt) {
		stats_free(t);
		return LT_ERR_IO;
	}
	*state = t;
	return 0;
}

/* Writes and commits both reports; stats.json is dropped when stats.txt
 * cannot be committed. */
static int stats_close(void *state, int incomplete, char *err, size_t errlen)
{
	struct stats_state *t = state;
	uint32_t nidx;
	uint32_t *idx = sorted_functions(t, &nidx);
	int rc;
	if (!idx || incomplete == LT_CLOSE_DISCARD) {
		lt_out_abort(t->txt);
		if (t->json)
			lt_out_abort(t->json);
		rc = 0;
		if (!idx) {
			snprintf(err, errlen, "receiver stats: out of memory");
			rc = LT_ERR_NOMEM;
		}
	} else {
		write_txt(t, t->txt, incomplete, idx, nidx);
		if (t->json)
			write_json(t, t->json, incomplete, idx, nidx);
		rc = lt_out_commit(t->txt, err, errlen);
		if (t->json) {
			if (rc)
				lt_out_abort(t->json);
			else
				rc = lt_out_commit(t->json, err, errlen);
		}
	}
	free(idx);
	stats_free(t);
	return rc;
}

const struct lt_receiver_ops lt_receiver_stats = {
	.abi = LT_RECEIVER_ABI,
	.name = "stats",
	.help = "totals and per-function instructions, cycles and calls (top "
	        "functions), packet and event histograms, bytes/insn; writes "
	        "OUTDIR/stats.txt and OUTDIR/stats.json. Cycles: each block "
	        "gets its timestamp minus the previous event's. Calls: blocks "
	        "entering a function at its start (not loop back-edges). "
	        "Options: top=N (table rows, default 20, 0 = all), json=0 "
	        "(no stats.json).",
	.open = stats_open,
	.consume = stats_consume,
	.close = stats_close,
};
