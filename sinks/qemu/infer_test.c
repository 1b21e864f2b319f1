/* Tests of the executed-pc -> ingress record inference (infer.c): every
 * classification rule, the time model, periodic marks and the held-back
 * branch before an interrupt, interrupts right after an xRET or jalr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"
#include "ltpipe/insn.h"

static int failures;

/* The static program the tests "execute". */
static const struct lt_qinsn prog[] = {
	{ 0x100, 0, 1, 4, LT_INSN_OTHER },
	{ 0x104, 0x110, 2, 4, LT_INSN_BRANCH },
	{ 0x108, 0, 3, 4, LT_INSN_OTHER },
	{ 0x10c, 0x120, 4, 4, LT_INSN_JUMP },
	{ 0x110, 0, 5, 2, LT_INSN_IJUMP },
	{ 0x120, 0, 6, 4, LT_INSN_TRAP },
	{ 0x124, 0, 7, 4, LT_INSN_OTHER },
	{ 0x200, 0, 8, 4, LT_INSN_OTHER },
	{ 0x204, 0, 9, 4, LT_INSN_OTHER },
	{ 0x300, 0, 10, 4, LT_INSN_TRAP },
	{ 0x304, 0, 11, 4, LT_INSN_OTHER },
	{ 0x400, 0, 12, 4, LT_INSN_OTHER },       /* trap handler */
	{ 0x404, 0, 13, 4, LT_INSN_TRET },
	{ 0x408, 0, 14, 4, LT_INSN_TRAP },
	{ 0x40c, 0, 15, 4, LT_INSN_TRET },
	{ 0x500, 0x520, 16, 4, LT_INSN_BRANCH },
	{ 0x504, 0, 17, 4, LT_INSN_OTHER },
	{ 0x520, 0, 18, 4, LT_INSN_OTHER },
	{ 0x600, 0, 19, 4, LT_INSN_OTHER },       /* nested handler */
	{ 0x604, 0, 20, 4, LT_INSN_TRET },
	{ 0x700, 0x740, 21, 4, LT_INSN_JUMP },
	{ 0x740, 0, 22, 4, LT_INSN_OTHER },
	{ 0x800, 0x804, 23, 4, LT_INSN_BRANCH },  /* target == fallthrough */
	{ 0x804, 0, 24, 2, LT_INSN_INVALID },
	{ 0x806, 0, 25, 2, LT_INSN_OTHER },
};

static const struct lt_qinsn *at(uint64_t addr)
{
	for (size_t i = 0; i < sizeof(prog) / sizeof(prog[0]); i++)
		if (prog[i].addr == addr)
			return &prog[i];
	fprintf(stderr, "no insn at %#llx\n", (unsigned long long)addr);
	exit(2);
}

/* Captured records. */
struct capture {
	struct lt_ingress rec[64]; /* records in order */
	int periodic[64];          /* their periodic flags */
	size_t n;                  /* number captured */
};

static int cap_push(void *user, const struct lt_ingress *rec, int periodic)
{
	struct capture *c = user;

	if (c->n < 64) {
		c->rec[c->n] = *rec;
		c->periodic[c->n] = periodic;
	}
	c->n++;
	return 0;
}

/* One expected record: address, itype, time, periodic flag. */
struct want {
	uint64_t addr;
	int type;
	uint64_t time;
	int periodic;
};

/* Executes `pcs` (0-terminated), finishes, and compares every record. */
static void run(const char *name, const struct lt_infer_config *cfg,
                const uint64_t *pcs, const struct want *w, size_t nw)
{
	struct lt_infer inf;
	struct capture c = { .n = 0 };

	lt_infer_init(&inf, cfg, cap_push, &c);
	for (size_t i = 0; pcs[i]; i++)
		lt_infer_exec(&inf, at(pcs[i]));
	lt_infer_finish(&inf);
	lt_infer_fini(&inf);
	if (c.n != nw) {
		failures++;
		fprintf(stderr, "FAIL %s: %zu records, want %zu\n", name, c.n, nw);
	}
	for (size_t i = 0; i < nw && i < c.n; i++) {
		const struct lt_ingress *r = &c.rec[i];
		if (r->iaddr != w[i].addr || r->itype != w[i].type ||
		    r->time != w[i].time || c.periodic[i] != w[i].periodic ||
		    r->priv != cfg->priv || r->ctx != cfg->ctx) {
			failures++;
			fprintf(stderr, "FAIL %s: record %zu = %#llx type %d "
			        "t %llu p %d; want %#llx type %d t %llu p %d\n",
			        name, i, (unsigned long long)r->iaddr, r->itype,
			        (unsigned long long)r->time, c.periodic[i],
			        (unsigned long long)w[i].addr, w[i].type,
			        (unsigned long long)w[i].time, w[i].periodic);
		}
	}
}

