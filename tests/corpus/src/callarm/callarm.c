/* `x = c ? v : f(y);` with both arms on the test's line: the lines of
 * the two ways cannot tell the arms apart, the call can. `find` is
 * inlined late (after the profiling pass: the gcno's arm block still
 * ends in a call), `slow` stays a call. Both write memory, so neither
 * is pure: gcov ends the blocks calling them with a fake arc. */
#include <stdio.h>
#include <string.h>

struct item {
	int kind;	/* 0: value in num, 1: look name up, 2: ask slow */
	long num;	/* the value of kind 0 */
	char name[8];	/* the name of kind 1 */
};

static struct {
	char name[8];
	long val;
} vars[6] = {{"a", 3}, {"bb", 5}, {"c", 7}, {"dd", 11}, {"e", 13}, {"ff", 17}};

static int nfind, nslow; /* calls made */

static long find(const char *name)
{
	nfind++;
	for (int i = 0; i < 6; i++)
		if (!strcmp(vars[i].name, name))
			return vars[i].val;
	return -1;
}

__attribute__((noinline)) static long slow(long x)
{
	long r = 1;
	nslow++;
	while (x-- > 0)
		r = r * 3 % 1000003;
	return r;
}

__attribute__((noinline)) static long total(const struct item *it, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		long v = it[i].kind != 1 ? it[i].num : find(it[i].name);
		s += it[i].kind == 2 ? slow(v) : v;
	}
	return s;
}

int main(void)
{
	static const char *names[] = {"a", "bb", "c", "dd", "e", "ff", "zz"};
	struct item it[40];
	unsigned x = 11;
	for (int i = 0; i < 40; i++) {
		x = x * 1103515245u + 12345u;
		unsigned r = (x >> 16) % 10;
		it[i].kind = r < 6 ? 0 : r < 9 ? 1 : 2;
		it[i].num = (long)(x >> 20) % 50;
		strcpy(it[i].name, names[(x >> 8) % 7]);
	}
	long s = 0;
	for (int k = 0; k < 25; k++)
		s += total(it, 10 + k);
	printf("%ld %d %d\n", s, nfind, nslow);
	return 0;
}
