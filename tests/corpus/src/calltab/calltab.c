/* A tree of operations evaluated through a table of handlers, with a
 * one-line helper `run` that calls a node's handler or passes the value
 * through at a missing child: `return o ? ops[o->k](o, x) : x;`. gcc
 * inlines run into every handler and schedules handler code between the
 * copy's instructions, so the way past the call leaves each copy for the
 * handler's code at once. No call is in tail position: an indirect tail
 * call (`jr` after the epilogue) makes create_gcov and our afdo disagree
 * on the callee's head count (tests/afdo's text check). */
#include <stdio.h>

enum kind { K_LEAF, K_ADD, K_NEG, K_SEQ, K_TWICE, K_PICK, K_N };

struct op { int k; long v; const struct op *a, *b; };

typedef long (*handler)(const struct op *, long);
static handler ops[K_N];
static long visits;

static long run(const struct op *o, long x) { return o ? ops[o->k](o, x) : x; }

static long op_leaf(const struct op *o, long x) { visits++; return x * 3 + o->v; }
static long op_add(const struct op *o, long x) { long l = run(o->a, x); return l + run(o->b, x + 1); }
static long op_neg(const struct op *o, long x) { return -run(o->a, x) + o->v; }

static long op_seq(const struct op *o, long x)
{
	long first = run(o->a, x);
	visits += first & 1;
	long second = run(o->b, first ^ o->v);
	visits += second & 1;
	return second;
}

static long op_twice(const struct op *o, long x)
{
	long y = run(o->a, x);
	long z = run(o->a, y + o->v);
	visits += z & 1;
	return z;
}

static long op_pick(const struct op *o, long x)
{
	long r = (x ^ o->v) & 1 ? run(o->a, x >> 1) : run(o->b, x + 7);
	visits += r & 1;
	return r;
}

#define NODES 64
static struct op pool[NODES];

/* Builds a fixed tree: node i's children are later nodes or missing. */
static const struct op *build(void)
{
	unsigned s = 77u;
	for (int i = NODES - 1; i >= 0; i--) {
		s = s * 1664525u + 1013904223u;
		struct op *o = &pool[i];
		int left = NODES - 1 - i;
		o->v = (long)(s >> 20) % 13 - 6;
		o->k = left < 2 ? K_LEAF : (int)((s >> 8) % K_N);
		o->a = left >= 1 && (s >> 3) % 5 ? &pool[i + 1 + (s >> 11) % (unsigned)left] : NULL;
		o->b = left >= 1 && (s >> 5) % 4 ? &pool[i + 1 + (s >> 14) % (unsigned)left] : NULL;
	}
	return &pool[0];
}

int main(void)
{
	ops[K_LEAF] = op_leaf;
	ops[K_ADD] = op_add;
	ops[K_NEG] = op_neg;
	ops[K_SEQ] = op_seq;
	ops[K_TWICE] = op_twice;
	ops[K_PICK] = op_pick;
	const struct op *root = build(), *roots[NODES / 3 + 1];
	for (int i = 0; i < NODES; i += 3)
		roots[i / 3] = i % 5 == 2 ? NULL : root + i;
	long sum = 0;
	for (long x = 0; x < 200; x++)
		for (int i = 0; i < NODES; i += 3)
			sum += run(roots[i / 3], x) % 1000003;
	printf("sum=%ld visits=%ld\n", sum, visits);
	return 0;
}
