/* foldinl: tests/gcda/hunt/progen.py seed 12, unchanged but for this
 * comment. At -O2, h0 (inlined early into f3, f3 inlined into main) has
 * `if ((x & 7u) == 0u) x = 10u; return (x + 13u);`: gcc loads 23 before
 * the test, whose taken way (the arm, folded away) jumps straight back
 * into main while its other way runs the return's line. Both ways look
 * like the way into the return, so the test's arcs must not be claimed
 * (gcda_pin.c: dest_exits; it claimed the arm's arc with all 79
 * executions of the test, the twin's being 0). Smaller programs of the
 * same shape did not keep the layout. */
#include <stdio.h>

struct pair { unsigned a, b; };

static unsigned g_arr[16];
static struct pair g_s[4];
static unsigned g_cnt;
static unsigned long long g_rs = 1240520259454990047ull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

static unsigned h0(unsigned x)
{
	if (g_arr[x & 15u] > 1u)
		return g_arr[x & 15u];
	if ((x & 7u) == 0u)
		x = 10u;
	return (x + 13u);
}

static unsigned h1(unsigned x)
{
	if (g_arr[x & 15u] > x)
		return ((x & 63u) < 16u ? x : 255u);
	return x;
}

static unsigned f0(unsigned a, unsigned b)
{
	unsigned x0 = a;
	unsigned x1 = b;
	unsigned x2 = a + 2u;
	unsigned x3 = b >> 3;
	for (unsigned i1 = 0; i1 < (x1 & 3u); i1++) {
		{
			unsigned i2 = 0;
			while (i2 < 2u) {
				i2++;
				g_arr[x0 & 15u] = h1((1u ^ x1));
				x3 ^= h1((((i1 >> 2) & 1u) ? g_cnt : b));
				x1 = g_s[x0 & 3u].b;
			}
		}
		if (b % 3u < 1u && x0 > (5u >> (i1 & 7u)) && ((x3 >> 0) & 1u)) {
			x2 = h0((g_s[x3 & 3u].a | 100u));
		}
	}
	if ((x0 ^ x0) > 2u) {
		{
			unsigned i3 = 0;
			while (i3 < (x3 & 15u)) {
				i3++;
				if (a < x2)
					continue;
				if (g_arr[b & 15u] > i3 || (a & 1u) == 0u)
					continue;
			}
		}
	} else if (!(((x1 >> 0) & 1u) || x0 % 3u < 2u)) {
		x0 |= g_cnt;
	} else if (((x2 & 15u) < 13u && x0 % 7u > 1u) || g_arr[x1 & 15u] > x3) {
		if ((a & 7u) == 0u && ((b >> 2) & 1u)) {
			x1 |= ((x3 + b) - (g_cnt * b));
		}
		if (((g_cnt % (g_arr[x2 & 15u] | 1u)) > 5u && (x1 & 3u) == 0u) || x2 < (g_cnt + x0)) {
			b += h0(x0);
			b -= (((x0 & 31u) < 20u || g_arr[x2 & 15u] > b ? x2 : a) | ((x3 & 15u) < 23u ? 13u : x2));
		}
	} else if (a % 7u < 2u && b > (a + x2)) {
		{
			unsigned i4 = 0;
			do {
				i4++;
				b ^= (g_cnt + (3u >> (b & 7u)));
				if (i4 % 5u != 1u || (a & 63u) < 28u)
					break;
			} while (i4 < (x3 & 7u));
		}
		b += (h1(g_cnt) | (x3 + g_s[a & 3u].a));
	} else {
		a = g_s[x2 & 3u].b;
		b |= a;
	}
	switch (g_arr[x1 & 15u]) {
	case 1u:
		if (h1(a) > 3u)
			return (g_s[x2 & 3u].b % (g_s[x1 & 3u].b | 1u));
		g_s[x2 & 3u].a ^= (g_cnt & (a - x3));
		break;
	case 100u:
		switch (g_s[x0 & 3u].a) {
		case 5u:
			if ((3u ^ x1) > 3u)
				return b;
			x0 += x0;
			break;
		case 40u:
			if (((x1 >> 2) & 1u) && h0(b) > 6u)
				goto out;
			break;
		case 99u:
			x2 -= x0;
			break;
		case 250u:
			if (((x2 >> 4) & 1u))
				return (x2 & g_cnt);
			break;
		}
		break;
	case 4096u:
		{
			unsigned i5 = 0;
			do {
				i5++;
				x2 -= (i5 * ((b & 15u) < 6u || x1 % 7u != 1u ? x0 : 1u));
				if ((i5 >> (x2 & 7u)) > 6u)
					break;
			} while (i5 < (a & 7u) && (b & 1u) == 0u);
		}
		break;
	}
out:
	return x0 ^ x1 ^ x2 ^ x3;
}

static __attribute__((noinline)) unsigned f1(unsigned a, unsigned b)
{
	unsigned x0 = a;
	unsigned x1 = b;
	unsigned x2 = a ^ b;
	unsigned x3 = a + 3u;
	x3 += f0((((x2 >> 4) & 1u) || (a & 1u) == 0u ? x1 : 3u), (g_arr[x0 & 15u] & g_cnt));
	if (x3 <= h0(x2) && g_arr[x1 & 15u] > b && (x2 & 63u) < 11u) {
		if (h1(x3) > 5u || g_arr[a & 15u] > x2)
			return (g_arr[x1 & 15u] + x1);
		for (unsigned i1 = 0; i1 < 5u; i1++) {
			if ((x2 & 7u) == 0u) {
				g_arr[x1 & 15u] += (1u - i1);
			}
		}
		for (unsigned i2 = 0; i2 < (x2 & 3u); i2++) {
			x3 |= (1u - 3u);
		}
	}
	return x0 ^ x1 ^ x2 ^ x3;
}

