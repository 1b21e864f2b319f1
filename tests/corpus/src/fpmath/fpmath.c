/* Floating point: Newton iterations (square root, cube root), Horner polynomials in
 * double and float, NaN/inf classification with builtins, float<->int conversions with
 * rounding and saturation, a small LU decomposition with partial pivoting and a solve. */
#include <stdio.h>

#define N 6

/* Square root by Newton's method (no libm): NaN for negatives, inf stays inf. */
static double my_sqrt(double x)
{
	double g;
	int i;

	if (x < 0 || __builtin_isnan(x))
		return __builtin_nan("");
	if (x == 0 || __builtin_isinf(x))
		return x;
	g = x > 1 ? x / 2 : 1;
	for (i = 0; i < 60; i++) {
		double n = 0.5 * (g + x / g);
		if (n == g)
			break;
		g = n;
	}
	return g;
}

/* Cube root in float, Newton on g^3 - x, with a sign fold. */
static float my_cbrt(float x)
{
	float g, s = 1.0f;
	int i;

	if (x < 0) {
		s = -1.0f;
		x = -x;
	}
	g = x < 1.0f ? 1.0f : x / 3.0f;
	for (i = 0; i < 40 && __builtin_fabsf(g * g * g - x) > 1e-5f * x; i++)
		g = g - (g * g * g - x) / (3.0f * g * g);
	return s * g;
}

/* Horner evaluation of c[0] + c[1] x + ... + c[n-1] x^(n-1). */
static double horner(const double *c, int n, double x)
{
	double r = 0;

	while (n-- > 0)
		r = r * x + c[n];
	return r;
}

/* Same in float, with an early exit on overflow. */
static float hornerf(const float *c, int n, float x)
{
	float r = 0;

	while (n-- > 0) {
		r = r * x + c[n];
		if (__builtin_isinf(r))
			break;
	}
	return r;
}

/* Classifies v: 0 finite, 1 +inf, 2 -inf, 3 NaN, 4 subnormal/zero. */
static int classify(double v)
{
	if (__builtin_isnan(v))
		return 3;
	if (__builtin_isinf(v))
		return v > 0 ? 1 : 2;
	if (__builtin_fabs(v) < 2.2250738585072014e-308)
		return 4;
	return 0;
}

/* Converts to int with saturation and round-half-away-from-zero. */
static int to_int_sat(double v)
{
	if (__builtin_isnan(v))
		return 0;
	if (v >= 2147483647.0)
		return 2147483647;
	if (v <= -2147483648.0)
		return -2147483647 - 1;
	return (int)(v < 0 ? v - 0.5 : v + 0.5);
}

/* LU decomposition in place with partial pivoting; returns 0 if singular. */
static int lu(double a[N][N], int piv[N])
{
	int i, j, k, p;

	for (i = 0; i < N; i++)
		piv[i] = i;
	for (k = 0; k < N; k++) {
		p = k;
		for (i = k + 1; i < N; i++)
			if (__builtin_fabs(a[i][k]) > __builtin_fabs(a[p][k]))
				p = i;
		if (a[p][k] == 0)
			return 0;
		if (p != k) {
			for (j = 0; j < N; j++) {
				double t = a[k][j];
				a[k][j] = a[p][j];
				a[p][j] = t;
			}
			i = piv[k]; piv[k] = piv[p]; piv[p] = i;
		}
		for (i = k + 1; i < N; i++) {
			a[i][k] /= a[k][k];
			for (j = k + 1; j < N; j++)
				a[i][j] -= a[i][k] * a[k][j];
		}
	}
	return 1;
}

/* Solves LU x = P b. */
static void lu_solve(double a[N][N], const int piv[N], const double *b, double *x)
{
	int i, j;

	for (i = 0; i < N; i++) {
		x[i] = b[piv[i]];
		for (j = 0; j < i; j++)
			x[i] -= a[i][j] * x[j];
	}
	for (i = N - 1; i >= 0; i--) {
		for (j = i + 1; j < N; j++)
			x[i] -= a[i][j] * x[j];
		x[i] /= a[i][i];
	}
}

int main(void)
{
	static const double c[] = { 1.0, -0.5, 0.25, -0.125, 0.0625, 1e-3 };
	static const float cf[] = { 2.0f, 3.0f, -1.5f, 0.75f, 1e30f };
	double a[N][N], b[N], x[N], s = 0, specials[8];
	int piv[N], cls[5] = { 0 }, i, j, r;
	long isum = 0;
	float fs = 0, h;

	for (i = 1; i <= 1500; i++) {
		double q = my_sqrt((double)i * 1.37);
		s += q - (double)(long)q;
		isum += to_int_sat(q * 1000.0) % 977;
		fs += my_cbrt((float)(i - 750) * 0.25f);
		s += horner(c, 6, (double)i / 1500.0);
		h = hornerf(cf, i % 7 == 0 ? 5 : 4, (float)(i % 13) * 0.5f);
		if (h < 1e6f)
			fs += h * 1e-3f;
		else
			isum++;
	}
	specials[0] = my_sqrt(-1.0);
	specials[1] = 1e308 * 10.0;
	specials[2] = -specials[1];
	specials[3] = 5e-324;
	specials[4] = 0.0;
	specials[5] = my_sqrt(specials[1]);
	specials[6] = hornerf(cf, 5, 1e3f);
	specials[7] = 42.5;
	for (i = 0; i < 8; i++) {
		cls[classify(specials[i])]++;
		isum += to_int_sat(specials[i] * 1e6);
	}
	for (r = 0; r < 40; r++) {
		for (i = 0; i < N; i++) {
			for (j = 0; j < N; j++)
				a[i][j] = (double)((i * 7 + j * 3 + r) % 11) - 5.0 + (i == j ? 12.0 : 0.0);
			b[i] = (double)(i + r) * 0.5;
		}
		if (r % 13 == 12)
			for (j = 0; j < N; j++)
				a[2][j] = a[1][j] * 2.0;
		if (!lu(a, piv)) {
			printf("round %d singular\n", r);
			continue;
		}
		lu_solve(a, piv, b, x);
		for (i = 0; i < N; i++)
			s += x[i];
	}
	printf("s=%d fs=%d isum=%ld\n", to_int_sat(s * 1000.0), to_int_sat((double)fs * 100.0),
	       isum);
	printf("cls=%d,%d,%d,%d,%d\n", cls[0], cls[1], cls[2], cls[3], cls[4]);
	return 0;
}
