/* bigint: the limb arithmetic. */
#include <string.h>
#include "bn.h"

int bn_cmp(const struct bn *a, const struct bn *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = a->n - 1; i >= 0; i--)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

int bn_add(struct bn *r, const struct bn *a, const struct bn *b)
{
	int n = a->n > b->n ? a->n : b->n;
	uint64_t c = 0;
	if (n + 1 > BN_MAX)
		return -1;
	for (int i = 0; i < n; i++) {
		uint64_t s = c;
		if (i < a->n)
			s += a->d[i];
		if (i < b->n)
			s += b->d[i];
		r->d[i] = (uint32_t)s;
		c = s >> 32;
	}
	r->d[n] = (uint32_t)c;
	r->n = n + 1;
	bn_trim(r);
	return 0;
}

/* r = a - b; requires a >= b. */
int bn_sub(struct bn *r, const struct bn *a, const struct bn *b)
{
	int64_t borrow = 0;
	if (bn_cmp(a, b) < 0)
		return -1;
	for (int i = 0; i < a->n; i++) {
		int64_t s = (int64_t)a->d[i] - borrow - (i < b->n ? (int64_t)b->d[i] : 0);
		borrow = s < 0;
		r->d[i] = (uint32_t)(s + (borrow << 32));
	}
	r->n = a->n;
	bn_trim(r);
	return 0;
}

int bn_mul(struct bn *r, const struct bn *a, const struct bn *b)
{
	static struct bn t;
	if (a->n + b->n > BN_MAX)
		return -1;
	memset(t.d, 0, sizeof(uint32_t) * (size_t)(a->n + b->n + 1));
	for (int i = 0; i < a->n; i++) {
		uint64_t c = 0;
		if (a->d[i] == 0)
			continue;
		for (int j = 0; j < b->n; j++) {
			uint64_t p = (uint64_t)a->d[i] * b->d[j] + t.d[i + j] + c;
			t.d[i + j] = (uint32_t)p;
			c = p >> 32;
		}
		t.d[i + b->n] = (uint32_t)c;
	}
	t.n = a->n + b->n;
	bn_trim(&t);
	*r = t;
	return 0;
}

int bn_mul_small(struct bn *a, uint32_t m)
{
	uint64_t c = 0;
	for (int i = 0; i < a->n; i++) {
		uint64_t p = (uint64_t)a->d[i] * m + c;
		a->d[i] = (uint32_t)p;
		c = p >> 32;
	}
	if (c) {
		if (a->n >= BN_MAX)
			return -1;
		a->d[a->n++] = (uint32_t)c;
	}
	bn_trim(a);
	return 0;
}

int bn_add_small(struct bn *a, uint32_t v)
{
	for (int i = 0; v && i < a->n; i++) {
		uint64_t s = (uint64_t)a->d[i] + v;
		a->d[i] = (uint32_t)s;
		v = (uint32_t)(s >> 32);
	}
	if (v) {
		if (a->n >= BN_MAX)
			return -1;
		a->d[a->n++] = v;
	}
	return 0;
}

struct divres bn_divmod_small(struct bn *a, uint32_t m)
{
	struct divres r = { 0, 0 };
	uint64_t rem = 0;
	if (m == 0)
		return r;
	for (int i = a->n - 1; i >= 0; i--) {
		uint64_t cur = (rem << 32) | a->d[i];
		a->d[i] = (uint32_t)(cur / m);
		rem = cur % m;
	}
	bn_trim(a);
	r.rem = (uint32_t)rem;
	r.ok = 1;
	return r;
}

/* Decimal digits of a into out (destroys nothing: works on a copy). */
int bn_to_dec(const struct bn *a, char *out, int cap)
{
	static struct bn t;
	char tmp[2048];
	int n = 0;
	t = *a;
	if (bn_is_zero(&t)) {
		if (cap < 2)
			return -1;
		out[0] = '0';
		out[1] = '\0';
		return 1;
	}
	while (!bn_is_zero(&t)) {
		struct divres r = bn_divmod_small(&t, 1000000000u);
		for (int k = 0; k < 9; k++) {
			if (n >= (int)sizeof tmp)
				return -1;
			tmp[n++] = (char)('0' + r.rem % 10);
			r.rem /= 10;
		}
	}
	while (n > 1 && tmp[n - 1] == '0')
		n--;
	if (n + 1 > cap)
		return -1;
	for (int i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
	return n;
}
