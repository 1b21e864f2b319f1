/* long double arithmetic (on RV64 IEEE quad through libgcc soft-float calls),
 * float<->int conversions in loops, do { } while (0) macros left by break, goto
 * backwards to retry, bool helpers in conditions, a switch over an enum where
 * every case returns. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum op { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_POW };

#define CHECK_RANGE(x, lo, hi, bad) do { \
	if ((x) < (lo)) { (bad)++; break; } \
	if ((x) > (hi)) { (bad) += 2; break; } \
	(x) = (x) * 2; \
} while (0)

#define ACCUM(sum, v, cnt) do { if ((v) != (v)) break; (sum) += (v); (cnt)++; } while (0)

static bool is_small(long double x) { return x > -1e-6L && x < 1e-6L; }
static bool is_integral(long double x) { return x == (long double)(long long)x; }
static bool in_unit(double x) { return x >= 0.0 && x <= 1.0; }

/* Square root by Newton's method in long double. */
static long double ld_sqrt(long double a)
{
	if (a <= 0)
		return 0;
	long double x = a > 1 ? a / 2 : 1;
	for (int i = 0; i < 60; i++) {
		long double nx = (x + a / x) / 2;
		if (is_small(nx - x)) return nx;
		x = nx;
	}
	return x;
}

/* Integer power by squaring. */
static long double ld_pow(long double b, int e)
{
	long double r = 1;
	bool neg = e < 0;
	if (neg) e = -e;
	while (e) { if (e & 1) r *= b; b *= b; e >>= 1; }
	return neg ? 1 / r : r;
}

/* Applies op; every case returns. */
static long double apply(enum op op, long double a, long double b)
{
	switch (op) {
	case OP_ADD: return a + b;
	case OP_SUB: return a - b;
	case OP_MUL: return a * b;
	case OP_DIV: return b == 0 ? 0 : a / b;
	case OP_SQRT: return ld_sqrt(a);
	case OP_POW: return ld_pow(a, (int)b);
	}
	return -1;
}

static const char *op_name(enum op op)
{
	switch (op) {
	case OP_ADD: return "add";
	case OP_SUB: return "sub";
	case OP_MUL: return "mul";
	case OP_DIV: return "div";
	case OP_SQRT: return "sqrt";
	case OP_POW: return "pow";
	}
	return "?";
}

static uint32_t seed = 777;
static uint32_t rnd(void)
{
	seed = seed * 1664525u + 1013904223u;
	return seed >> 9;
}

/* Parses a decimal with optional fraction; retries with goto after a bad char. */
static long double parse_num(const char *s, int *skipped)
{
	long double v, scale;
	bool frac;
retry:
	v = 0; scale = 1; frac = false;
	for (; *s; s++) {
		if (*s == '.') { if (frac) { (*skipped)++; s++; goto retry; } frac = true; continue; }
		if (*s < '0' || *s > '9') { (*skipped)++; s++; goto retry; }
		v = v * 10 + (*s - '0');
		if (frac) scale *= 10;
	}
	return v / scale;
}

int main(void)
{
	/* Harmonic and alternating series in long double. */
	long double h = 0, alt = 0;
	for (int i = 1; i <= 400; i++) { h += 1.0L / i; alt += (i & 1 ? 4.0L : -4.0L) / (2 * i - 1); }
	printf("harmonic %.15Lf\n", h);
	printf("leibniz %.12Lf\n", alt);

	/* Every operation over a few operand pairs. */
	static const long double as[] = { 2.0L, -7.5L, 1e10L, 0.125L };
	static const long double bs[] = { 3.0L, 0.0L, -2.0L, 5.0L };
	for (int op = OP_ADD; op <= OP_POW; op++) {
		long double s = 0; int integral = 0;
		for (int k = 0; k < 4; k++) { long double r = apply((enum op)op, as[k], bs[k]); s += r; if (is_integral(r)) integral++; }
		printf("%-4s sum %.6Le integral %d\n", op_name((enum op)op), s, integral);
	}

	/* float <-> int round trips and saturation by hand. */
	long long isum = 0; unsigned usum = 0; int lost = 0;
	for (int i = -50; i < 50; i++) {
		float f = i * 0.37f; double d = i * 1.61; long double ld = i * 2.5L;
		int fi = (int)f; long long di = (long long)d; unsigned ui = d < 0 ? 0u : (unsigned)d;
		isum += fi + di + (long long)ld;
		usum += ui;
		if ((float)fi != f) lost++;
	}
	printf("conv %lld %u lost %d\n", isum, usum, lost);

	/* Range checks through the macro with break. */
	int bad = 0; long double acc = 0; int cnt = 0;
	for (int i = 0; i < 64; i++) {
		long double x = (long double)(rnd() % 2000) / 10 - 50;
		CHECK_RANGE(x, -20, 120, bad);
		ACCUM(acc, x, cnt);
	}
	printf("range bad %d acc %.3Lf cnt %d\n", bad, acc, cnt);

	/* Unit-interval hits with a bool helper. */
	int hits = 0;
	for (int i = 0; i < 200; i++) if (in_unit((double)(rnd() % 3000) / 1000.0 - 0.5)) hits++;
	printf("unit hits %d\n", hits);

	static const char *nums[] = { "3.14159", "12a.5", "1.2.3", "x", "250", "0.0625" };
	int skipped = 0; long double tot = 0;
	for (unsigned i = 0; i < sizeof nums / sizeof nums[0]; i++) tot += parse_num(nums[i], &skipped);
	printf("parsed %.6Lf skipped %d\n", tot, skipped);

	printf("sqrt2 %.30Lf\n", ld_sqrt(2));
	printf("pow %.10Le %.10Le\n", ld_pow(1.0001L, 5000), ld_pow(3, -7));
	return 0;
}
