/* A loop condition of character ranges written over two lines: the
 * front end folds it into two gcno conditions, both ending on the first
 * line; gcc -O2's reassoc then merges the ranges into new tests (a range
 * test of the first condition, a range and a bit test of the second)
 * that carry the second line, which no gcno block ends on. The first
 * test's ways still land as its block's arcs lead: one on the loop body
 * (`s++`), the other on the next test of the line (gcda_listedline.c:
 * gm_listed_line_arms, a guess; COUNTER_BOUNDS in
 * tests/gcda/check_gcda.py). */
#include <stdio.h>

static const char *text[] = {
	"$x1f+Beef*cafe-42 dead_beef; x9 fade0FF ;; ab12cd34",
	"mov a0, 0xFF00 ; add a1, a1, 0x7f ; j label_12",
	"deadbeefcafebabe 0123456789 ABCDEF abcdef ---",
};

__attribute__((noinline)) static int words(const char *s, int *longest)
{
	int n = 0;
	while (*s) {
		const char *w = s;
		while ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		       (*s >= 'A' && *s <= 'Z') || *s == '$')
			s++;
		if (s > w) {
			n++;
			if (s - w > *longest)
				*longest = (int)(s - w);
		} else {
			s++;
		}
	}
	return n;
}

int main(void)
{
	int total = 0, longest = 0;
	for (int r = 0; r < 40; r++)
		for (unsigned k = 0; k < sizeof text / sizeof text[0]; k++)
			total += words(text[k] + (r % 5), &longest);
	printf("words %d longest %d\n", total, longest);
	return 0;
}
