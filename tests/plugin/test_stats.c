/* Unit test of the symbol tables and the stats receiver on the tiny program
 * (tiny.S + tiny2.S), whose counts are worked out by hand:
 *
 *   function  insns  cycles  calls  blocks
 *   rec          23      41      3       8   3 activations, 2 recursive
 *   _start       21      50      1      12
 *   work         18      36      4       8   3 from _start, 1 from helper
 *   spin         13      25      1       5   its loop head is its entry
 *   helper        6      12      1       2   tiny.S's static helper
 *   other         4      10      1       2
 *   fall          2       7      1       1   its block runs into tail
 *   helper        2       5      1       1   tiny2.S's static helper
 *   tail          2       0      0       0   NOTYPE, size 0: extended
 *
 * Cycles follow pcs2trace's time model (1 per instruction, 3 more after a
 * non-sequential transfer): a block gets its icount plus 3 when it was
 * entered by a taken branch or jump; the first block gets icount - 1 (time
 * starts at its first instruction).
 *
 *   test_stats TINY.elf TINY.trace OUTDIR */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gelf.h>

#include "ltpipe/frontend.h"
#include "ltpipe/receiver.h"
#include "ltpipe/symbols.h"

extern const struct lt_receiver_ops lt_receiver_stats;

static int failures;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
			        __LINE__, #cond);                          \
			failures++;                                        \
		}                                                          \
	} while (0)

#define CHECK_EQ(a, b)                                                     \
	do {                                                               \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);           \
		if (a_ != b_) {                                            \
			fprintf(stderr, "%s:%d: %s == %" PRIu64              \
			        ", expected %" PRIu64 "\n", __FILE__, __LINE__, \
			        #a, a_, b_);                               \
			failures++;                                        \
		}                                                          \
	} while (0)

/* The expected table, in file order. */
static const struct {
	const char *name; /* symbol name */
	uint64_t size;    /* bytes */
	uint8_t type;     /* STT_* */
	uint8_t bind;     /* STB_* */
} want_syms[] = {
	{"_start", 48, STT_FUNC, STB_GLOBAL}, {"work", 14, STT_FUNC, STB_LOCAL},
	{"helper", 14, STT_FUNC, STB_LOCAL},  {"rec", 18, STT_FUNC, STB_LOCAL},
	{"spin", 10, STT_FUNC, STB_LOCAL},    {"fall", 4, STT_FUNC, STB_LOCAL},
	{"tail", 4, STT_NOTYPE, STB_LOCAL},   {"other", 10, STT_FUNC, STB_GLOBAL},
	{"helper", 4, STT_FUNC, STB_LOCAL},
};
#define NSYMS (sizeof(want_syms) / sizeof(want_syms[0]))

/* Reference lookup: plain binary search over the sorted entries. */
static long ref_find(const struct lt_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->sym[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= t->sym[lo - 1].end)
		return -1;
	return (long)lo - 1;
}

