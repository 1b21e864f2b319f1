/* `while (i < (b & 7u) && x % 3u != 1u)` on one line, rotated: gcc copies
 * both tests ahead of the loop for its entry. The entry copy of the second
 * test exits past the first test of the loop after it (`j < (n & 7u)`,
 * which the entry path knows true from the first test: n is b there), so
 * it lands in the middle of that loop's code, a line of neither of the
 * test's gcno destinations, and matches nothing. In progen.py seed 800
 * (-O2) its other way's lines matched the first test's destination only,
 * so only the first test's pins were softened, and the second test's pin
 * (the bottom copy's exits alone) was claimed: 8 against the twin's 32.
 * An unmatched copy of one condition of a chain written on one line may
 * be any of the chain's (gcda_pin.c). Here the entry copy's other way
 * runs code of the loop body's lines, which softens the second test
 * already: the program keeps the shape (and its counts) under test; the
 * seed is the regression test of the claim. */
#include <stdio.h>

static unsigned tab[16];
static unsigned cnt;
static unsigned long long seed = 0x6a09e667f3bcc909ull;

static unsigned next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed >> 20) % 1000u;
}

static unsigned low(unsigned x)
{
	if ((x & 15u) < 23u)
		return x > 6u ? x : 2u;
	return x + cnt + 5u;
}

static unsigned fixed(unsigned x)
{
	if (x < 18u)
		return 113u;
	return cnt;
}

static unsigned mixin(unsigned x)
{
	if (!((x & 15u) < 13u))
		return cnt * x;
	return (x + tab[x & 3u]) | 2u;
}

static __attribute__((noinline)) unsigned drain(unsigned a, unsigned b)
{
	unsigned x0 = a, n = b, x2 = b >> 2, x = a ^ b;
	unsigned i = 0;
	while (i < (b & 7u) && x % 3u != 1u) {
		i++;
		b = low(a | tab[x & 3u]);
		switch ((tab[a & 15u] + cnt) % 4u) {
		case 0u:
			x ^= b + tab[n & 3u];
			n = 10u;
			__attribute__((fallthrough));
		case 1u:
			x = fixed(105u);
			break;
		case 2u:
			x0 |= mixin(tab[x0 & 15u]);
			if ((n & 31u) < 29u || x2 <= tab[b & 15u] * i) {
				if (tab[x & 15u] > a && x0 < tab[x2 & 15u])
					return cnt - x;
				tab[b & 15u] |= a;
			}
			break;
		case 3u:
			b = (x0 & 3u) == 1u ? cnt : b;
			tab[x2 & 15u] += (b & 63u) < 27u ? x0 : 2u ^ x2;
			break;
		}
	}
	b -= b + cnt;
	for (unsigned j = 0; j < (n & 7u); j++) {
		for (unsigned k = 0; k < (j & 3u); k++) {
			if ((x0 & tab[x2 & 15u]) <= 4u)
				break;
			x0 = mixin(x0 * n + 13u);
		}
	}
	n = a >> (tab[n & 15u] & 7u);
	return x0 ^ n ^ x2 ^ x;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 16u; i++)
		tab[i] = next();
	for (unsigned it = 0; it < 99u; it++) {
		unsigned a = next(), b = next();
		sum = sum * 31u + drain(a, b);
		cnt += a & 1u;
		cnt += low(a ^ it) + fixed(a ^ it) + mixin(a ^ it);
	}
	printf("sum=%u\n", sum);
	return 0;
}
