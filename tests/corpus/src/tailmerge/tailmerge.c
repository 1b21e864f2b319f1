/* Statements `if (c) return fail(k, a->id);` on one line each, in the
 * cases of a switch: gcc's cross-jumping keeps one copy of the epilogue
 * and tail call `fail(k, a->id)` that every failing case jumps into after
 * setting k, with the line-table row of one of those lines. Control
 * entering that copy from the other cases is not that line's: the line's
 * entries (the estimate of its condition's block) must leave it out. */
#include <stdio.h>

struct acct {
	int id, open;
	long bal, cap;
};

static int errors[4];

static __attribute__((noinline)) int fail(int code, int who)
{
	errors[code]++;
	return -code - 8 * (who & 7);
}

static long audits;

static __attribute__((noinline)) void audit(const struct acct *a)
{
	audits += a->bal & 15;
}

static __attribute__((noinline)) int step(struct acct *a, int op, long v)
{
	switch (op) {
	case 0:
		if (a->bal + v > a->cap) return fail(1, a->id);
		a->bal += v;
		break;
	case 1:
		if (v > a->bal) return fail(2, a->id);
		a->bal -= v;
		break;
	case 2:
		if (a->bal > 50) return fail(3, a->id);
		a->open = 0;
		break;
	case 3:
		audit(a);
		a->bal = a->bal * 2 + 1;
		break;
	default:
		return -99;
	}
	return 0;
}

int main(void)
{
	struct acct accts[8];
	unsigned s = 7u;
	long sum = 0;
	for (int i = 0; i < 8; i++)
		accts[i] = (struct acct){i, 1, 10 * i, 400 + 30 * i};
	for (int i = 0; i < 900; i++) {
		s = s * 1103515245u + 12345u;
		struct acct *a = &accts[(s >> 8) % 8];
		int op = (int)((s >> 12) % 9);
		op = op < 4 ? 0 : op < 6 ? 1 : op < 7 ? 2 : op < 8 ? 3 : 7;
		sum += step(a, op, (long)((s >> 16) % 90));
		if (!a->open)
			*a = (struct acct){a->id, 1, 5, a->cap + 10};
	}
	for (int i = 0; i < 8; i++)
		sum += accts[i].bal;
	printf("sum %ld errors %d %d %d audits %ld\n", sum, errors[1], errors[2], errors[3], audits);
	return 0;
}
