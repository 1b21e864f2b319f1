/* stubshare: at -O0 one goto stub (the `nop` of an edge's goto location,
 * then a jump) serves several gcno blocks: the ways of an `if` and of a
 * `while`'s two tests that go to the label `out:` right after them are
 * empty blocks, each listing the label's line, whose edges gcc forwarded
 * into one stub laid out before the label's code (a `break` and a
 * `goto out` in the loop get stubs of their own). A transfer landing on
 * a stub goes where its jump goes; the nop's line and the way it came
 * by tell the blocks apart. Every counter is exact at -O0 (from
 * progen.py seed 36). */
#include <stdio.h>

static unsigned g[16];
static unsigned long sink;

__attribute__((noinline)) static unsigned h(unsigned v)
{
	sink += v;
	return v * 7u + 1u;
}

__attribute__((noinline)) static unsigned walk(unsigned a, unsigned b)
{
	unsigned x0 = a, x1 = b, x2 = b & 31u, x3 = a ^ b;
	x1 = g[x2 & 15u] | h(x3);
	if ((x0 & 1u) == 1u) {
		{
			unsigned i = 0;
			while (i < (x0 & 7u) && x2 == 18u) {
				i++;
				if (x3 % 10u != 0u)
					break;
				if (!((x2 >> 6) & 1u))
					goto out;
			}
		}
	}
out:
	return x0 ^ x1 ^ x2 ^ x3;
}

int main(void)
{
	unsigned r = 0;
	for (unsigned i = 0; i < 90; i++) {
		g[i & 15u] = i * 3u + 2u;
		r += walk(i * 5u + 1u, i);
		r += walk(i | 1u, 18u + 32u * (i & 1u));
		r += walk(i * 10u + 1u, (i & 2u) ? 18u : 50u);
	}
	printf("%u %lu\n", r, sink);
	return 0;
}
