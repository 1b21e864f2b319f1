/* Many small functions over three units: called once, from loops, only through a
 * function-pointer table, recursive, never called, and a static `twist` in two units. */
#include <stdio.h>
#include "manyfn.h"

static long twist(long v) { return v ^ (v << 7) ^ 0x1234; }
static long called_once(void) { return 1000; }
static long from_loop(long a, int i) { return a * 7 + i; }
static int small_pred(long v) { return (v & 15) == 3; }
static long wrap(long v) { return v % 1000003; }
static long chain3(long v) { return wrap(from_loop(v, 3)); }
static long chain2(long v) { return chain3(v) + 1; }
static long chain1(long v) { return chain2(v) ^ 5; }
__attribute__((noinline)) static long leaf_noinline(long v) { return v * v % 7919; }
static long never_called(long v);
static long (*volatile maybe)(long) = 0;

static long never_called(long v)
{
	return v + 99;
}

int main(void)
{
	long acc = called_once(), t = 0;
	int i;

	for (i = 0; i < 400; i++) {
		acc = wrap(from_loop(acc, i));
		if (small_pred(acc))
			t += chain1(acc);
		acc += ops_run(i, acc) % 1000;
		acc = wrap(acc + leaf_noinline(acc));
		if (i % 10 == 0)
			t += rec_mix(i, acc) + ops_fold(acc, ops_count());
		t = wrap(t + twist(i) + rec_scale(i));
		if (maybe)
			t += maybe(i) + never_called(i);
	}
	printf("acc=%ld t=%ld\n", acc, t);
	return 0;
}
