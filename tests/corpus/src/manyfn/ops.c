/* Small operations reached mostly through a function-pointer table. */
#include "manyfn.h"

static long twist(long v) { return (v << 3) ^ (v >> 5); }
static long op_inc(long v) { return v + 1; }
static long op_dec(long v) { return v - 1; }
static long op_dbl(long v) { return v * 2; }
static long op_half(long v) { return v / 2; }
static long op_neg(long v) { return -v; }
static long op_sq(long v) { return (v % 1000) * (v % 1000); }
static long op_mod(long v) { return v % 9973; }
static long op_xor(long v) { return v ^ 0x2545; }
static long op_twist(long v) { return twist(v) % 100003; }
static long op_abs(long v) { return v < 0 ? -v : v; }
static long op_clamp(long v) { return v > 50000 ? 50000 : v < -50000 ? -50000 : v; }
static long op_rev(long v)
{
	long r = 0;

	v = op_abs(v);
	while (v) {
		r = r * 10 + v % 10;
		v /= 10;
	}
	return r;
}
static long op_digits(long v)
{
	int n = 0;

	do {
		n++;
		v /= 10;
	} while (v);
	return n;
}
/* Never in the table and never called. */
__attribute__((used)) static long op_dead(long v) { return v * 12345; }

static const unop table[] = {
	op_inc, op_dec, op_dbl, op_half, op_neg, op_sq, op_mod, op_xor,
	op_twist, op_abs, op_clamp, op_rev, op_digits,
};

int ops_count(void)
{
	return (int)(sizeof(table) / sizeof(table[0]));
}

long ops_run(int which, long v)
{
	return table[which % ops_count()](v);
}

long ops_fold(long v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		v = op_clamp(ops_run(i, v));
	return v;
}