static void test_symbols(const char *elf, const struct lt_image *img)
{
	struct lt_symtab t, t2;
	char err[256];
	CHECK(lt_symtab_load_file(&t, elf, err, sizeof(err)) == 0);
	CHECK_EQ(t.n, NSYMS);
	for (size_t i = 0; i < NSYMS && i < t.n; i++) {
		CHECK(strcmp(t.sym[i].name, want_syms[i].name) == 0);
		CHECK_EQ(t.sym[i].end - t.sym[i].start, want_syms[i].size);
		CHECK_EQ(t.sym[i].type, want_syms[i].type);
		CHECK_EQ(t.sym[i].bind, want_syms[i].bind);
		CHECK_EQ(t.sym[i].sized, want_syms[i].type == STT_FUNC);
		if (i + 1 < t.n) /* the program has no gaps */
			CHECK_EQ(t.sym[i].end, t.sym[i + 1].start);
	}
	CHECK_EQ(t.sym[0].start, img->entry);
	/* Every address of the span, and one on each side. */
	for (uint64_t a = t.sym[0].start - 1; a <= t.sym[t.n - 1].end; a++)
		CHECK_EQ(lt_symtab_find(&t, a), ref_find(&t, a));
	CHECK_EQ(lt_symtab_find(&t, t.sym[0].start - 1), -1);
	CHECK_EQ(lt_symtab_find(&t, t.sym[t.n - 1].end), -1);
	CHECK_EQ(lt_symtab_find(&t, t.sym[8].start + 2), 8);
	CHECK(lt_symtab_lookup(&t, t.sym[2].start + 13) == &t.sym[2]);
	CHECK_EQ(lt_symtab_by_name(&t, "helper"), 2);
	CHECK_EQ(lt_symtab_by_name(&t, "nope"), -1);

	/* From the image's bytes: the same table. */
	CHECK(lt_symtab_load(&t2, img, err, sizeof(err)) == 0);
	CHECK_EQ(t2.n, t.n);
	for (size_t i = 0; i < t.n && i < t2.n; i++) {
		CHECK_EQ(t2.sym[i].start, t.sym[i].start);
		CHECK_EQ(t2.sym[i].end, t.sym[i].end);
	}
	lt_symtab_free(&t2);

	/* Shared tables: one per content, reference counted. */
	const struct lt_symtab *a = lt_symtab_get(img, err, sizeof(err));
	const struct lt_symtab *b = lt_symtab_get(img, err, sizeof(err));
	CHECK(a && a == b);
	CHECK(a && a->n == NSYMS);
	lt_symtab_put(a);
	lt_symtab_put(b);
	lt_symtab_free(&t);

	/* Not an ELF. */
	CHECK(lt_symtab_load_mem(&t, "junk", 4, err, sizeof(err)) < 0);
}

/* A bigger table: this test executable's own symbols (x86-64 or whatever
 * the host is: the tables do not depend on the ISA), every address checked
 * against the reference. */
static void test_symbols_self(void)
{
	struct lt_symtab t;
	char err[256];
	CHECK(lt_symtab_load_file(&t, "/proc/self/exe", err, sizeof(err)) == 0);
	CHECK(t.n > 50);
	CHECK(lt_symtab_by_name(&t, "lt_symtab_find") >= 0);
	for (size_t i = 0; i + 1 < t.n; i++)
		CHECK(t.sym[i].end <= t.sym[i + 1].start &&
		      t.sym[i].start < t.sym[i].end);
	uint64_t bad = 0;
	for (uint64_t a = t.lo - 16; a < t.sym[t.n - 1].end + 16; a++)
		bad += lt_symtab_find(&t, a) != ref_find(&t, a);
	CHECK_EQ(bad, 0);
	lt_symtab_free(&t);
}

/* Events collected from the frontend. */
struct evbuf {
	struct lt_event *ev; /* events */
	size_t n, cap;       /* used / allocated */
};

static int collect(void *user, const struct lt_event *ev, size_t n)
{
	struct evbuf *b = user;
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->ev = realloc(b->ev, b->cap * sizeof(*b->ev));
		if (!b->ev)
			abort();
	}
	memcpy(b->ev + b->n, ev, n * sizeof(*ev));
	b->n += n;
	return 0;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 20);
	*len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[*len] = '\0';
	return buf;
}

/* Runs the stats receiver over events (in batches of `batch`) with the
 * options "opts" and returns stats.txt's contents. */
static char *run_stats(const struct lt_session_info *s, const char *optstr,
                       const struct lt_event *ev, size_t n, size_t batch,
                       int incomplete)
{
	char err[256], opt_copy[128];
	struct lt_opts opts;
	snprintf(opt_copy, sizeof(opt_copy), "%s", optstr);
	CHECK(lt_opts_parse(opt_copy, &opts) == 0);
	void *st;
	if (lt_receiver_stats.open(&st, s, &opts, err, sizeof(err)) < 0) {
		fprintf(stderr, "open: %s\n", err);
		failures++;
		return NULL;
	}
	for (size_t i = 0; i < n; i += batch)
		CHECK(lt_receiver_stats.consume(st, ev + i,
		                                n - i < batch ? n - i : batch) == 0);
	CHECK(lt_receiver_stats.close(st, incomplete, err, sizeof(err)) == 0);
	char path[512];
	size_t len;
	snprintf(path, sizeof(path), "%s/stats.txt", s->outdir);
	return read_all(path, &len);
}

