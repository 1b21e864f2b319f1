/* hoistand: tests/gcda/hunt/progen.py seed 112 with f0, f1, f3 and f4
 * reduced to one line and `x3 += i1;` ending f2's `for (i1...)` body (a
 * test ending a loop body is deleted at -O0, see deadtest); nothing else
 * changed. In f2, `while (i2 < 3u && (b & 1u) == 0u)`: gcc tests the
 * invariant `b & 1u` once above the loop (its ways: the exit, and on into
 * the body through the countdown's setup on the loop's line) and counts
 * i2 down at the loop's bottom (its ways: the body, and the exit). By
 * their lines the first reads as the test of `i2 < 3u` and the second as
 * that of `(b & 1u) == 0u`, swapping the two exits' counts; the second's
 * branches run more often than the first's sent executions its way,
 * which no correct match allows (gcda_chainsum.c). Hand-written loops of
 * the same shape did not keep that layout. */
#include <stdio.h>

struct pair { unsigned a, b; };

static unsigned g_arr[16];
static struct pair g_s[4];
static unsigned g_cnt;
static unsigned long long g_rs = 3841381570077457084ull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 1000u;
}

static unsigned h0(unsigned x)
{
	if (x % 3u > 1u)
		return g_arr[x & 15u];
	if (x % 10u == 2u)
		x = (5u + x);
	return x;
}

static unsigned h1(unsigned x)
{
	if ((x & 1u) == 1u)
		return (x & g_s[x & 3u].b);
	if (x % 5u != 2u)
		x = (x + 3u);
	return ((g_cnt >> (x & 7u)) + (g_arr[x & 15u] * g_arr[x & 15u]));
}

static __attribute__((noinline)) unsigned h2(unsigned x)
{
	if (x <= 16u)
		return x;
	if (((x >> 6) & 1u))
		x = (x & 255u);
	return ((2u % (x | 1u)) + (g_arr[x & 15u] >> (g_s[x & 3u].b & 7u)));
}

static unsigned h3(unsigned x) { return 0u > 5u ? (x + g_arr[x & 15u]) : (x > 7u ? x : x); }

static unsigned f0(unsigned a, unsigned b)
{
	return a ^ (b >> 1);
}

static unsigned f1(unsigned a, unsigned b)
{
	return a ^ (b >> 1);
}

static unsigned f2(unsigned a, unsigned b)
{
	unsigned x0 = a;
	unsigned x1 = b;
	unsigned x2 = a ^ b;
	unsigned x3 = a + 3u;
	if ((x3 % 10u > 0u || x0 > 4u) && g_arr[a & 15u] > a) {
		x2 += 1u;
		x2 += h2(x2);
	} else {
		switch ((x3 & 255u)) {
		case 5u:
			x0 += ((a & 31u) < 25u && g_arr[x1 & 15u] > x0 ? (x3 + 1u) : (x1 ^ g_arr[x1 & 15u]));
			break;
		case 17u:
			a ^= a;
			x1 ^= (h0(g_arr[b & 15u]) + h3(g_s[x1 & 3u].b));
			break;
		case 250u:
			if ((x3 + x1) > 5u)
				goto out;
			g_arr[x1 & 15u] = g_cnt;
			break;
		default:
			x1 ^= (5u | h0(x1));
			g_s[a & 3u].a += (2u >> ((g_s[x0 & 3u].a % (b | 1u)) & 7u));
			break;
		}
	}
	switch ((b ^ 5u) % 4u) {
	case 0u:
		g_s[x1 & 3u].b = h1(((b & 63u) < 22u ? g_arr[x1 & 15u] : g_s[a & 3u].a));
		if (g_arr[b & 15u] > x3 && x0 % 7u == 0u) {
			x1 |= x1;
			if (b > 3u)
				return b;
		} else if ((x3 & 63u) < 5u && x0 > (g_arr[x2 & 15u] % (0u | 1u))) {
			b = (g_arr[a & 15u] > x0 && (x2 & 3u) == 0u ? (13u * 1u) : ((a & 7u) == 1u ? g_arr[x3 & 15u] : x0));
		} else if (!(x0 % 3u != 2u || x3 == (g_arr[x3 & 15u] + x0))) {
			g_arr[a & 15u] |= (x0 < (g_arr[x2 & 15u] ^ x1) && a < 17u ? g_arr[b & 15u] : (100u % (x2 | 1u)));
		} else {
			x2 -= (x0 ^ x1);
			b = (a % 3u == 1u ? (x2 % (x3 | 1u)) : h0(10u));
		}
		__attribute__((fallthrough));
	case 1u:
		for (unsigned i1 = 0; i1 < 7u; i1++) {
			if (x2 % 7u > 2u)
				continue;
			if (x2 > g_arr[b & 15u])
				continue;
			x3 += i1;
		}
		g_s[x3 & 3u].b += h2(h3(g_arr[b & 15u]));
		break;
	case 2u:
		if (((((a >> 2) & 1u) || 2u > 7u) && x0 == g_arr[b & 15u] ? 1u : g_arr[b & 15u]) > 5u)
			goto out;
		if ((b & 3u) == 1u && (g_s[x2 & 3u].a - g_arr[x2 & 15u]) > 3u) {
			x2 += f1(g_arr[a & 15u], (g_arr[x0 & 15u] & x0));
		} else if (!(x1 % 3u < 1u)) {
			x3 += f0((!((x2 & 63u) < 16u) ? 0u : x2), (x3 + 2u));
		} else {
			x3 -= x3;
		}
		break;
	default:
		x3 = h3((2u + a));
		break;
	}
	{
		unsigned i2 = 0;
		while (i2 < 3u && (b & 1u) == 0u) {
			i2++;
			if (g_arr[x1 & 15u] > x1)
				goto out;
			g_arr[x0 & 15u] |= (x0 - x1);
		}
	}
	if (!(x0 == (x2 + g_cnt))) {
		x0 += 10u;
		if (g_arr[x0 & 15u] > b) {
			if (!(((x2 >> 5) & 1u) || x1 > 8u))
				return (b >> (3u & 7u));
			b = h2(g_cnt);
			if (b % 5u > 1u || x2 < (100u | x0))
				return h3(g_cnt);
		}
		if (((x0 >> 5) & 1u)) {
			x1 += f1((x1 % 7u == 1u && ((x3 >> 3) & 1u) ? x2 : b), (g_s[x1 & 3u].b + a));
			x3 ^= x1;
		}
	}
out:
	return x0 ^ x1 ^ x2 ^ x3;
}

static __attribute__((noinline)) unsigned f3(unsigned a, unsigned b)
{
	return a ^ (b >> 1);
}

int main(void)
{
	unsigned sum[4] = { 0 };

	for (unsigned i = 0; i < 16u; i++)
		g_arr[i] = rnd();
	for (unsigned it = 0; it < 28u; it++) {
		unsigned a = rnd(), b = rnd();

		sum[0] = sum[0] * 31u + f0(a, b);
		sum[1] = sum[1] * 31u + f1(a, b);
		sum[2] = sum[2] * 31u + f2(a, b);
		g_cnt += a & 1u;
		sum[3] = sum[3] * 31u + f3(a, b);
		g_cnt += a & 1u;
		g_cnt += h0(a ^ it);
		g_cnt += h1(a ^ it);
		g_cnt += h2(a ^ it);
		g_cnt += h3(a ^ it);
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
