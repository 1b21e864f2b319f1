/* Geometry: monotone-chain convex hull (with its own insertion sort) and the shoelace area. */
#include "shapes.h"

/* Returns the cross product of (b - a) and (c - a). */
static long cross(const struct pt *a, const struct pt *b, const struct pt *c)
{
	return (b->x - a->x) * (c->y - a->y) - (b->y - a->y) * (c->x - a->x);
}

/* Sorts points by x then y; insertion sort keeps this unit free of libc. */
static void sort_pts(struct pt *p, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		struct pt v = p[i];

		for (j = i - 1; j >= 0 && (p[j].x > v.x || (p[j].x == v.x && p[j].y > v.y)); j--)
			p[j + 1] = p[j];
		p[j + 1] = v;
	}
}

int hull(struct pt *p, int n, struct pt *out)
{
	int i, k = 0, lo;

	sort_pts(p, n);
	for (i = 0; i < n; i++) {
		while (k >= 2 && cross(&out[k - 2], &out[k - 1], &p[i]) <= 0)
			k--;
		out[k++] = p[i];
	}
	lo = k + 1;
	for (i = n - 2; i >= 0; i--) {
		while (k >= lo && cross(&out[k - 2], &out[k - 1], &p[i]) <= 0)
			k--;
		out[k++] = p[i];
	}
	return k - 1;
}

long poly_area2(const struct pt *p, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++) {
		const struct pt *a = &p[i], *b = &p[(i + 1) % n];

		s += a->x * b->y - b->x * a->y;
	}
	return s < 0 ? -s : s;
}
