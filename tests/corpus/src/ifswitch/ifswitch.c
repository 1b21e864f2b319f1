/* An if-chain of one variable against constants and ranges that gcc
 * -O2 turns into a switch before the profiling pass writes the gcno (the
 * pass if-to-switch): the gcno's block has one arc per condition in the
 * chain's order, then the default's, every block on the conditions' one
 * line; the first test, of another form, stays a test before it. The
 * machine's comparison tree tells the values each leaf runs for, the
 * conditions' text the values each arc holds (gcda_ifswitch.c). Kept
 * out of line: a copy inlined into its caller is not read. */
#include <stdio.h>

static __attribute__((noinline)) int klass(int c) { if (c >= 'A' && c <= 'Z') return c - 'A'; if (c >= 'a' && c <= 'z') return c - 'a' + 26; if (c >= '0' && c <= '9') return c - '0' + 52; if (c == '-') return 62; if (c == '_') return 63; return c == '.' ? 64 : -1; }

static const char text[] = "Zm9v_YmFy-bG9uZ2Vy.dGV4dA..aGV5*MTIz_";

int main(void)
{
	int hist[66] = {0};
	unsigned long acc = 0;
	for (int round = 0; round < 7; round++)
		for (const char *p = text; *p; p++) {
			int k = klass(*p + (round == 6 && *p == 'v'));
			hist[k < 0 ? 65 : k]++;
			if (k >= 0 && k < 64)
				acc = acc * 64 + (unsigned)k;
		}
	for (int k = 0; k < 66; k++)
		printf("%d%c", hist[k], k == 65 ? '\n' : ' ');
	printf("%lx\n", acc);
	return 0;
}
