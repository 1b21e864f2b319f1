/* bigint: arbitrary-precision unsigned integers as little-endian uint32 limbs. */
#ifndef BIGINT_BN_H
#define BIGINT_BN_H

#include <stdint.h>

#define BN_MAX 80

struct bn {
	int n;			/* limbs in use; 0 means zero */
	uint32_t d[BN_MAX];
};

struct divres {
	uint32_t rem;
	int ok;
};

static inline void bn_trim(struct bn *a)
{
	while (a->n > 0 && a->d[a->n - 1] == 0)
		a->n--;
}

static inline void bn_set(struct bn *a, uint32_t v)
{
	a->n = v ? 1 : 0;
	a->d[0] = v;
}

static inline int bn_is_zero(const struct bn *a)
{
	return a->n == 0;
}

int bn_cmp(const struct bn *a, const struct bn *b);
int bn_add(struct bn *r, const struct bn *a, const struct bn *b);
int bn_sub(struct bn *r, const struct bn *a, const struct bn *b);
int bn_mul(struct bn *r, const struct bn *a, const struct bn *b);
int bn_mul_small(struct bn *a, uint32_t m);
int bn_add_small(struct bn *a, uint32_t v);
struct divres bn_divmod_small(struct bn *a, uint32_t m);
int bn_to_dec(const struct bn *a, char *out, int cap);

#endif
