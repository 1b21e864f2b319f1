#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static unsigned long sink;
static unsigned g[8];
__attribute__((unused)) static jmp_buf jb;
__attribute__((noinline)) static unsigned h(unsigned v)
{
	sink += v;
	return v & 7u;
}
__attribute__((noinline)) static unsigned k0(unsigned v) { return v + 1u; }
__attribute__((noinline)) static unsigned k1(unsigned v) { return v * 3u; }
__attribute__((noinline)) static unsigned k2(unsigned v) { return v >> 1; }
__attribute__((noinline)) static unsigned k3(unsigned v)
{
	if (v & 1u)
		return v ^ 5u;
	return v | 2u;
}
__attribute__((unused)) static unsigned (*const ktab[4])(unsigned) = { k0, k1, k2, k3 };
__attribute__((unused)) static unsigned (*kvar)(unsigned) = k0;
__attribute__((unused)) static const char *const strs[4] = { "", "ab", "hello", "xyz12" };
__attribute__((unused)) static int cmpu(const void *l, const void *r)
{
	unsigned u = *(const unsigned *)l, v = *(const unsigned *)r;
	return (u > v) - (u < v);
}
__attribute__((noinline, unused)) static unsigned rec(unsigned n, unsigned v)
{
	if (n == 0u)
		return v;
	if (v & 1u)
		return rec(n - 1u, v * 3u + 1u);
	return rec(n - 1u, v >> 1) + 1u;
}
__attribute__((noinline, unused)) static void jumper(unsigned v)
{
	if ((v & 7u) == 3u)
		longjmp(jb, (int)(v & 255u) + 1);
	sink += v;
}
__attribute__((noinline, unused)) static unsigned sj(unsigned v)
{
	int r = setjmp(jb);
	if (r == 0) {
		jumper(v);
		jumper(v >> 1);
		return 0u;
	}
	return (unsigned)r;
}
static unsigned m0(const unsigned *a, unsigned n, unsigned p, unsigned q)
{
	unsigned x = p, y = q, i0 = 0;
	unsigned tmp[32];
	(void)a;
	(void)n;
	(void)i0;
	(void)tmp;
	y += rec((a[(x + y) & 31] ^ y) % 6u, x);
	x = (a[i0 & 31] + 3u) < (a[i0 & 31]) ? (x + 3u) : (g[1] >> 1) == 13u ? (y % 13u) : ((a[(x + y) & 31] + 3u) & 4u) == 0 ? (a[(x + y) & 31] >> 1) : (p % 13u);
	return x ^ y;
}
static unsigned o0(const unsigned *a, unsigned n, unsigned p, unsigned q)
{
	unsigned x = p, y = q, i0 = 0;
	unsigned tmp[32];
	(void)a;
	(void)n;
	(void)i0;
	(void)tmp;
	for (unsigned i1 = 0; i1 < n; i1++) {
		x = ktab[(y >> 1) & 3u](x);
		x = (y ^ y);
	}
	if ((x) < (p & 15u))
		return (x >> 1);
	{
	unsigned i1 = 0;
	while (i1 < n && (a[i1 & 31] != 12u || ((a[(x + y) & 31] & 15u) < 13u))) {
		i1++;
		if (((a[(x + y) & 31] >> 1) < (y ^ y)) || ((((a[i0 & 31] + 3u) & 4u) == 0) || ((((x % 13u) & 1u) == 0) && ((((a[i0 & 31] + 3u) & 7u) == 0) && (((a[i0 & 31] + 3u) & 7u) == 0))))) {
			y += h((q));
			switch ((g[1] & 15u) % 7u) {
			case 0:
				sink += (y >> 1);
				return (g[1] * 7u);
			case 1:
				sink += (q * 7u);
				break;
			case 2:
			default:
				g[4]++;
				__attribute__((fallthrough));
			case 3:
				x = m0(a, n, (q * 7u), (p >> 1));
				__attribute__((fallthrough));
			case 4:
				x = ((a[(x + y) & 31] ^ y) < (q)) || ((g[1] + 3u) < 7u) ? (g[1] % 13u) : (q + 3u) < 8u ? (a[(x + y) & 31] + 3u) : (q + 3u);
				__attribute__((fallthrough));
			case 5:
				sink += (x % 13u);
				break;
			}
		}
		for (unsigned i2 = 0; i2 < x % 9u; i2++) {
			x = m0(a, n, (g[1] % 13u), (p % 13u));
			{
			unsigned i3 = 5u;
			do {
				kvar = ktab[(g[1] % 13u) & 3u];
				y += kvar(y);
			} while (--i3 && ((((x & 15u) & 1u) == 0) || (((y & 15u) & 2u) == 0)));
			}
		}
	}
	sink += i1;
	}
	return x ^ y;
}
__attribute__((noinline)) static unsigned f0(const unsigned *a, unsigned n, unsigned p, unsigned q)
{
	unsigned x = p, y = q, i0 = 0;
	unsigned tmp[32];
	(void)a;
	(void)n;
	(void)i0;
	(void)tmp;
	x ^= o0(a, n, (p + 3u), (q >> 1));
	if ((a[i0 & 31] + 3u) != 8u) {
		if (((q * 7u) < (q & 15u)) || ((a[(x + y) & 31] + 3u) <= 6u))
			return (a[i0 & 31] & 15u);
	}
	y += sj((y * 7u));
	return x ^ y;
}
__attribute__((noinline)) static unsigned f1(const unsigned *a, unsigned n, unsigned p, unsigned q)
{
	unsigned x = p, y = q, i0 = 0;
	unsigned tmp[32];
	(void)a;
	(void)n;
	(void)i0;
	(void)tmp;
	kvar = ktab[(g[1] % 13u) & 3u];
	y += kvar(y);
	x = (a[(x + y) & 31] * 7u) < 9u ? (x & 15u) : ((g[1] ^ y) & 4u) == 0 ? (x & 15u) : (x ^ y) < (q + 3u) ? (x >> 1) : (a[i0 & 31] & 15u);
	x = (y ^ y);
	return x ^ y;
}
__attribute__((noinline)) static unsigned f2(const unsigned *a, unsigned n, unsigned p, unsigned q)
{
	unsigned x = p, y = q, i0 = 0;
	unsigned tmp[32];
	(void)a;
	(void)n;
	(void)i0;
	(void)tmp;
	x = ((y & 15u) <= 4u) && ((x + 3u) > 13u) ? (p & 15u) : (a[i0 & 31] >> 1) < (x ^ y) ? (a[(x + y) & 31] * 7u) : (q * 7u) != 10u ? (g[1] & 15u) : (y & 15u);
	return x ^ y;
}
__attribute__((noinline)) static unsigned f3(const unsigned *a, unsigned n, unsigned p, unsigned q)
{
	unsigned x = p, y = q, i0 = 0;
	unsigned tmp[32];
	(void)a;
	(void)n;
	(void)i0;
	(void)tmp;
	if ((a[(x + y) & 31] & 15u) < (x * 7u)) {
		sink += (g[1] * 7u);
		x = ((x % 13u) & 7u) == 0 ? (x ^ y) : (p + 3u) < (a[(x + y) & 31] + 3u) ? (a[(x + y) & 31]) : (g[1] % 13u) < (p & 15u) ? (x >> 1) : (q);
	} else {
		x = ((q) < (a[i0 & 31] >> 1)) || ((q) < (q * 7u)) ? (p & 15u) : (g[1] & 15u);
		x = (x);
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
		t += f0(a, (unsigned)(r % 11) + 1u, a[3] + (unsigned)r, a[5]);
		t += f1(a, (unsigned)(r % 11) + 1u, a[3] + (unsigned)r, a[5]);
		t += f2(a, (unsigned)(r % 11) + 1u, a[3] + (unsigned)r, a[5]);
		t += f3(a, (unsigned)(r % 11) + 1u, a[3] + (unsigned)r, a[5]);
		t += m0(a, 3u, t, (unsigned)r);
	}
	printf("%u %lu %u %u\n", t, sink, g[0], g[7]);
	return 0;
}

