/* geom: integer geometry: orientation, segment intersection, point in polygon,
 * insertion sort of points, closest pair by brute force, bounding boxes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pt {
	long x, y;
};

struct box {
	long x0, y0, x1, y1;
};

static unsigned long seed = 12345;

static unsigned long lcg(void)
{
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return seed >> 33;
}

static long rnd(long lo, long hi)
{
	return lo + (long)(lcg() % (unsigned long)(hi - lo + 1));
}

static int orient(struct pt a, struct pt b, struct pt c)
{
	long v = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);

	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

static int on_segment(struct pt p, struct pt q, struct pt r)
{
	return q.x <= (p.x > r.x ? p.x : r.x) && q.x >= (p.x < r.x ? p.x : r.x) &&
	       q.y <= (p.y > r.y ? p.y : r.y) && q.y >= (p.y < r.y ? p.y : r.y);
}

static int seg_intersect(struct pt p1, struct pt q1, struct pt p2, struct pt q2)
{
	int o1 = orient(p1, q1, p2), o2 = orient(p1, q1, q2);
	int o3 = orient(p2, q2, p1), o4 = orient(p2, q2, q1);

	if (o1 != o2 && o3 != o4)
		return 1;
	if ((o1 == 0 && on_segment(p1, p2, q1)) || (o2 == 0 && on_segment(p1, q2, q1)) ||
	    (o3 == 0 && on_segment(p2, p1, q2)) || (o4 == 0 && on_segment(p2, q1, q2)))
		return 2;
	return 0;
}

/* Ray casting; points on the boundary count as inside (returns 2). */
static int point_in_poly(const struct pt *poly, int n, struct pt p)
{
	int i, inside = 0, edge = 0;

	for (i = 0; i < n; i++) {
		struct pt a = poly[i], b = poly[(i + 1) % n];

		if (a.y == b.y && a.y != p.y)
			continue;
		if (orient(a, b, p) == 0 && on_segment(a, p, b)) {
			edge = 1;
			break;
		}
		if ((a.y > p.y) == (b.y > p.y))
			continue;
		{
			long num = (p.y - a.y) * (b.x - a.x);
			long den = b.y - a.y;
			long xi2 = a.x * den + num;

			if (den < 0 ? p.x * den > xi2 : p.x * den < xi2)
				inside = !inside;
		}
	}
	return edge ? 2 : inside;
}

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

static void sort_longs(long *a, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		long v = a[i];

		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static struct box bbox(const struct pt *p, int n)
{
	struct box b = { p[0].x, p[0].y, p[0].x, p[0].y };
	int i;

	for (i = 1; i < n; i++) {
		if (p[i].x < b.x0) b.x0 = p[i].x;
		if (p[i].x > b.x1) b.x1 = p[i].x;
		if (p[i].y < b.y0) b.y0 = p[i].y; else if (p[i].y > b.y1) b.y1 = p[i].y;
	}
	return b;
}

static int box_overlap(struct box a, struct box b)
{
	return !(a.x1 < b.x0 || b.x1 < a.x0 || a.y1 < b.y0 || b.y1 < a.y0);
}

static long dist2(struct pt a, struct pt b)
{
	long dx = a.x - b.x, dy = a.y - b.y;

	return dx * dx + dy * dy;
}

static long closest_pair(const struct pt *p, int n)
{
	long best = -1;
	int i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			long d;

			if (best >= 0 && (p[j].x - p[i].x) * (p[j].x - p[i].x) >= best)
				break;
			d = dist2(p[i], p[j]);
			if (best < 0 || d < best)
				best = d;
		}
	return best;
}

/* Fixed point (16.16) polygon centroid with a division guard. */
static struct pt centroid_fx(const struct pt *poly, int n)
{
	long a2 = 0, cx = 0, cy = 0;
	struct pt c = { 0, 0 };
	int i;

