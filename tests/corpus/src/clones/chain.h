/* always_inline helpers of the clones corpus program, a chain five deep: every
 * caller gets the whole chain inlined at every optimisation level (also -O0). */
#ifndef CORPUS_CHAIN_H
#define CORPUS_CHAIN_H

#define AI static inline __attribute__((always_inline))

/* Innermost: a branch on the low bit. */
AI int ch5(int x)
{
	if (x & 1)
		return x * 3 + 1;
	return x >> 1;
}

/* Calls ch5 in both arms of a test. */
AI int ch4(int x, int y)
{
	if (x > y)
		return ch5(x - y);
	return ch5(y - x) + 1;
}

/* A loop around ch4. */
AI int ch3(int x, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += ch4(x + i, n * 2);
	return s;
}

/* Early return, then ch3. */
AI int ch2(int x)
{
	if (x < 0)
		return -1;
	return ch3(x, (x & 3) + 1);
}

/* Entry of the chain: two calls on one line. */
AI int ch1(int x) { return ch2(x) + ch2(x ^ 5); }

int ext_mix(int a, int b);
int ext_walk(const int *v, int n, int mode);

#endif
