/* Two helpers calling each other: gcc -O2's early inliner copies hop_b
 * into hop_a (hop_a's recursion becomes a loop), not hop_a into hop_b,
 * whose call stays (hop_b keeps no gcno function). Both are copied early
 * into main, on lines of their own: main's gcno lists hop_a's lines (its
 * early copy, hop_b's inside), and hop_b's copy keeps its call of hop_a,
 * a block ending in a call on hop_b's line, which the IPA inliner inlines
 * late: a call of hop_a for the gcno, its runs hop_a's counters', its
 * branches no tests of main's (gcda_early.c: nested_call_kept). */
#include <stdio.h>

static unsigned hop_b(unsigned n);

static unsigned hop_a(unsigned n)
{
	return n < 2 ? n + 5 : hop_b(n - 2);
}

static unsigned hop_b(unsigned n)
{
	return n == 0 ? 9 : hop_a(n - 1);
}

int main(void)
{
	unsigned t = 0;

	for (unsigned i = 0; i < 50; i++) {
		t = t * 3 + hop_a(i * 5 + 1);
		t ^= hop_b(i * 2) << 1;
	}
	printf("%u\n", t);
	return 0;
}
