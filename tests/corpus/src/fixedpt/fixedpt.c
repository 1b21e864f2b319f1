/* fixedpt: int64 number theory and Q16.16 fixed point: Newton isqrt, gcd/lcm, modular
 * exponentiation, Miller-Rabin with fixed bases, a switch falling through several cases,
 * static inline helpers, and one-line loop bodies with two conditions. */
#include <stdint.h>
#include <stdio.h>

typedef int64_t fx; /* Q16.16 */
#define FX_ONE ((fx)1 << 16)

static inline int64_t iabs64(int64_t a) { return a < 0 ? -a : a; }
static inline int64_t imin64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t imax64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline fx fx_mul(fx a, fx b) { return (a * b) >> 16; }
static inline fx fx_div(fx a, fx b) { return b ? (a << 16) / b : (a < 0 ? INT32_MIN : INT32_MAX); }
static inline uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m)
{
	return (uint64_t)(((unsigned __int128)a * b) % m);
}

static uint64_t lcg_state = 0x853c49e6748fea9bULL;

static uint64_t lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lcg_state >> 17;
}

static uint64_t isqrt(uint64_t n)
{
	uint64_t x, y;

	if (n < 2)
		return n;
	x = n;
	y = (x + 1) / 2;
	while (y < x) {
		x = y;
		y = (x + n / x) / 2;
	}
	return x;
}

static int64_t gcd(int64_t a, int64_t b)
{
	a = iabs64(a);
	b = iabs64(b);
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int64_t lcm(int64_t a, int64_t b)
{
	int64_t g;

	if (a == 0 || b == 0)
		return 0;
	g = gcd(a, b);
	return iabs64(a / g * b);
}

static uint64_t powmod(uint64_t b, uint64_t e, uint64_t m)
{
	uint64_t r = 1 % m;

	b %= m;
	while (e) {
		if (e & 1)
			r = mulmod(r, b, m);
		b = mulmod(b, b, m);
		e >>= 1;
	}
	return r;
}

static int mr_witness(uint64_t n, uint64_t a, uint64_t d, int s)
{
	uint64_t x = powmod(a, d, n);
	int r;

	if (x == 1 || x == n - 1)
		return 0;
	for (r = 1; r < s; r++) {
		x = mulmod(x, x, n);
		if (x == n - 1)
			return 0;
		if (x == 1)
			return 1;
	}
	return 1;
}

static int is_prime(uint64_t n)
{
	static const uint64_t bases[] = { 2, 3, 5, 7, 11, 13, 17 };
	uint64_t d;
	int s = 0;
	unsigned i;

	if (n < 2)
		return 0;
	if (n % 2 == 0)
		return n == 2;
	if (n % 3 == 0)
		return n == 3;
	d = n - 1;
	while ((d & 1) == 0) {
		d >>= 1;
		s++;
	}
	for (i = 0; i < sizeof bases / sizeof bases[0]; i++) {
		if (bases[i] % n == 0)
			continue;
		if (mr_witness(n, bases[i], d, s))
			return 0;
	}
	return 1;
}

/* Q16.16 square root by Newton on the fixed-point value. */
static fx fx_sqrt(fx a)
{
	fx x;
	int it = 0;

	if (a <= 0)
		return 0;
	x = a > FX_ONE ? a / 2 : FX_ONE;
	for (;;) {
		fx nx = (x + fx_div(a, x)) / 2;

		if (iabs64(nx - x) <= 1 || ++it > 40)
			return nx;
		x = nx;
	}
}

/* Cases fall through: a larger level does everything a smaller one does. */
static int64_t mix(int level, int64_t v)
{
	int64_t acc = v;

	switch (level) {
	case 5:
		acc ^= acc >> 7;
		/* fall through */
	case 4:
		acc += imax64(v, 1000);
		/* fall through */
	case 3:
		acc = acc * 3 + 1;
		/* fall through */
	case 2:
		acc -= imin64(acc, 77);
		break;
	case 1:
		acc = -acc;
		/* fall through */
	case 0:
		acc += 5;
		break;
	default:
		acc = 0;
	}
	return acc;
}

static int digits(uint64_t v, unsigned base)
{
	int n = 0;

	do {
		n++;
		v /= base;
	} while (v);
	return n;
}

int main(void)
{
	uint64_t sq = 0, primes = 0, psum = 0, big = 0;
	int64_t g = 0, l = 1, mixed = 0;
	int evens = 0, threes = 0, i;
	fx acc = 0;

	for (i = 0; i < 150; i++) {
		uint64_t v = lcg() % 1000000007ULL;

		sq += isqrt(v) + isqrt(v * v + (uint64_t)i);
	}
	for (i = 0; i < 400; i++) {
		uint64_t n = (uint64_t)i * 2 + 1 + (i % 7 == 3 ? 1000000000ULL : 0);

		if (is_prime(n)) {
			primes++;
			psum += n;
		}
	}
	for (i = 0; i < 12; i++) {
		uint64_t n = (lcg() | 1) % 4000000000000000000ULL;

		big += (uint64_t)is_prime(n) << (i % 32);
	}
	for (i = 1; i < 300; i++) {
		int64_t a = (int64_t)(lcg() % 5000) - 2500, b = (int64_t)(lcg() % 360) + 1;

		g += gcd(a, b);
		if (i % 10 == 0)
			l = lcm(l % 100000, b);
	}
	for (i = 0; i < 2000; i++) { int64_t k = (int64_t)(lcg() % 97); if (k % 2 == 0) evens++; else if (k % 3 == 0) threes++; }
	for (i = 0; i < 700; i++)
		mixed += mix((int)(lcg() % 8), (int64_t)(lcg() % 20000) - 10000);
	for (i = 1; i < 300; i++) {
		fx a = (fx)i * FX_ONE / 3;
		fx r = fx_sqrt(a);

		acc += fx_mul(r, r) - a + fx_div(FX_ONE, (fx)i);
	}
	printf("isqrt: %llu\n", (unsigned long long)sq);
	printf("primes: %llu sum %llu big %llx\n", (unsigned long long)primes,
	       (unsigned long long)psum, (unsigned long long)big);
	printf("gcd: %lld lcm: %lld\n", (long long)g, (long long)l);
	printf("evens %d threes %d mixed %lld\n", evens, threes, (long long)mixed);
	printf("fx: %lld pow: %llu digits: %d %d\n", (long long)acc,
	       (unsigned long long)powmod(3, 1000000, 1000000007ULL), digits(psum, 10),
	       digits(big, 16));
	return 0;
}
