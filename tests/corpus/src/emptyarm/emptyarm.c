/* `b = h2(c ? x0 : 13u);` in a loop's switch, h2 a one-line helper
 * inlined late (its lines are not in the gcno): the `x0` arm is an empty
 * gcno block (a PHI argument's arc), the constant's arc goes straight to
 * the join. The way that loads 13 starts without a line-table row of its
 * own, reading as the loop test laid out before it. Searching four blocks
 * deep for that line, the empty block counted as one, so only the
 * constant's arc reached the loop test's block and the branch matched the
 * wrong way round (gcda_pin.c: gm_dest_has_line). Minimised from
 * tests/gcda/hunt/progen.py seed 622 (-O2); the dead store after the
 * loop's last `continue` keeps -O0 from deleting that test (deadtest). */
#include <stdio.h>

struct pair { unsigned a, b; };

static unsigned g_arr[16];
static struct pair g_s[4];
static unsigned g_cnt;
static unsigned long long g_rs = 275046507154822295ull;

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 65536u;
}

static __attribute__((noinline)) unsigned h0(unsigned x)
{
	if (((x >> 5) & 1u))
		return (x - g_arr[x & 15u]);
	return x;
}

static unsigned h1(unsigned x)
{
	if ((x & 31u) < 22u)
		return (x ^ x);
	return 0u;
}

static unsigned h2(unsigned x) { return ((x >> 0) & 1u) ? (g_s[x & 3u].b - g_arr[x & 15u]) : x; }

static __attribute__((noinline)) unsigned f0(unsigned a, unsigned b)
{
	unsigned x0 = a;
	unsigned x1 = b;
	unsigned x2 = a ^ b;
	unsigned x3 = b >> 3;
	a |= x3 & g_arr[x0 & 15u];
	g_arr[x0 & 15u] += (x1 >> ((x2 & g_cnt) & 7u));
	{
		unsigned i1 = 0;
		while (i1 < 8u) {
			i1++;
			switch ((g_arr[b & 15u] ^ x0) % 4u) {
			case 0u:
				g_s[x3 & 3u].b ^= ((g_arr[x2 & 15u] >> (g_s[x3 & 3u].b & 7u)) & (g_cnt * a));
				b = h2((g_s[i1 & 3u].b > 3u ? x0 : 13u));
				break;
			case 1u:
				x3 -= a % ((a + i1) | 1u);
				g_arr[b & 15u] = (x3 - h0(g_s[x2 & 3u].b));
				break;
			case 2u:
				if (b % 10u < 2u || x3 != (a + x1))
					continue;
				a = h1((x0 >> (g_s[x1 & 3u].b & 7u)));
				__attribute__((fallthrough));
			case 3u:
				if (g_arr[x2 & 15u] > a)
					break;
				a -= ((a ^ b) ^ (10u % (100u | 1u)));
				break;
			default:
				if ((g_arr[i1 & 15u] > x3 || a != (b % (g_arr[b & 15u] | 1u))) && (b + x1) > 3u)
					goto out;
				break;
			}
			if (x2 % 10u == 0u || x3 < (x2 + i1))
				continue;
			unsigned dead = x3;
			(void)dead;
		}
	}
out:
	return x0 ^ x1 ^ x2 ^ x3;
}
int main(void)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < 16u; i++)
		g_arr[i] = rnd();
	for (unsigned it = 0; it < 300u; it++) {
		unsigned a = rnd(), b = rnd();
		g_s[it & 3u].b = rnd();
		sum = sum * 31u + f0(a, b);
		g_cnt += sum & 3u;
	}
	printf("%u %u\n", sum, g_cnt);
	return 0;
}
