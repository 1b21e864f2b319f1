/* Conversions among float, double, long double and integers: rounding
 * by hand, saturating casts, frexp-style decomposition, classification,
 * and a compensated sum in long double. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static long long sat_ll(double d)
{
	if (d != d)
		return 0;
	if (d >= 9.2e18)
		return 9200000000000000000ll;
	if (d <= -9.2e18)
		return -9200000000000000000ll;
	return (long long)d;
}

/* floor without libm (the corpus links no -lm). */
static double floor_(double d)
{
	double t = (double)(long long)d;
	return t > d ? t - 1 : t;
}

static int round_half_even(double d)
{
	double f = floor_(d);
	double diff = d - f;
	int r = (int)f;
	if (diff > 0.5)
		return r + 1;
	if (diff < 0.5)
		return r;
	return (r % 2 == 0) ? r : r + 1;
}

static const char *classify(double d)
{
	switch (fpclassify(d)) {
	case FP_NAN: return "nan";
	case FP_INFINITE: return d > 0 ? "+inf" : "-inf";
	case FP_ZERO: return signbit(d) ? "-0" : "+0";
	case FP_SUBNORMAL: return "sub";
	default: return "norm";
	}
}

static unsigned float_bits(float f)
{
	unsigned u;
	memcpy(&u, &f, sizeof u);
	return u;
}

/* Exponent and mantissa by repeated halving/doubling. */
static int decompose(double d, double *mant)
{
	int e = 0;
	if (d == 0 || d != d) {
		*mant = d;
		return 0;
	}
	while (__builtin_fabs(d) >= 1.0) {
		d /= 2;
		e++;
	}
	while (__builtin_fabs(d) < 0.5) {
		d *= 2;
		e--;
	}
	*mant = d;
	return e;
}

static long double ksum(const double *v, int n)
{
	long double s = 0, c = 0;
	int i;
	for (i = 0; i < n; i++) {
		long double y = (long double)v[i] - c;
		long double t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

int main(void)
{
	double vals[] = { 0.0, -0.0, 1.5, 2.5, -2.5, 3.49999, 1e300 * 10, -1e19,
			  4.9e-324, 1e-310, 123456789.987, -7.5 };
	double big[64];
	int i, e;
	double m;
	volatile double zero = 0;
	for (i = 0; i < 12; i++) {
		double d = vals[i];
		float f = (float)d;
		printf("%2d %-4s ll=%lld rhe=%d f=%08x", i, classify(d), sat_ll(d),
		       __builtin_fabs(d) < 1e9 ? round_half_even(d) : -1, float_bits(f));
		e = decompose(d, &m);
		if (__builtin_fabs(d) < 1e300)
			printf(" e=%d m=%.6f", e, m);
		printf("\n");
	}
	printf("nan %s %lld\n", classify(zero / zero), sat_ll(zero / zero));
	for (i = 0; i < 64; i++)
		big[i] = (i % 2 ? 1e16 : -1e16) + (double)i / 8;
	printf("ksum %.6Lf\n", ksum(big, 64));
	{
		long double ld = 1.0L / 3;
		double d = (double)ld;
		float f = (float)ld;
		unsigned long long u = (unsigned long long)(ld * 1e18L);
		printf("third %.20Lf %.17f %.9f %llu\n", ld, d, (double)f, u);
	}
	for (i = 0; i < 6; i++) {
		unsigned long long u = 0xfffffffffffff800ull >> (i * 11);
		double d = (double)u;
		float f = (float)u;
		long double ld = (long double)u;
		printf("u2f %llu %.1f %.1f %d\n", u, d, (double)f,
		       (unsigned long long)ld == u);
	}
	printf("eps %g %g\n", (double)FLT_EPSILON, DBL_EPSILON);
	return 0;
}
