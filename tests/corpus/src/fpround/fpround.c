/* Floating-point helpers whose arms gcc -O2 leaves with little to tell
 * them apart by line:
 * - nroot (kept out of line) starts its Newton iteration from `x > 4 ?
 *   x / 4 : 2`: the constant arm is a PHI argument (no code of its own,
 *   no discriminator), the other arm's code shows its discriminator on
 *   the test's line; nroot(-4.0) is inlined early and folded to a
 *   constant, so it makes no call in either twin;
 * - round_q (a body kept for the calls in the printf, copies inlined
 *   into the loops) rounds with `v < 0 ? v - 0.25 : v + 0.75` on one
 *   line: the body's ways show the arms' discriminators, the copies none,
 *   but each arm runs the same operation (fsub, fadd) in both;
 * - mix, inlined early and removed, leaves its lines in main's CFG only. */
#include <stdio.h>

static double mix(double a, double b, double t)
{
	return a + (b - a) * t;
}

static double nroot(double x)
{
	double r;
	int n;

	if (x < 0 || __builtin_isnan(x))
		return __builtin_nan("");
	if (x == 0 || __builtin_isinf(x))
		return x;
	r = x > 4 ? x / 4 : 2;
	for (n = 0; n < 50; n++) {
		double t = 0.5 * (r + x / r);
		if (t == r)
			break;
		r = t;
	}
	return r;
}

static long round_q(double v)
{
	if (__builtin_isnan(v))
		return 0;
	if (v > 9e18)
		return 9000000000000000000L;
	if (v < -9e18)
		return -9000000000000000000L;
	return (long)(v < 0 ? v - 0.25 : v + 0.75);
}

int main(void)
{
	double acc = 0, w[6];
	long sum = 0;
	int i, k;

	for (i = 0; i < 900; i++) {
		double q = nroot(mix(1.0, 3.0, (double)i / 300.0) + i * 0.41);
		acc += q;
		sum += round_q((q - 12.0) * 37.0) % 1009;
	}
	w[0] = nroot(-4.0);
	w[1] = 1e300 * 1e10;
	w[2] = -w[1];
	w[3] = nroot(w[1]);
	w[4] = mix(-2.5, 7.25, 0.375);
	w[5] = 0.0 / (w[4] - w[4]);
	for (k = 0; k < 6; k++)
		for (i = 0; i < 40; i++)
			sum += round_q(w[k] * 1e-3 * (i - 20));
	printf("acc=%ld sum=%ld q=%ld\n", round_q(acc * 10.0), sum,
	       round_q(-acc / 3.0));
	return 0;
}