/* One row of the expected function table. */
struct row {
	const char *name; /* function name */
	uint64_t addr;    /* its start, or 0 for "-" */
	uint64_t insns, cycles, calls, blocks; /* its counters */
};

/* Checks that the table in txt has exactly these rows, in order. */
static void check_rows(const char *txt, const struct row *want, size_t n)
{
	const char *p = strstr(txt, "\n  instructions");
	CHECK(p != NULL);
	if (!p)
		return;
	p = strchr(p + 1, '\n');
	size_t k = 0;
	while (p && p[1]) {
		p++;
		uint64_t insns, cycles, calls, blocks;
		char pct[16], addr[32], name[64];
		if (sscanf(p, "%" SCNu64 " %15s %" SCNu64 " %" SCNu64 " %" SCNu64
		           " %31s %63s", &insns, pct, &cycles, &calls, &blocks,
		           addr, name) != 7)
			break;
		if (k < n) {
			char want_addr[32] = "-";
			if (want[k].addr)
				snprintf(want_addr, sizeof(want_addr), "0x%" PRIx64,
				         want[k].addr);
			if (strcmp(name, want[k].name) || strcmp(addr, want_addr)) {
				fprintf(stderr, "row %zu: %s %s, expected %s %s\n", k,
				        name, addr, want[k].name, want_addr);
				failures++;
			}
			CHECK_EQ(insns, want[k].insns);
			CHECK_EQ(cycles, want[k].cycles);
			CHECK_EQ(calls, want[k].calls);
			CHECK_EQ(blocks, want[k].blocks);
		}
		k++;
		p = strchr(p, '\n');
	}
	CHECK_EQ(k, n);
}

static int has(const char *txt, const char *s)
{
	if (txt && strstr(txt, s))
		return 1;
	fprintf(stderr, "missing: %s\n", s);
	return 0;
}

