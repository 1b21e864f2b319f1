/* nopcase: switch cases whose statements compile to nothing even at
 * -O0 (`x = x;`) and fall into the next case: the compare for the empty
 * case and the next case's fallthrough land on the same instruction. */
#include <stdio.h>

static unsigned g[4];
static unsigned long sink;

__attribute__((noinline)) static unsigned h(unsigned v)
{
	sink += v;
	return v * 5u + 3u;
}

__attribute__((noinline)) static unsigned pick(unsigned x, unsigned y, unsigned q)
{
	switch ((y >> 1) % 3u) {
	case 0:
		x = (x);
		__attribute__((fallthrough));
	case 1:
		y += h((g[1] % 13u));
		__attribute__((fallthrough));
	default:
		sink += (q ^ y);
		break;
	}
	if ((g[1] & 15u) < x)
		sink += x % 13u;
	return x + y;
}

/* The same with the empty case last before the default. */
__attribute__((noinline)) static unsigned pick2(unsigned x, unsigned y)
{
	switch (y % 4u) {
	case 0:
		g[2]++;
		break;
	case 1:
		y = y;
		__attribute__((fallthrough));
	case 2:
		x += h(y);
		break;
	default:
		x ^= y;
		break;
	}
	return x;
}

int main(void)
{
	unsigned r = 0;
	for (unsigned i = 0; i < 40; i++) {
		g[1] = i * 7u;
		r += pick(i, i * 3u, i ^ 5u);
		r += pick2(r & 255u, i);
	}
	printf("%u %lu %u\n", r, sink, g[2]);
	return 0;
}