	for (i = 0; i < n; i++) {
		struct pt p = poly[i], q = poly[(i + 1) % n];
		long cr = p.x * q.y - q.x * p.y;

		a2 += cr;
		cx += (p.x + q.x) * cr;
		cy += (p.y + q.y) * cr;
	}
	if (a2 == 0)
		return c;
	c.x = (cx << 16) / (3 * a2);
	c.y = (cy << 16) / (3 * a2);
	return c;
}

static int classify(long v)
{
	return v == 0 ? 0 : v > 1000 ? (v > 100000 ? 3 : 2) : v < -1000 ? -2 : v > 0 ? 1 : -1;
}

#define NP 160
#define NS 80

int main(int argc, char **argv)
{
	static struct pt pts[NP];
	static struct pt segs[NS][2];
	static struct pt poly[12];
	long sorted[NP];
	int i, j, hits[3] = { 0, 0, 0 }, inpoly[3] = { 0, 0, 0 }, cls[7] = { 0 };
	unsigned long h = 0;
	int rounds = argc > 1 ? atoi(argv[1]) : 3;

	/* A star-shaped 12-gon with integer vertices. */
	{
		static const long r[12] = { 100, 40, 100, 55, 100, 40, 100, 60, 100, 40, 100, 50 };
		static const long cs[12][2] = { { 1000, 0 }, { 866, 500 }, { 500, 866 }, { 0, 1000 },
						 { -500, 866 }, { -866, 500 }, { -1000, 0 },
						 { -866, -500 }, { -500, -866 }, { 0, -1000 },
						 { 500, -866 }, { 866, -500 } };

		for (i = 0; i < 12; i++) {
			poly[i].x = r[i] * cs[i][0] / 1000;
			poly[i].y = r[i] * cs[i][1] / 1000;
		}
	}
	for (int round = 0; round < rounds; round++) {
		for (i = 0; i < NP; i++) {
			pts[i].x = rnd(-120, 120);
			pts[i].y = rnd(-120, 120);
			if (i % 17 == 0)
				pts[i] = poly[i % 12];
		}
		for (i = 0; i < NS; i++) {
			segs[i][0].x = rnd(-50, 50);
			segs[i][0].y = rnd(-50, 50);
			segs[i][1].x = segs[i][0].x + rnd(-20, 20);
			segs[i][1].y = i % 5 == 0 ? segs[i][0].y : segs[i][0].y + rnd(-20, 20);
		}
		for (i = 0; i < NS; i++)
			for (j = i + 1; j < NS; j++) {
				struct box a = bbox(segs[i], 2), b = bbox(segs[j], 2);

				if (!box_overlap(a, b)) {
					hits[0]++;
					continue;
				}
				hits[seg_intersect(segs[i][0], segs[i][1], segs[j][0], segs[j][1])]++;
			}
		for (i = 0; i < NP; i++)
			inpoly[point_in_poly(poly, 12, pts[i])]++;
		sort_pts(pts, NP);
		for (i = 0; i < NP; i++) {
			sorted[i] = pts[i].x * 7 - pts[i].y * 3;
			cls[classify(sorted[i] * (i - NP / 2)) + 3]++;
		}
		sort_longs(sorted, NP);
		for (i = 0; i < NP; i++)
			h = h * 31 + (unsigned long)sorted[i];
		h ^= (unsigned long)closest_pair(pts, NP);
		{
			struct pt c = centroid_fx(poly, 12);
			struct box bb = bbox(pts, NP);

			h += (unsigned long)(c.x ^ c.y) + (unsigned long)(bb.x0 + bb.y1 * 3);
		}
	}
	printf("hits: none=%d cross=%d touch=%d\n", hits[0], hits[1], hits[2]);
	printf("poly: out=%d in=%d edge=%d\n", inpoly[0], inpoly[1], inpoly[2]);
	printf("cls:");
	for (i = 0; i < 7; i++)
		printf(" %d", cls[i]);
	printf("\nhash: %016lx\n", h);
	memset(pts, 0, sizeof pts);
	return 0;
}