static void test_trace(const char *trace, const struct lt_image *img,
                       const char *outdir)
{
	struct lt_image_sel sel = {img, -1, -1};
	struct lt_image_set set = {&sel, 1};
	struct lt_frontend_config cfg = {.format = LT_FMT_TACIT,
	                                 .mode = LT_MODE_AUTO,
	                                 .addr_bits = 64};
	struct evbuf b = {0};
	char err[256];
	struct lt_frontend *f =
		lt_frontend_new(&cfg, &set, collect, &b, err, sizeof(err));
	CHECK(f != NULL);
	size_t len;
	char *bytes = read_all(trace, &len);
	CHECK(bytes != NULL);
	if (!f || !bytes)
		return;
	CHECK(lt_frontend_feed(f, (const uint8_t *)bytes, len) == 0);
	CHECK(lt_frontend_finish(f) == 0);
	const struct lt_decode_stats *ds = lt_frontend_stats(f);
	CHECK_EQ(ds->errors, 0);
	CHECK_EQ(b.n, 40); /* 39 blocks (the end included), start */

	struct lt_symtab t;
	CHECK(lt_symtab_load(&t, img, err, sizeof(err)) == 0);
	const struct row want[] = {
		{"rec", t.sym[3].start, 23, 41, 3, 8},
		{"_start", t.sym[0].start, 21, 50, 1, 12},
		{"work", t.sym[1].start, 18, 36, 4, 8},
		{"spin", t.sym[4].start, 13, 25, 1, 5},
		{"helper", t.sym[2].start, 6, 12, 1, 2},
		{"other", t.sym[7].start, 4, 10, 1, 2},
		{"fall", t.sym[5].start, 2, 7, 1, 1},
		{"helper", t.sym[8].start, 2, 5, 1, 1},
		{"tail", t.sym[6].start, 2, 0, 0, 0},
	};
	struct lt_session_info s = {&set, outdir, "test", ds, 0};
	/* Batches of 1, 7 and all: the same result. */
	const size_t batches[] = {1, 7, 1000};
	for (size_t k = 0; k < 3; k++) {
		char *txt = run_stats(&s, "top=0", b.ev, b.n, batches[k], 0);
		CHECK(txt != NULL);
		if (!txt)
			continue;
		check_rows(txt, want, 9);
		CHECK(has(txt, "ltpipe stats: complete\n"));
		CHECK(has(txt, "\ninstructions    91\n"));
		CHECK(has(txt, "\nblocks          39\n"));
		CHECK(has(txt, "\nevents          40\n"));
		CHECK(has(txt, "\ncycles          186\n"));
		CHECK(has(txt, "\ntime            0 .. 186\n"));
		CHECK(has(txt, "\n  tb            8\n  nt            6\n"
		               "  uj            12\n  ij            12\n"
		               "  trap          0\n  sync          2\n"));
		CHECK(has(txt, "\n  taken         8\n  not-taken     6\n"
		               "  jump          12\n  ijump         12\n"));
		CHECK(has(txt, "\n  start         1\n  end           1\n"));
		CHECK(has(txt, "functions       9 executed; top 9 by"));
		free(txt);
	}
	char path[512];
	snprintf(path, sizeof(path), "%s/stats.json", outdir);
	char *json = read_all(path, &len);
	CHECK(has(json, "{\"complete\":true,\"instructions\":91,\"blocks\":39,"
	                "\"events\":40,\"cycles\":186,"));
	CHECK(has(json, "\"packet_types\":{\"tb\":8,\"nt\":6,\"uj\":12,\"ij\":12,"
	                "\"trap\":0,\"sync\":2,"));
	CHECK(has(json, "{\"name\":\"tail\",\"image\":"));
	CHECK(has(json, "\"size\":4,\"instructions\":2,\"cycles\":0,"
	                "\"calls\":0,\"blocks\":0}]}\n"));
	free(json);

	/* top=2 and json=0: two rows, no stats.json written. */
	remove(path);
	char *txt = run_stats(&s, "top=2,json=0", b.ev, b.n, 64, 1);
	CHECK(has(txt, "ltpipe stats: INCOMPLETE"));
	CHECK(has(txt, "functions       9 executed; top 2 by"));
	check_rows(txt, want, 2);
	struct stat st;
	CHECK(stat(path, &st) != 0);
	free(txt);

	/* Bad options. */
	char opt_copy[32] = "top=x";
	struct lt_opts opts;
	void *state;
	lt_opts_parse(opt_copy, &opts);
	CHECK(lt_receiver_stats.open(&state, &s, &opts, err, sizeof(err)) < 0);
	char opt_copy2[32] = "bogus=1";
	lt_opts_parse(opt_copy2, &opts);
	CHECK(lt_receiver_stats.open(&state, &s, &opts, err, sizeof(err)) < 0);
	CHECK(has(err, "unknown option 'bogus'"));

	lt_symtab_free(&t);
	lt_frontend_free(f);
	free(bytes);
	free(b.ev);
}

/* Hand-made events for the rules a clean trace does not reach: losses,
 * traps, unknown addresses, foreign images, time running backwards. */
