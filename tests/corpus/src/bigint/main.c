/* bigint: factorials, Fibonacci, digits of e and pi by spigot-style long division. */
#include <stdio.h>
#include <string.h>
#include "bn.h"

static char dec[2100];

static unsigned digest(const char *s)
{
	unsigned h = 0;
	while (*s)
		h = h * 131 + (unsigned char)*s++;
	return h;
}

static int factorial(struct bn *r, unsigned n)
{
	bn_set(r, 1);
	for (unsigned i = 2; i <= n; i++)
		if (bn_mul_small(r, i))
			return -1;
	return 0;
}

static int fib(struct bn *r, unsigned n)
{
	static struct bn a, b;
	bn_set(&a, 0);
	bn_set(&b, 1);
	for (unsigned i = 0; i < n; i++) {
		if (bn_add(r, &a, &b))
			return -1;
		a = b;
		b = *r;
	}
	*r = a;
	return 0;
}

/* e = sum 1/k!, with `digits` decimal digits: scaled by 10^digits. */
static int e_digits(struct bn *r, int digits)
{
	static struct bn term;
	bn_set(&term, 1);
	for (int i = 0; i < digits; i++)
		if (bn_mul_small(&term, 10))
			return -1;
	bn_set(r, 0);
	for (uint32_t k = 1; !bn_is_zero(&term); k++) {
		static struct bn s;
		if (bn_add(&s, r, &term))
			return -1;
		*r = s;
		bn_divmod_small(&term, k);
	}
	return 0;
}

/* pi/4 = 4 atan(1/5) - atan(1/239) (Machin), scaled by 10^digits. */
static int atan_inv(struct bn *r, uint32_t x, int digits)
{
	static struct bn pw, t;
	bn_set(&pw, 1);
	for (int i = 0; i < digits; i++)
		bn_mul_small(&pw, 10);
	bn_divmod_small(&pw, x);
	bn_set(r, 0);
	for (uint32_t k = 0; !bn_is_zero(&pw); k++) {
		t = pw;
		bn_divmod_small(&t, 2 * k + 1);
		static struct bn s;
		if (k & 1) {
			if (bn_sub(&s, r, &t))
				return -1;
		} else if (bn_add(&s, r, &t)) {
			return -1;
		}
		*r = s;
		bn_divmod_small(&pw, x * x);
	}
	return 0;
}

static int pi_digits(struct bn *r, int digits)
{
	static struct bn a, b;
	if (atan_inv(&a, 5, digits + 5) || atan_inv(&b, 239, digits + 5))
		goto fail;
	if (bn_mul_small(&a, 16) || bn_mul_small(&b, 4))
		goto fail;
	if (bn_sub(r, &a, &b))
		goto fail;
	for (int i = 0; i < 5; i++)
		bn_divmod_small(r, 10);
	return 0;
fail:
	bn_set(r, 0);
	return -1;
}

static void show(const char *name, const struct bn *v)
{
	int n = bn_to_dec(v, dec, sizeof dec);
	if (n < 0) {
		printf("%s: overflow\n", name);
		return;
	}
	printf("%s: %d digits, head %.20s tail %s digest %08x\n", name, n, dec,
	       n > 12 ? dec + n - 12 : dec, digest(dec));
}

int main(void)
{
	static struct bn a, b, c;
	factorial(&a, 150);
	show("150!", &a);
	factorial(&b, 149);
	bn_mul(&c, &b, &b);
	show("149!^2", &c);
	printf("cmp %d %d %d\n", bn_cmp(&a, &b), bn_cmp(&b, &a), bn_cmp(&a, &a));
	fib(&a, 500);
	show("fib500", &a);
	e_digits(&a, 150);
	show("e", &a);
	pi_digits(&a, 150);
	show("pi", &a);
	bn_set(&b, 7);
	if (bn_sub(&c, &b, &a) < 0)
		printf("sub underflow detected\n");
	struct divres z = bn_divmod_small(&b, 0);
	printf("div0 ok=%d\n", z.ok);
	if (factorial(&a, 2000) < 0)
		printf("2000! overflows %d limbs\n", BN_MAX);
	return 0;
}
