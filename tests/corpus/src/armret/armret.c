/* A generated program (rgen.py seed 629, its f2 alone): `x = (q ^ y) ==
 * 2u ? (a[i0 & 31] + 3u) : (a[i0 & 31] ^ y); return x ^ y;` at -O2. The
 * first arm's value was computed before (no gcno block of its own), the
 * return folds the second arm away (v ^ y ^ y is v, already in the
 * return register): that arm's way runs straight into the shared
 * epilogue and return, the other way holds the return's own code. The
 * bare return may be either arm (no claim from it). */
#include <stdio.h>
static unsigned long sink;
static unsigned g[8];
__attribute__((noinline)) static unsigned h(unsigned v)
{
	sink += v;
	return v & 7u;
}
__attribute__((noinline)) static unsigned f2(const unsigned *a, unsigned n, unsigned p, unsigned q)
{
	unsigned x = p, y = q, i0 = 0;
	(void)a;
	(void)n;
	(void)i0;
	if ((y ^ y) < (a[i0 & 31] + 3u)) {
		if ((a[i0 & 31] >> 1) == 3u)
			return (a[i0 & 31] & 15u);
		switch ((p ^ y) % 7u) {
		case 0:
			{
			unsigned i1 = 0;
			while (i1 < n && a[i1 & 31] != 15u) {
				i1++;
				y += h((q + 3u));
				sink += (y);
			}
			sink += i1;
			}
			{
			unsigned i1 = 0;
			while (i1 < n && a[i1 & 31] != 5u) {
				i1++;
				y += h((p ^ y));
			}
			sink += i1;
			}
			break;
		case 1:
			x = (a[i0 & 31] + 3u) < (q & 15u) ? (a[(x + y) & 31] % 13u) : (a[i0 & 31]);
			break;
		case 2:
			{
			unsigned i1 = 0;
			while (i1 < n && a[i1 & 31] != 1u) {
				i1++;
				x = (y ^ y);
				sink += (p ^ y);
			}
			sink += i1;
			}
			if ((p >> 1) < (y % 13u)) {
				sink += (x >> 1);
				y += h((y & 15u));
			}
			__attribute__((fallthrough));
		case 3:
			x = (p + 3u) < (g[1] >> 1) ? (a[i0 & 31]) : (g[1] & 15u);
			x = (a[i0 & 31] >> 1);
			break;
		case 4:
			if ((p ^ y) != 3u) {
				x = (g[1] ^ y);
				sink += (a[i0 & 31] >> 1);
			}
			sink += (y);
			y += h((p + 3u));
			return (x * 7u);
		case 5:
			x = (x * 7u);
			if ((a[(x + y) & 31] + 3u) < (g[1] & 15u)) {
				y += h((g[1] % 13u));
				x = (q * 7u);
			}
			switch ((q) % 3u) {
			case 0:
				x = (y >> 1);
				g[4]++;
				break;
			case 1:
				x = (q);
				break;
			default:
				x = (q + 3u);
				g[4]++;
				break;
			}
			break;
		default:
			if (((p & 15u) & 7u) == 0) {
				g[7]++;
				sink += (y);
			} else {
				x = (x >> 1);
				g[1]++;
			}
			if (((a[(x + y) & 31] + 3u) & 4u) == 0)
				return (a[(x + y) & 31] ^ y);
			break;
		}
		if (((g[1]) < (g[1] * 7u)) && (((a[i0 & 31] + 3u) < (x ^ y)) || ((q) != 10u))) {
			for (unsigned i1 = 0; i1 < n; i1++) {
				sink += (g[1] & 15u);
			}
			if ((g[1] >> 1) < 2u) {
				y += h((y ^ y));
			} else {
				x = (x);
			}
			x = (q ^ y) == 2u ? (a[i0 & 31] + 3u) : (a[i0 & 31] ^ y);
		} else {
			if (((a[(x + y) & 31] & 15u) & 4u) == 0)
				return (p >> 1);
		}
	}
	return x ^ y;
}
int main(void)
{
	unsigned a[32];
	unsigned s = 12345u, t = 0;
	for (int r = 0; r < 60; r++) {
		for (int i = 0; i < 32; i++) {
			s = s * 1103515245u + 12345u;
			a[i] = (s >> 16) % 23u;
		}
		t += f2(a, (unsigned)(r % 11) + 1u, a[3] + (unsigned)r, a[5]);
	}
	printf("%u %lu %u %u\n", t, sink, g[0], g[7]);
	return 0;
}
