/* A bytecode interpreter dispatching with GNU computed goto (&&label, goto *tbl[op]),
 * a sparse switch gcc turns into a decision tree, __builtin_expect, and hot, cold,
 * noinline and noclone functions. */
#include <stdio.h>
#include <string.h>

enum { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_JNZ, OP_DEC, OP_MOD,
       OP_XOR, OP_CALL, OP_RET, OP_POP, OP_HALT, OP_OVER, OP_ROT, NOPS };

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static long trapped;	/* stack faults seen by the interpreter */

/* Reports a stack fault; never runs in the programs below except once. */
__attribute__((cold, noinline)) static void fault(const char *what, int pc)
{
	trapped++;
	printf("fault %s at %d\n", what, pc);
}

/* Mixes a value into a hash: hot and kept out of line. */
__attribute__((hot, noinline, noclone)) static unsigned long mix(unsigned long h, long v)
{
	return (h ^ (unsigned long)v) * 0x100000001b3UL;
}

/* Runs `code` from pc 0 with the threaded dispatch; returns the top of stack or -1. */
static long run(const int *code, int limit, unsigned long *hash)
{
	static void *const tbl[NOPS] = {
		&&l_push, &&l_add, &&l_sub, &&l_mul, &&l_dup, &&l_swap, &&l_jnz,
		&&l_dec, &&l_mod, &&l_xor, &&l_call, &&l_ret, &&l_pop, &&l_halt, &&l_over, &&l_rot,
	};
	long st[64];
	int rs[16];
	int sp = 0, rp = 0, pc = 0, steps = 0;

#define NEXT do { if (unlikely(++steps > limit)) goto l_halt; goto *tbl[code[pc++]]; } while (0)
	NEXT;
l_push:	st[sp++] = code[pc++]; NEXT;
l_add:	sp--; st[sp - 1] += st[sp]; NEXT;
l_sub:	sp--; st[sp - 1] -= st[sp]; NEXT;
l_mul:	sp--; st[sp - 1] *= st[sp]; NEXT;
l_dup:	st[sp] = st[sp - 1]; sp++; NEXT;
l_swap:	{ long t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } NEXT;
l_jnz:	if (st[--sp]) pc = code[pc]; else pc++; NEXT;
l_dec:	st[sp - 1]--; *hash = mix(*hash, st[sp - 1]); NEXT;
l_mod:	sp--;
	if (unlikely(st[sp] == 0)) { fault("div0", pc); st[sp - 1] = 0; } else st[sp - 1] %= st[sp];
	NEXT;
l_xor:	sp--; st[sp - 1] ^= st[sp]; NEXT;
l_call:	rs[rp++] = pc + 1; pc = code[pc]; NEXT;
l_ret:	if (unlikely(rp == 0)) { fault("ret", pc); goto l_halt; } pc = rs[--rp]; NEXT;
l_pop:	sp--; NEXT;
l_over:	st[sp] = st[sp - 2]; sp++; NEXT;
l_rot:	{ long t = st[sp - 3]; st[sp - 3] = st[sp - 2]; st[sp - 2] = st[sp - 1]; st[sp - 1] = t; }
	NEXT;
l_halt:
#undef NEXT
	return sp > 0 ? st[sp - 1] : -1;
}

/* A sparse switch: values far apart, compiled as a comparison tree. */
__attribute__((noinline)) static int classify(long v)
{
	switch (v) {
	case 3: return 1;
	case 17: return 2;
	case 100: return 3;
	case 257: return 4;
	case 1000: return 5;
	case 4096: return 6;
	case 77777: return 7;
	case 1000000: return 8;
	case -5: return 9;
	default: return likely(v > 0) ? 0 : 10;
	}
}

/* Program: acc = 0; for n..1: acc = ((acc*3 + n) % 1000003) ^ 0x55, the step a subroutine. */
static const int prog1[] = {
	OP_PUSH, 0, OP_PUSH, 0,			/* 0: acc n (n patched) */
	OP_OVER, OP_PUSH, 3, OP_MUL,		/* 4: acc n acc*3 */
	OP_OVER, OP_ADD, OP_CALL, 24,		/* 8: acc n v */
	OP_ROT, OP_POP, OP_SWAP,		/* 12: v n */
	OP_DEC, OP_DUP, OP_JNZ, 4,		/* 15 */
	OP_POP, OP_HALT,			/* 19 */
	0, 0, 0,				/* 21..23 */
	OP_PUSH, 1000003, OP_MOD, OP_PUSH, 0x55, OP_XOR, OP_RET, /* 24: sub */
};

int main(void)
{
	int code[sizeof(prog1) / sizeof(prog1[0])];
	static const long probes[] = { 3, 4, 17, 100, 101, 257, 1000, 4096, 77777,
				       1000000, -5, -6, 0, 99999 };
	unsigned long hash = 14695981039346656037UL;
	long r, total = 0;
	int n, i, hist[11];

	memset(hist, 0, sizeof(hist));
	for (n = 10; n <= 600; n += 130) {
		memcpy(code, prog1, sizeof(prog1));
		code[3] = n;
		r = run(code, 1000000, &hash);
		total += r;
		printf("n=%d r=%ld\n", n, r);
	}
	for (i = 0; i < 3000; i++)
		hist[classify(probes[i % 14] + (i % 7 == 0 ? 0 : ((i / 14) & 1)))]++;
	for (i = 0; i < 11; i++)
		printf("%d%c", hist[i], i == 10 ? '\n' : ' ');
	/* A broken program: returns with an empty return stack. */
	code[0] = OP_PUSH; code[1] = 9; code[2] = OP_PUSH; code[3] = 0; code[4] = OP_MOD;
	code[5] = OP_RET;
	r = run(code, 100, &hash);
	printf("broken r=%ld trapped=%ld total=%ld hash=%lx\n", r, trapped, total, hash);
	return 0;
}
