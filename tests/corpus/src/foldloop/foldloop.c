/* foldloop: two functions with one body (gcc -O2's identical code folding
 * keeps one copy), each with a loop, called from different lines a
 * different number of times. The folded code runs both functions' loops;
 * each function's share of its trips follows its share of the calls. */
#include <stdio.h>

static __attribute__((noinline)) unsigned digits_a(const char *s)
{
	unsigned v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (unsigned)(*s++ - '0');
	return v;
}

static __attribute__((noinline)) unsigned digits_b(const char *s)
{
	unsigned v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (unsigned)(*s++ - '0');
	return v;
}

int main(void)
{
	static char buf[64][16];
	unsigned a = 0, b = 0;

	/* Lengths follow k / 4, so every fourth entry (digits_b's) sees
	 * the same lengths, on average, as all of them (digits_a's). */
	for (int k = 0; k < 64; k++) {
		int n = 1 + (k / 4) % 8;
		for (int i = 0; i < n; i++)
			buf[k][i] = (char)('0' + (k + i) % 10);
		buf[k][n] = ',';
	}
	for (int r = 0; r < 5; r++)
		for (int k = 0; k < 64; k++) {
			a += digits_a(buf[k]);
			if (k % 4 == 0)
				b ^= digits_b(buf[k]);
		}
	printf("a=%u b=%u\n", a, b);
	return 0;
}
