/* DWARF test program: loops (discriminators), a switch, static inline
 * functions from a header and from this file inlined at -O2, a lexical
 * block holding an inlined call, and a second translation unit (other.c). */
#include "helpers.h"

extern int other_sum(const int *v, int n);
extern int checked(int v);
extern volatile int sink;

volatile int sink;
static int table[64];

static inline int twice(int x)
{
	return clamp(x * 2, -1000, 1000);
}

static inline int nested(int a, int b)
{
	int t = twice(a);
	for (int i = 0; i < b; i++)
		t += (int)mix2((unsigned)t, (unsigned)i);
	return t;
}

__attribute__((noinline)) int classify(int x)
{
	switch (x & 7) {
	case 0: return 10;
	case 1: return twice(x);
	case 2: return nested(x, 3);
	case 3: return -x;
	case 5: return (int)mix((unsigned)x);
	default: return x + 1;
	}
}

__attribute__((noinline)) int loops(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) for (int j = 0; j < i; j++) s += i ^ j;
	for (int i = 0; i < n; i++) {
		if (i & 1) s -= i; else s += twice(i);
	}
	return s;
}

int main(void)
{
	for (int i = 0; i < 64; i++)
		table[i] = classify(i) + loops(i & 15);
	{
		int local = nested(table[3], table[5] & 7);
		sink = local;
	}
	sink += other_sum(table, 64) + checked(sink);
	return 0;
}
