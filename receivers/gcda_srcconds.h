/* Conditions of a source line read as the values of one variable they
 * hold (gcda_srcconds.c). Private to receivers/gcda*.c. */
#ifndef LTPIPE_GCDA_SRCCONDS_H
#define LTPIPE_GCDA_SRCCONDS_H

#include <stdint.h>

/* Most intervals of one value set. */
#define GM_MAX_IV 8
/* The values a C int holds (the variable tested). */
#define GM_VMIN ((int64_t)INT32_MIN)
#define GM_VMAX ((int64_t)INT32_MAX)

/* A set of values: n disjoint closed intervals, sorted. */
struct gm_ivset {
	int n;                  /* intervals, -1: too many (unknown) */
	int64_t lo[GM_MAX_IV];  /* their lower ends */
	int64_t hi[GM_MAX_IV];  /* their upper ends */
};

/* One condition read: its values and its variable. */
struct gm_cond {
	struct gm_ivset s; /* the values for which it holds */
	char name[64];     /* the variable it compares */
};

/* *s = [lo, hi] (empty when lo > hi). */
void gm_iv_one(struct gm_ivset *s, int64_t lo, int64_t hi);

/* The values both a and b hold; the complement of a; is a within b? */
struct gm_ivset gm_iv_and(const struct gm_ivset *a,
                          const struct gm_ivset *b);
struct gm_ivset gm_iv_not(const struct gm_ivset *a);
int gm_iv_within(const struct gm_ivset *a, const struct gm_ivset *b);

/* The conditions of line text t (`if (...)` and the tests of `?:`) in
 * text order, appended to c[*n..max) until max are read: 0 when one
 * before that cannot be read (or the line holds a `switch`). */
int gm_line_conds(const char *t, struct gm_cond *c, int *n, int max);

#endif
