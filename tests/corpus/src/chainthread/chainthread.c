/* `if (n >= 3 && t[0] == VAR && t[1] == SET) i = 2;` before `for (; t[i]
 * != END; i++)`: where the chain's last test fails, t[0] is VAR, not END,
 * so jump threading sends that way past the loop's first test, one
 * instruction after where the chain's earlier tests leave. */
#include <stdio.h>

enum { END, NUM, VAR, SET, OP };

__attribute__((noinline)) static long eval(const unsigned char *t, int n)
{
	int i = 0;
	long acc = 0;
	const unsigned char *name = NULL;
	if (n >= 3 && t[0] == VAR && t[1] == SET) { name = t + 2; i = 2; }
	for (; t[i] != END; i++)
		acc = acc * 3 + t[i];
	return name ? acc * 7 + *name : acc;
}

int main(void)
{
	unsigned char t[12];
	unsigned x = 3;
	long s = 0;
	for (int r = 0; r < 200; r++) {
		x = x * 1103515245u + 12345u;
		int n = 2 + (int)((x >> 16) % 9);
		unsigned k = (x >> 8) % 8;
		for (int j = 0; j < n; j++)
			t[j] = (unsigned char)(1 + (x >> (j + 3)) % 4);
		/* VAR SET ... in 3 of 8, VAR then no SET in 2 of 8 */
		t[0] = k < 5 ? VAR : NUM;
		if (n > 1)
			t[1] = k < 3 ? SET : OP;
		t[n] = END;
		s += eval(t, n);
	}
	printf("%ld\n", s);
	return 0;
}
