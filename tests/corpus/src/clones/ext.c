/* Second unit of the clones corpus program: the header chain inlined into other
 * functions, a function taking a mode only one caller varies. */
#include "chain.h"

/* Mixes a and b through the always_inline chain. */
int ext_mix(int a, int b)
{
	int r = ch1(a & 63);
	if (b & 2)
		r += ch2(b & 31);
	return r;
}

/* Walks v in one of three modes (called with constant modes from the other unit). */
int ext_walk(const int *v, int n, int mode)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (mode == 0)
			s += v[i];
		else if (mode == 1)
			s ^= v[i] << (i & 3);
		else
			s += ch5(v[i] & 255);
	}
	return s;
}