static void test_rules(const struct lt_image *img, const char *outdir)
{
	struct lt_image_sel sel = {img, -1, -1};
	struct lt_image_set set = {&sel, 1};
	struct lt_symtab t;
	char err[256];
	CHECK(lt_symtab_load(&t, img, err, sizeof(err)) == 0);
	uint64_t start = t.sym[0].start, work = t.sym[1].start,
	         rec = t.sym[3].start, spin = t.sym[4].start,
	         fall = t.sym[5].start;
	const struct lt_event ev[] = {
		{.kind = LT_EV_START, .next = start, .time = 100},
		/* rec: entered (a call: nothing before), then calls itself */
		{rec, rec + 6, rec + 8, 110, 0, 4, LT_EV_NOT_TAKEN, 0, 0, 0, 0},
		{rec + 8, rec + 8, rec, 112, 0, 1, LT_EV_JUMP, 0, 0, 0, 0},
		{rec, rec + 6, rec + 12, 120, 0, 4, LT_EV_TAKEN, 0, 0, 0, 0},
		{.kind = LT_EV_LOST, .aux = 77},
		/* after the loss: an empty sync block sets the time only */
		{spin, spin, spin, 900, 0, 0, LT_EV_SYNC, 0, 0, 0, 0},
		{spin, spin + 4, spin, 905, 0, 3, LT_EV_TAKEN, 0, 0, 0, 0},
		/* interrupted right at work's entry: counts as its call */
		{work, work, 0x5000, 910, work, 0, LT_EV_INTERRUPT, 0, 0, 0, 0},
		{0x5000, 0x5000, 0x5002, 915, 0, 1, LT_EV_IJUMP, 0, 0, 0, 0},
		/* the trap return resumes work at its entry: not a call */
		{0x5002, 0x5002, work, 918, 0, 1, LT_EV_TRET, 0, 0, 0, 0},
		{work, work + 6, work + 12, 930, 0, 3, LT_EV_TAKEN, 0, 0, 0, 0},
		/* an image index the session does not have; time goes back */
		{0x1234, 0x1236, 0x1240, 925, 0, 2, LT_EV_JUMP, 0, 0, 5, 0},
		/* fall's block runs into tail: split 2 + 2 */
		{fall, fall + 6, 0, 940, 0, 4, LT_EV_END, 0, 0, 0, 0},
	};
	size_t n = sizeof(ev) / sizeof(ev[0]);
	struct lt_session_info s = {&set, outdir, "rules", NULL, 0};
	const struct row want[] = {
		{"rec", rec, 9, 20, 2, 3},
		{"work", work, 3, 17, 1, 2},
		{"spin", spin, 3, 5, 0, 2},
		{"fall", fall, 2, 15, 1, 1},
		{"[unknown]", 0, 2, 8, 0, 2},
		{"tail", t.sym[6].start, 2, 0, 0, 0},
		{"[unknown]", 0, 2, 0, 0, 1},
	};
	for (size_t batch = 1; batch <= n; batch += 4) {
		char *txt = run_stats(&s, "", ev, n, batch, 0);
		CHECK(txt != NULL);
		if (!txt)
			continue;
		check_rows(txt, want, 7);
		CHECK(has(txt, "\ninstructions    23\n"));
		CHECK(has(txt, "\nblocks          11\n"));
		CHECK(has(txt, "\nevents          13\n"));
		CHECK(has(txt, "\ncycles          65\n"));
		CHECK(has(txt, "\ntime            100 .. 940\n"));
		CHECK(has(txt, "\nunattributed    1 gaps after losses\n"));
		CHECK(has(txt, "\n  taken         3\n  not-taken     1\n"
		               "  jump          2\n  ijump         1\n"
		               "  exception     0\n  interrupt     1\n"
		               "  tret          1\n  start         1\n"
		               "  end           1\n  lost          1\n"
		               "  sync          1\n"));
		CHECK(strstr(txt, "packets") == NULL); /* no decode stats */
		free(txt);
	}
	lt_symtab_free(&t);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: test_stats TINY.elf TINY.trace OUTDIR\n");
		return 2;
	}
	mkdir(argv[3], 0777);
	struct lt_image *img;
	char err[256];
	if (lt_image_load(&img, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	test_symbols(argv[1], img);
	test_symbols_self();
	test_trace(argv[2], img, argv[3]);
	test_rules(img, argv[3]);
	lt_image_free(img);
	if (failures) {
		fprintf(stderr, "%d checks failed\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
