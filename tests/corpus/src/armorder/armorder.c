/* armorder: two-way conditions whose arms have the same shape (each a
 * tail call, a return of a value, a call then the join), run a different
 * number of times each way, so that gcc's block reordering (the likely
 * arm falls through, whatever the source order) shows in the counts:
 * tail calls, early returns of constants, `__builtin_expect` both ways,
 * calls on both arms before a join, a three-way switch of tail calls,
 * arms inside a loop, and a pointer test before a load. */
#include <stdio.h>

static unsigned seed = 99u;
static long sink;

static unsigned rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

__attribute__((noinline)) static int inc(int x)
{
	sink += x;
	return x + 1;
}

__attribute__((noinline)) static int dec(int x)
{
	sink -= x;
	return x - 1;
}

__attribute__((noinline)) static int twice(int x)
{
	sink ^= x;
	return x * 2;
}

/* Tail calls on both arms, the first arm the rare one. */
__attribute__((noinline)) static int pick_tail(int x)
{
	if (x % 7 == 0)
		return inc(x);
	return dec(x);
}

/* The same, else-arm rare. */
__attribute__((noinline)) static int pick_tail2(int x)
{
	if (x % 7 != 0)
		return twice(x + 1);
	else
		return inc(x - 1);
}

/* Constants returned from both arms. */
__attribute__((noinline)) static int sign_of(int x)
{
	if (x < 10)
		return -3;
	return 5;
}

/* Calls on both arms, then a join. */
__attribute__((noinline)) static int join_calls(int x)
{
	int y;
	if (x & 3)
		y = inc(x);
	else
		y = dec(x);
	return y + x;
}

/* Expectation against the truth. */
__attribute__((noinline)) static int expect_wrong(int x)
{
	if (__builtin_expect(x > 2, 0))
		return twice(x);
	return inc(x);
}

__attribute__((noinline)) static int three(int x)
{
	switch (x % 3) {
	case 0:
		return inc(x);
	case 1:
		return dec(x);
	default:
		return twice(x);
	}
}

/* Arms in a loop body. */
__attribute__((noinline)) static int bits_walk(unsigned x)
{
	int t = 0;
	while (x) {
		if (x & 1)
			t = inc(t);
		else
			t = twice(t) & 0xffff;
		x >>= 1;
	}
	return t;
}

static inline int sq(int v)
{
	return v * v + 1;
}

/* Both arms call one function inlined early (its lines in both arms'
 * blocks), then tail-call. */
__attribute__((noinline)) static int arms_inl(int x)
{
	if (x % 3 == 0)
		return inc(sq(x));
	return dec(sq(x + 1));
}

/* Both arms call the inlined function, then a call, then the join. */
__attribute__((noinline)) static int arms_join(int x)
{
	int y;
	if (x % 3 == 0)
		y = inc(sq(x));
	else
		y = dec(sq(x + 1));
	return y * 2;
}

/* The same with the rare arm second. */
__attribute__((noinline)) static int arms_join2(int x)
{
	int y;
	if (x % 3 != 0)
		y = twice(sq(x) + 2);
	else
		y = inc(sq(x - 1) + 3);
	return y - x;
}

/* A whole if/else on one line, then more code. */
__attribute__((noinline)) static int one_line(int x)
{
	int t;
	if (x % 5 == 0) t = inc(x); else t = dec(x);
	return t * 2;
}

/* `?:` with calls for arms. */
__attribute__((noinline)) static int cond_calls(int x)
{
	return x % 4 ? twice(x) : inc(x);
}

/* Rare arm first, each arm stores and returns. */
__attribute__((noinline)) static int store_arms(int x)
{
	if (x > 80) {
		sink += 3;
		return 1;
	}
	sink -= 1;
	return 0;
}

struct item {
	int v;              /* value */
	struct item *next;  /* next or NULL */
};

/* A pointer test before a load, on both arms. */
__attribute__((noinline)) static int value_or(const struct item *p, int d)
{
	if (!p)
		return d;
	return p->v + (p->next ? p->next->v : d);
}

int main(void)
{
	static struct item items[8];
	for (int i = 0; i < 8; i++) {
		items[i].v = i * 3;
		items[i].next = i & 1 ? &items[i - 1] : NULL;
	}
	long acc = 0;
	for (int k = 0; k < 90; k++) {
		int x = (int)(rnd() % 100);
		acc += pick_tail(x) + pick_tail2(x) + sign_of(x);
		acc += join_calls(x) + expect_wrong(x % 5) + three(x);
		acc += value_or(x % 3 ? &items[x % 8] : NULL, x);
		acc += arms_inl(x) + one_line(x) + cond_calls(x);
		acc += store_arms(x) + arms_join(x) + arms_join2(x);
	}
	for (unsigned u = 1; u < 40; u += 3)
		acc += bits_walk(u * 37);
	printf("acc %ld sink %ld\n", acc, sink);
	return 0;
}
