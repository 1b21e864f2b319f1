/* Indirect calls: a table of operations, callbacks, and a function returning a function pointer. */
#include <stdio.h>

typedef long (*binop)(long, long);

static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return a * b; }
static long op_max(long a, long b) { return a > b ? a : b; }
static long op_min(long a, long b) { return a < b ? a : b; }
static long op_xor(long a, long b) { return a ^ b; }

struct opdesc {
	const char *name;	/* printed name */
	binop fn;		/* the operation */
};

static const struct opdesc ops[] = {
	{ "add", op_add }, { "sub", op_sub }, { "mul", op_mul },
	{ "max", op_max }, { "min", op_min }, { "xor", op_xor },
};

#define NOPS ((int)(sizeof(ops) / sizeof(ops[0])))

/* Folds fn over v[0, n) starting from init. */
static long fold(binop fn, const long *v, int n, long init)
{
	int i;

	for (i = 0; i < n; i++)
		init = fn(init, v[i]);
	return init;
}

/* Picks an operation by a computed index: the call site cannot know the target. */
static binop pick(unsigned int k)
{
	return ops[k % NOPS].fn;
}

/* Calls each visitor on each element; visitors are themselves indirect. */
static void visit(const long *v, int n, void (*cb)(long, void *), void *ctx)
{
	int i;

	for (i = 0; i < n; i++)
		cb(v[i], ctx);
}

static void count_odd(long x, void *ctx) { if (x & 1) ++*(int *)ctx; }
static void sum_sq(long x, void *ctx) { *(long *)ctx += x * x; }

int main(void)
{
	long v[64];
	long acc = 1;
	int odd = 0, i;
	long sq = 0;
	unsigned int k = 1;

	for (i = 0; i < 64; i++)
		v[i] = (i * 37 + 11) % 101 - 50;
	for (i = 0; i < NOPS; i++)
		printf("%s=%ld\n", ops[i].name, fold(ops[i].fn, v, 64, 0));
	for (i = 0; i < 20000; i++) {
		k = k * 1664525u + 1013904223u;
		acc = pick(k >> 24)(acc, (long)(k & 0xff)) & 0xffffffffL;
	}
	printf("acc=%ld\n", acc);
	visit(v, 64, count_odd, &odd);
	visit(v, 64, sum_sq, &sq);
	printf("odd=%d sumsq=%ld\n", odd, sq);
	return 0;
}
