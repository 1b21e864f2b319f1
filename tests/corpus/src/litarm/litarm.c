/* litarm: `odd_fix(w > 1000u ? y : 21u)` in a loop, odd_fix's test
 * folded on the constant: gcc lays the `21u` way out after the loop's
 * return (`bgeu t6,a2,L; ... L: li a5,5; li a3,21`, falling into the
 * join the `y` way jumps to), the gcno's lineless arm block. The loaded
 * literal at the branch target tells that way (gcda_srcarms.c). */
#include <stdio.h>

static unsigned tab[8];
static unsigned long long st = 88172645463325252ull;

static unsigned next(void)
{
	st ^= st << 13;
	st ^= st >> 7;
	st ^= st << 17;
	return (unsigned)(st >> 20) & 1023u;
}

static unsigned odd_fix(unsigned x) { return (x & 1u) ? (tab[x & 7u] - x) : x; }

static __attribute__((noinline)) unsigned walk(unsigned y, unsigned k)
{
	unsigned acc = 0;

	for (unsigned i = 0; i < k; i++) {
		unsigned w = tab[(y + i) & 7u];

		if (w % 7u == 3u) {
			acc += odd_fix(w > 1000u ? y : 21u);
			continue;
		}
		acc ^= w + i;
		tab[i & 7u] = acc & 1023u;
	}
	return acc;
}

int main(void)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < 8u; i++)
		tab[i] = next();
	for (unsigned r = 0; r < 200u; r++)
		sum = sum * 7u + walk(next(), 12u + (r & 7u));
	printf("%u\n", sum);
	return 0;
}