#define N(a) (sizeof(a) / sizeof(a[0]))

static void test_user_mode(void)
{
	struct lt_infer_config cfg = { .time0 = 10, .taken_cycles = 2,
	                               .priv = 0, .ctx = 3 };
	static const uint64_t pcs[] = { 0x100, 0x104, 0x110, 0x104, 0x108,
	                                0x10c, 0x120, 0x124, 0 };
	static const struct want w[] = {
		{ 0x100, LT_IT_NOTHING, 10, 0 },
		{ 0x104, LT_IT_BRANCH_TAKEN, 11, 0 },
		{ 0x110, LT_IT_UNINF_JUMP, 14, 0 },
		{ 0x104, LT_IT_BRANCH_NOT_TAKEN, 17, 0 },
		{ 0x108, LT_IT_NOTHING, 18, 0 },
		{ 0x10c, LT_IT_INF_JUMP, 19, 0 },
		{ 0x120, LT_IT_NOTHING, 22, 0 },  /* ecall emulated inline */
		{ 0x124, LT_IT_NOTHING, 23, 0 },
	};
	run("user mode", &cfg, pcs, w, N(w));
}

static void test_stall_periodic(void)
{
	struct lt_infer_config cfg = { .stall_every = 3, .stall_cycles = 100,
	                               .periodic = 3, .priv = 3 };
	/* 0x806 -> 0x800 is an interrupt (epc 0x808, handler 0x800). */
	static const uint64_t pcs[] = { 0x800, 0x804, 0x806, 0x800,
	                                0x804, 0x806, 0x800, 0x804, 0 };
	static const struct want w[] = {
		{ 0x800, LT_IT_BRANCH_TAKEN, 0, 0 },
		{ 0x804, LT_IT_NOTHING, 1, 0 },      /* invalid, sequential */
		{ 0x806, LT_IT_NOTHING, 2, 0 },
		{ 0x808, LT_IT_INTERRUPT, 103, 0 },  /* stall after 3 insns */
		{ 0x800, LT_IT_BRANCH_TAKEN, 103, 1 }, /* 4th insn: periodic */
		{ 0x804, LT_IT_NOTHING, 104, 0 },
		{ 0x806, LT_IT_NOTHING, 105, 0 },
		{ 0x808, LT_IT_INTERRUPT, 206, 0 },
		{ 0x800, LT_IT_BRANCH_TAKEN, 206, 1 },
		{ 0x804, LT_IT_NOTHING, 207, 0 },
	};
	run("stall + periodic", &cfg, pcs, w, N(w));
}

static void test_traps(void)
{
	struct lt_infer_config cfg = { .priv = 3 };
	/* Interrupt after an ordinary insn: epc = its successor. */
	static const uint64_t p1[] = { 0x200, 0x400, 0x404, 0x204, 0 };
	static const struct want w1[] = {
		{ 0x200, LT_IT_NOTHING, 0, 0 },
		{ 0x204, LT_IT_INTERRUPT, 1, 0 },
		{ 0x400, LT_IT_NOTHING, 1, 0 },
		{ 0x404, LT_IT_RETURN, 2, 0 },
		{ 0x204, LT_IT_NOTHING, 3, 0 },
	};
	run("interrupt after other", &cfg, p1, w1, N(w1));

	/* ecall to a handler and back (mepc advanced by the handler). */
	static const uint64_t p2[] = { 0x300, 0x400, 0x404, 0x304, 0 };
	static const struct want w2[] = {
		{ 0x300, LT_IT_EXCEPTION, 0, 0 },
		{ 0x400, LT_IT_NOTHING, 1, 0 },
		{ 0x404, LT_IT_RETURN, 2, 0 },
		{ 0x304, LT_IT_NOTHING, 3, 0 },
	};
	run("ecall", &cfg, p2, w2, N(w2));

	/* An invalid insn followed by a non-sequential pc traps. */
	static const uint64_t p2b[] = { 0x800, 0x804, 0x400, 0 };
	static const struct want w2b[] = {
		{ 0x800, LT_IT_BRANCH_TAKEN, 0, 0 },
		{ 0x804, LT_IT_EXCEPTION, 1, 0 },
		{ 0x400, LT_IT_NOTHING, 2, 0 },
	};
	run("illegal insn", &cfg, p2b, w2b, N(w2b));

	/* Interrupt after a direct jump: epc = its target. */
	static const uint64_t p3[] = { 0x700, 0x400, 0x404, 0x740, 0 };
	static const struct want w3[] = {
		{ 0x700, LT_IT_INF_JUMP, 0, 0 },
		{ 0x740, LT_IT_INTERRUPT, 1, 0 },
		{ 0x400, LT_IT_NOTHING, 1, 0 },
		{ 0x404, LT_IT_RETURN, 2, 0 },
		{ 0x740, LT_IT_NOTHING, 3, 0 },
	};
	run("interrupt after jal", &cfg, p3, w3, N(w3));
}

