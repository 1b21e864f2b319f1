/* Small vector helpers shared by two units; each unit inlines its own copies. */
#ifndef VEC_H
#define VEC_H
#include <stddef.h>

struct vec {
	int *v;		/* elements */
	size_t n;	/* used */
	size_t cap;	/* allocated */
};

static inline int vec_push(struct vec *a, int x)
{
	if (a->n == a->cap)
		return -1;
	a->v[a->n++] = x;
	return 0;
}

static inline int vec_max(const struct vec *a)
{
	size_t i;
	int m;
	if (a->n == 0)
		return -1;
	m = a->v[0];
	for (i = 1; i < a->n; i++)
		if (a->v[i] > m)
			m = a->v[i];
	return m;
}

static inline long vec_sum_if(const struct vec *a, int (*pred)(int))
{
	size_t i;
	long s = 0;
	for (i = 0; i < a->n; i++)
		if (!pred || pred(a->v[i]))
			s += a->v[i];
	return s;
}

static inline int clampi(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

void fill(struct vec *a, int seed, int count);
long stats(const struct vec *a, int which);
#endif
