/* passtest: a test written twice, `r->kind == KIND_T` on two lines, the
 * second line's other test a branch of its own: where the first fails,
 * jump threading sends that way straight past the second `kind` test
 * (its outcome known) onto the next line, so the second line's kind test
 * has no branch at all and its block no match: the first test's ways
 * tell both (gcda_named.c: gm_passed_test_arms; the passed test's other
 * way gets the rest of its block's runs, gcda_flow.c). */
#include <stdio.h>

enum { KIND_A, KIND_B, KIND_T, KIND_C };

struct req {
	int kind;
	int from;
	int to;
};

static unsigned long long st = 0x243f6a8885a308d3ull;
static int errs[8];
static long total;

static unsigned rnd(void)
{
	st ^= st << 13;
	st ^= st >> 7;
	st ^= st << 17;
	return (unsigned)(st >> 29);
}

static inline int bad_id(int id)
{
	return id < 0 || id > 40;
}

__attribute__((noinline)) static int fail(int code, int id)
{
	errs[code & 7]++;
	total += id;
	return -code;
}

static int check(const struct req *r)
{
	if (bad_id(r->from))
		return fail(1, r->from);
	if (r->kind == KIND_T && bad_id(r->to)) return fail(2, r->to);
	if (r->kind == KIND_T && r->from == r->to) return fail(3, r->to);
	if ((r->from & 7) == 5)
		return fail(4, r->from);
	return 0;
}

__attribute__((noinline)) static int run(const struct req *r)
{
	int e = check(r);
	if (e)
		return e;
	total += r->from;
	return 0;
}

int main(void)
{
	int bad = 0;
	for (int i = 0; i < 2000; i++) {
		struct req r;
		unsigned x = rnd();
		r.kind = (int)(x % 4u);
		r.from = (int)(x >> 4) % 44;
		r.to = (int)(x >> 12) % 43;
		bad += run(&r) != 0;
	}
	printf("bad=%d total=%ld e=%d %d %d %d\n", bad, total, errs[1], errs[2],
	       errs[3], errs[4]);
	return 0;
}