static void test_held_branch(void)
{
	struct lt_infer_config cfg = { .priv = 3 };
	/* The handler's mret returns to the branch target: taken. */
	static const uint64_t p1[] = { 0x500, 0x400, 0x404, 0x520, 0 };
	static const struct want w1[] = {
		{ 0x500, LT_IT_BRANCH_TAKEN, 0, 0 },
		{ 0x520, LT_IT_INTERRUPT, 1, 0 },
		{ 0x400, LT_IT_NOTHING, 1, 0 },
		{ 0x404, LT_IT_RETURN, 2, 0 },
		{ 0x520, LT_IT_NOTHING, 3, 0 },
	};
	run("held branch taken", &cfg, p1, w1, N(w1));

	/* Nested exception inside the handler; the outer mret returns to the
	 * fallthrough: not taken. */
	static const uint64_t p2[] = { 0x500, 0x408, 0x600, 0x604, 0x40c,
	                               0x504, 0 };
	static const struct want w2[] = {
		{ 0x500, LT_IT_BRANCH_NOT_TAKEN, 0, 0 },
		{ 0x504, LT_IT_INTERRUPT, 1, 0 },
		{ 0x408, LT_IT_EXCEPTION, 1, 0 },
		{ 0x600, LT_IT_NOTHING, 2, 0 },
		{ 0x604, LT_IT_RETURN, 3, 0 },
		{ 0x40c, LT_IT_RETURN, 4, 0 },
		{ 0x504, LT_IT_NOTHING, 5, 0 },
	};
	run("held branch nested", &cfg, p2, w2, N(w2));

	/* Never returns: resolved not taken at the end. */
	static const uint64_t p3[] = { 0x500, 0x408, 0x600, 0 };
	static const struct want w3[] = {
		{ 0x500, LT_IT_BRANCH_NOT_TAKEN, 0, 0 },
		{ 0x504, LT_IT_INTERRUPT, 1, 0 },
		{ 0x408, LT_IT_EXCEPTION, 1, 0 },
		{ 0x600, LT_IT_NOTHING, 2, 0 },
	};
	run("held branch unresolved", &cfg, p3, w3, N(w3));

	/* Nothing leaves the inference while the branch is held. */
	struct lt_infer inf;
	struct capture c = { .n = 0 };
	lt_infer_init(&inf, &cfg, cap_push, &c);
	static const uint64_t p4[] = { 0x500, 0x408, 0x600, 0x604, 0x40c, 0 };
	for (size_t i = 0; p4[i]; i++)
		lt_infer_exec(&inf, at(p4[i]));
	if (c.n != 0) {
		failures++;
		fprintf(stderr, "FAIL hold blocks: %zu records\n", c.n);
	}
	lt_infer_exec(&inf, at(0x520));  /* classifies 0x40c: the outer mret */
	if (c.n != 6 || c.rec[0].itype != LT_IT_BRANCH_TAKEN ||
	    c.rec[1].iaddr != 0x520 || c.rec[5].iaddr != 0x40c) {
		failures++;
		fprintf(stderr, "FAIL hold release: %zu records\n", c.n);
	}
	lt_infer_fini(&inf);

	/* A hold with no xRET in sight is given up after LT_INFER_MAX_HELD
	 * records (each 0x100 -> 0x100 makes two: NOTHING + INTERRUPT). */
	struct capture c2 = { .n = 0 };
	lt_infer_init(&inf, &cfg, cap_push, &c2);
	lt_infer_exec(&inf, at(0x500));
	lt_infer_exec(&inf, at(0x408));
	lt_infer_exec(&inf, at(0x600));
	/* queued: 0x500, its INTERRUPT, 0x408's EXCEPTION, then two per
	 * 0x100: 2k + 3 after k execs of 0x100 */
	for (unsigned i = 0; i < LT_INFER_MAX_HELD / 2 - 2; i++)
		lt_infer_exec(&inf, at(0x100));
	if (c2.n != 0) {
		failures++;
		fprintf(stderr, "FAIL cap early: %zu records\n", c2.n);
	}
	lt_infer_exec(&inf, at(0x100));
	if (c2.n != LT_INFER_MAX_HELD + 1 ||
	    c2.rec[0].itype != LT_IT_BRANCH_NOT_TAKEN ||
	    c2.rec[1].iaddr != 0x504 || c2.rec[1].itype != LT_IT_INTERRUPT) {
		failures++;
		fprintf(stderr, "FAIL cap: %zu records\n", c2.n);
	}
	lt_infer_fini(&inf);
}