static unsigned f2(unsigned a, unsigned b)
{
	unsigned x0 = a;
	unsigned x1 = b;
	unsigned x2 = a + 2u;
	unsigned x3 = a ^ b;
	x0 = h0(x0);
	a += g_arr[x2 & 15u];
	switch (h0(g_arr[a & 15u])) {
	case 17u:
		g_s[x0 & 3u].a += (g_cnt * g_cnt);
		break;
	case 40u:
		if ((x0 | x3) > 3u || (b & 7u) == 1u) {
			b -= ((g_s[x0 & 3u].b * 0u) % ((x1 % (g_s[x0 & 3u].a | 1u)) | 1u));
		} else {
			b ^= (h0(b) % ((g_s[x0 & 3u].b + 1u) | 1u));
			b = h1((g_s[x3 & 3u].a | a));
			x3 = h0(x1);
		}
		x3 -= ((g_arr[x0 & 15u] > x0 ? b : g_cnt) + (g_cnt >> (g_s[x3 & 3u].a & 7u)));
		break;
	case 1000u:
		a -= h1((g_arr[x0 & 15u] + g_cnt));
		break;
	case 4096u:
		{
			unsigned i1 = 0;
			do {
				i1++;
				b += f0((7u >> (x0 & 7u)), ((x0 & 7u) == 1u ? g_cnt : x0));
			} while (i1 < 2u && g_arr[x0 & 15u] > b);
		}
		if (a != (x3 > 4u && g_arr[x0 & 15u] > x0 ? 3u : x0))
			goto out;
		break;
	case 65535u:
		x3 = h0((a * x3));
		b += f0(x0, x0);
		break;
	default:
		g_s[x1 & 3u].a = (h1(100u) >> (x0 & 7u));
		for (unsigned i2 = 0; i2 < 1u; i2++) {
			if ((i2 & 31u) < 21u)
				goto out;
			x2 ^= ((g_s[a & 3u].b ^ x3) + (g_cnt ^ g_s[x1 & 3u].a));
			x0 -= i2;
		}
		break;
	}
	b |= ((10u | x0) | ((x1 & 7u) == 0u ? a : g_s[x2 & 3u].b));
out:
	return x0 ^ x1 ^ x2 ^ x3;
}

static unsigned f3(unsigned a, unsigned b)
{
	unsigned x0 = a;
	unsigned x1 = b;
	unsigned x2 = 2u;
	unsigned x3 = 3u;
	x0 += (h1(g_arr[x3 & 15u]) % ((x3 ^ a) | 1u));
	switch (255u) {
	case 1u:
		if (b % 10u == 2u) {
			if (((x0 >> 3) & 1u) && g_arr[x1 & 15u] > x2)
				goto out;
			if (g_arr[x3 & 15u] > b)
				return (!(b < 10u) ? g_cnt : b);
			x0 += f2((13u + g_s[b & 3u].a), (g_arr[x2 & 15u] >> (10u & 7u)));
		}
		break;
	case 17u:
		x2 = h0((b >> (x3 & 7u)));
		break;
	case 40u:
		if (x3 == (b > 4u ? b : b)) {
			x0 ^= (g_arr[x0 & 15u] + (x0 * g_cnt));
			a -= (x3 & (x3 ^ a));
		} else if ((x3 & 15u) < 5u) {
			g_s[x1 & 3u].a = h1((3u + g_cnt));
		}
		b = h1(b);
		break;
	case 100u:
		if ((b & 31u) < 12u)
			return (255u ^ 255u);
		break;
	default:
		x3 = h0((x2 + g_arr[x2 & 15u]));
		if (!(x2 % 3u > 0u))
			return (5u ^ b);
		break;
	}
out:
	return x0 ^ x1 ^ x2 ^ x3;
}

int main(void)
{
	unsigned sum[4] = { 0 };

	for (unsigned i = 0; i < 16u; i++)
		g_arr[i] = rnd();
	for (unsigned it = 0; it < 80u; it++) {
		unsigned a = rnd(), b = rnd();

		sum[0] = sum[0] * 31u + f0(a, b);
		g_cnt += a & 1u;
		sum[1] = sum[1] * 31u + f1(a, b);
		if ((b & 7u) < 3u) sum[2] = sum[2] * 31u + f2(a, b);
		g_cnt += a & 1u;
		sum[3] = sum[3] * 31u + f3(a, b);
		g_cnt += h0(a ^ it);
		g_cnt += h1(a ^ it);
	}
	for (unsigned j = 0; j < 4u; j++)
		printf("%u %u\n", j, sum[j]);
	for (unsigned i = 0; i < 16u; i++)
		printf("%u\n", g_arr[i]);
	for (unsigned i = 0; i < 4u; i++)
		printf("%u %u\n", g_s[i].a, g_s[i].b);
	printf("%u\n", g_cnt);
	return 0;
}
