/* Hand-written merge sort, quicksort and insertion sort on the same data. */
#include <stdio.h>
#include <string.h>

#define N 1500

static int data[N];	/* the unsorted input, regenerated per algorithm */
static int tmp[N];	/* merge sort's scratch buffer */

/* Fills data[] with a fixed pseudo-random permutation-like sequence. */
static void fill(void)
{
	unsigned int x = 2463534242u;
	int i;

	for (i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		data[i] = (int)(x % 10007) - 5000;
	}
}

/* Sorts a[lo, hi) ascending using tmp[] for the merge. */
static void merge_sort(int *a, int lo, int hi)
{
	int mid, i, j, k;

	if (hi - lo < 2)
		return;
	mid = lo + (hi - lo) / 2;
	merge_sort(a, lo, mid);
	merge_sort(a, mid, hi);
	i = lo;
	j = mid;
	k = lo;
	while (i < mid && j < hi)
		tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
	while (i < mid)
		tmp[k++] = a[i++];
	while (j < hi)
		tmp[k++] = a[j++];
	memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof(int));
}

/* Sorts a[lo, hi] ascending (inclusive bounds), Hoare partition, median of three. */
static void quick_sort(int *a, int lo, int hi)
{
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		int p, i = lo - 1, j = hi + 1, t;

		if (a[mid] < a[lo]) { t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
		if (a[hi] < a[lo]) { t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
		if (a[hi] < a[mid]) { t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
		p = a[mid];
		for (;;) {
			do i++; while (a[i] < p);
			do j--; while (a[j] > p);
			if (i >= j)
				break;
			t = a[i]; a[i] = a[j]; a[j] = t;
		}
		/* Recurse into the smaller side to bound the stack depth. */
		if (j - lo < hi - j) {
			quick_sort(a, lo, j);
			lo = j + 1;
		} else {
			quick_sort(a, j + 1, hi);
			hi = j;
		}
	}
}

/* Sorts a[0, n) by insertion; used on a short prefix only. */
static void insertion_sort(int *a, int n)
{
	int i, j, v;

	for (i = 1; i < n; i++) {
		v = a[i];
		for (j = i - 1; j >= 0 && a[j] > v; j--)
			a[j + 1] = a[j];
		a[j + 1] = v;
	}
}

/* Returns a checksum of a[0, n) and 0 in *bad if it is ascending, else 1. */
static unsigned long check(const int *a, int n, int *bad)
{
	unsigned long h = 5381;
	int i;

	*bad = 0;
	for (i = 0; i < n; i++) {
		if (i && a[i - 1] > a[i])
			*bad = 1;
		h = h * 33 + (unsigned int)a[i];
	}
	return h;
}

int main(void)
{
	static int a[N];
	unsigned long h1, h2, h3;
	int bad1, bad2, bad3;

	fill();
	memcpy(a, data, sizeof(a));
	merge_sort(a, 0, N);
	h1 = check(a, N, &bad1);
	memcpy(a, data, sizeof(a));
	quick_sort(a, 0, N - 1);
	h2 = check(a, N, &bad2);
	memcpy(a, data, sizeof(a));
	insertion_sort(a, 300);
	h3 = check(a, 300, &bad3);
	printf("merge %lu %d\nquick %lu %d\ninsertion %lu %d\n", h1, bad1, h2, bad2, h3, bad3);
	printf("min %d max %d median %d\n", a[0], a[299], a[150]);
	return bad1 || bad2 || bad3 || h1 != h2;
}
