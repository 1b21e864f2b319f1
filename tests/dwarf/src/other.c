/* Second translation unit of the DWARF test program: more inlining of the
 * shared header, and a function whose code gcc may split (hot/cold). */
#include "helpers.h"

static inline int weight(int v)
{
	return clamp(v, 0, 255) + (int)(mix2((unsigned)v, 3u) & 15);
}

__attribute__((cold, noinline)) static int rare(int v)
{
	return v * 3 - 1;
}

int other_sum(const int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (__builtin_expect(v[i] == 12345, 0))
			s += rare(v[i]);
		else
			s += weight(v[i]);
	}
	return s;
}

volatile int other_sink;

/* Never returns: its callers' paths to it are cold. */
__attribute__((cold, noinline, noreturn)) static void stop(int v)
{
	other_sink = v;
	for (;;)
		;
}

/* At -O2 gcc moves the cold path (with inlined code) to checked.cold in
 * .text.unlikely, so this function has two address ranges. */
int checked(int v)
{
	if (__builtin_expect(v < 0, 0)) {
		other_sink = weight(v) + weight(v + 1);
		stop(v);
	}
	return weight(v) * 2;
}