static void test_back_to_back(void)
{
	struct lt_infer_config cfg = { .priv = 3 };
	/* An interrupt pending when the mret re-enables interrupts: the
	 * handler (0x400, a vector seen before) runs again before the epc. */
	static const uint64_t p1[] = { 0x200, 0x400, 0x404, 0x400, 0x404,
	                               0x204, 0 };
	static const struct want w1[] = {
		{ 0x200, LT_IT_NOTHING, 0, 0 },
		{ 0x204, LT_IT_INTERRUPT, 1, 0 },
		{ 0x400, LT_IT_NOTHING, 1, 0 },
		{ 0x404, LT_IT_RETURN, 2, 0 },
		{ 0x204, LT_IT_INTERRUPT, 3, 0 },
		{ 0x400, LT_IT_NOTHING, 3, 0 },
		{ 0x404, LT_IT_RETURN, 4, 0 },
		{ 0x204, LT_IT_NOTHING, 5, 0 },
	};
	run("back to back after mret", &cfg, p1, w1, N(w1));

	/* The same after a held branch: both wait for the second mret. */
	static const uint64_t p2[] = { 0x500, 0x400, 0x404, 0x400, 0x404,
	                               0x520, 0 };
	static const struct want w2[] = {
		{ 0x500, LT_IT_BRANCH_TAKEN, 0, 0 },
		{ 0x520, LT_IT_INTERRUPT, 1, 0 },
		{ 0x400, LT_IT_NOTHING, 1, 0 },
		{ 0x404, LT_IT_RETURN, 2, 0 },
		{ 0x520, LT_IT_INTERRUPT, 3, 0 },
		{ 0x400, LT_IT_NOTHING, 3, 0 },
		{ 0x404, LT_IT_RETURN, 4, 0 },
		{ 0x520, LT_IT_NOTHING, 5, 0 },
	};
	run("back to back after held branch", &cfg, p2, w2, N(w2));

	/* An interrupt right after a jalr (vector known from an ecall). */
	static const uint64_t p3[] = { 0x300, 0x400, 0x404, 0x110, 0x400,
	                               0x404, 0x120, 0 };
	static const struct want w3[] = {
		{ 0x300, LT_IT_EXCEPTION, 0, 0 },
		{ 0x400, LT_IT_NOTHING, 1, 0 },
		{ 0x404, LT_IT_RETURN, 2, 0 },
		{ 0x110, LT_IT_UNINF_JUMP, 3, 0 },
		{ 0x120, LT_IT_INTERRUPT, 4, 0 },
		{ 0x400, LT_IT_NOTHING, 4, 0 },
		{ 0x404, LT_IT_RETURN, 5, 0 },
		{ 0x120, LT_IT_NOTHING, 6, 0 },
	};
	run("interrupt after jalr", &cfg, p3, w3, N(w3));

	/* Its handler never returns: the jalr is reported as going to the
	 * handler, with no interrupt (the pc sequence stays right). */
	static const uint64_t p4[] = { 0x300, 0x400, 0x404, 0x110, 0x400, 0 };
	static const struct want w4[] = {
		{ 0x300, LT_IT_EXCEPTION, 0, 0 },
		{ 0x400, LT_IT_NOTHING, 1, 0 },
		{ 0x404, LT_IT_RETURN, 2, 0 },
		{ 0x110, LT_IT_UNINF_JUMP, 3, 0 },
		{ 0x400, LT_IT_NOTHING, 4, 0 },
		{ 0x400, LT_IT_NOTHING, 4, 0 },
	};
	run("interrupt after jalr unresolved", &cfg, p4, w4, N(w4));
}

int main(void)
{
	test_user_mode();
	test_stall_periodic();
	test_traps();
	test_held_branch();
	test_back_to_back();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("infer: all tests passed\n");
	return 0;
}
