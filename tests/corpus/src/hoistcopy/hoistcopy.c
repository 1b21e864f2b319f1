/* Copies of inlined helpers whose invariant parts gcc hoisted out of the
 * caller's loop (gcda_copyest.c: copy_entries). `v = pick(t > 5u ? k : 9u)`
 * in walk's loop: pick's `x & 1u` of the invariant k is computed (and
 * spilled) once before the loop, plain code of the copy on no cycle; its
 * arrivals are no calls of pick. `g_tab[i] = rnd()` in main's loop: rnd's
 * `% 65536u` mask (`lui; addi`) is built before the loop, falling into the
 * copy's code the loop's back edge arrives at, each arrival a call. */
#include <stdio.h>

static unsigned long g_rs = 88172645463325252ul;
static unsigned g_tab[64];
static unsigned g_side[8];

static unsigned rnd(void)
{
	g_rs ^= g_rs << 13;
	g_rs ^= g_rs >> 7;
	g_rs ^= g_rs << 17;
	return (unsigned)(g_rs >> 11) % 65536u;
}

static unsigned pick(unsigned x) { return (x & 1u) ? (g_side[x & 7u] - g_tab[x & 63u]) : x; }

static __attribute__((noinline)) unsigned walk(unsigned k, unsigned n)
{
	unsigned v = n, s = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned t = g_tab[(v + i) & 63u];
		switch (t % 3u) {
		case 0u:
			g_side[i & 7u] ^= t >> (k & 7u);
			v = pick(g_side[t & 7u] > 5u ? k : 9u);
			break;
		case 1u:
			v += t * 3u;
			break;
		default:
			s ^= v + t;
			break;
		}
		s += v;
	}
	return s;
}

int main(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < 64u; i++)
		g_tab[i] = rnd();
	for (unsigned it = 0; it < 200u; it++) {
		unsigned k = rnd();
		sum = sum * 33u + walk(k, 4u + (it & 7u));
	}
	printf("%u\n", sum);
	return 0;
}
