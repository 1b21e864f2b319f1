/* Sparse matrices in CSR form: build, multiply, transform. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#define MAXN 64
#define MAXNZ 768

struct csr {
	int n;
	int nnz;
	int rowptr[MAXN + 1];
	int col[MAXNZ];
	long val[MAXNZ];
};

static uint32_t seed = 0x2545f491u;
static int errors;
static char errbuf[64];

static uint32_t rnd(void)
{
	seed = seed * 1664525u + 1013904223u;
	return seed >> 9;
}

static __attribute__((noinline)) void report(const char *what, int a, int b)
{
	errors++;
	snprintf(errbuf, sizeof errbuf, "%s(%d,%d)", what, a, b);
}

/* Builds a CSR matrix of size n with density percent; some rows stay empty. */
static int build(struct csr *m, int n, int density, int empty_every)
{
	int nz = 0;
	if (__builtin_expect(n > MAXN || n <= 0, 0)) {
		report("size", n, MAXN);
		return -1;
	}
	m->n = n;
	for (int r = 0; r < n; r++) {
		m->rowptr[r] = nz;
		if (empty_every && r % empty_every == empty_every - 1)
			continue;
		for (int c = 0; c < n; c++) {
			if ((int)(rnd() % 100) >= density && c != r)
				continue;
			if (__builtin_expect(nz >= MAXNZ, 0)) {
				report("full", r, c);
				m->rowptr[r + 1] = nz;
				m->nnz = nz;
				for (int k = r + 1; k < n; k++)
					m->rowptr[k + 1] = nz;
				return -2;
			}
			m->col[nz] = c;
			m->val[nz] = (long)(rnd() % 19) - 9;
			nz++;
		}
	}
	m->rowptr[n] = nz;
	m->nnz = nz;
	return 0;
}

static long get(const struct csr *m, int r, int c)
{
	if (__builtin_expect(r < 0 || r >= m->n || c < 0 || c >= m->n, 0)) {
		report("get", r, c);
		return 0;
	}
	int lo = m->rowptr[r], hi = m->rowptr[r + 1] - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (m->col[mid] == c)
			return m->val[mid];
		if (m->col[mid] < c)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

/* y = op(A) x, op chosen per element. */
static void spmv(const struct csr *m, const long *x, long *y, int op)
{
	for (int r = 0; r < m->n; r++) {
		int row_len = m->rowptr[r + 1] - m->rowptr[r];
		long acc = 0;
		y[r] = 0;
		if (row_len == 0)
			continue;
		for (int k = m->rowptr[r]; k < m->rowptr[r + 1]; k++) {
			long v = m->val[k] * x[m->col[k]];
			switch ((op + k) & 3) {
			case 0:
				acc += v;
				break;
			case 1:
				acc -= v;
				break;
			case 2:
				acc ^= v;
				break;
			default:
				acc = acc > v ? acc : v;
				break;
			}
		}
		y[r] = acc;
	}
}

/* Scales every value; called from two places with constant factors. */
static __attribute__((noinline)) long scale_rows(struct csr *m, long factor, int only_odd)
{
	long sum = 0;
	for (int r = 0; r < m->n; r++) {
		if (only_odd && !(r & 1))
			continue;
		for (int k = m->rowptr[r]; k < m->rowptr[r + 1]; k++) {
			m->val[k] = m->val[k] * factor % 1000003;
			sum += m->val[k];
		}
	}
	return sum;
}

/* C = A * B (row-by-row with a dense accumulator). */
static int multiply(const struct csr *a, const struct csr *b, struct csr *c)
{
	long acc[MAXN];
	unsigned char used[MAXN];
	int nz = 0;
	if (__builtin_expect(a->n != b->n, 0)) {
		report("dim", a->n, b->n);
		return -1;
	}
	c->n = a->n;
	for (int r = 0; r < a->n; r++) {
		c->rowptr[r] = nz;
		int row_len = a->rowptr[r + 1] - a->rowptr[r];
		if (row_len == 0)
			continue;
		memset(used, 0, sizeof used);
		for (int k = a->rowptr[r]; k < a->rowptr[r + 1]; k++) {
			int j = a->col[k];
			for (int l = b->rowptr[j]; l < b->rowptr[j + 1]; l++) {
				int cc = b->col[l];
				if (!used[cc]) {
					used[cc] = 1;
					acc[cc] = 0;
				}
				acc[cc] += a->val[k] * b->val[l];
			}
		}
		for (int cc = 0; cc < a->n; cc++) {
			if (!used[cc] || acc[cc] == 0)
				continue;
			if (__builtin_expect(nz >= MAXNZ, 0)) {
				report("mulfull", r, cc);
				c->rowptr[r + 1] = nz;
				for (int k = r + 1; k < a->n; k++)
					c->rowptr[k + 1] = nz;
				c->nnz = nz;
				return -2;
			}
			c->col[nz] = cc;
			c->val[nz++] = acc[cc];
		}
	}
	c->rowptr[a->n] = nz;
	c->nnz = nz;
	return 0;
}

static void transpose(const struct csr *a, struct csr *t)
{
	int count[MAXN + 1] = { 0 };
	t->n = a->n;
	t->nnz = a->nnz;
	for (int k = 0; k < a->nnz; k++)
		count[a->col[k] + 1]++;
	for (int i = 0; i < a->n; i++)
		count[i + 1] += count[i];
	memcpy(t->rowptr, count, sizeof(int) * (a->n + 1));
	for (int r = 0; r < a->n; r++)
		for (int k = a->rowptr[r]; k < a->rowptr[r + 1]; k++) {
			int dst = count[a->col[k]]++;
			t->col[dst] = r;
			t->val[dst] = a->val[k];
		}
}

/* Two helpers with the same body: gcc -O2 may fold them into one (ipa-icf). */
static __attribute__((noinline)) long row_weight(const struct csr *m, int r)
{
	long w = 0;
	for (int k = m->rowptr[r]; k < m->rowptr[r + 1]; k++)
		w += m->val[k] < 0 ? -m->val[k] : m->val[k];
	return w;
}

static __attribute__((noinline)) long col_weight(const struct csr *m, int r)
{
	long w = 0;
	for (int k = m->rowptr[r]; k < m->rowptr[r + 1]; k++)
		w += m->val[k] < 0 ? -m->val[k] : m->val[k];
	return w;
}

static unsigned long checksum(const struct csr *m)
{
	unsigned long h = (unsigned long)m->nnz;
	for (int r = 0; r < m->n; r++)
		for (int k = m->rowptr[r]; k < m->rowptr[r + 1]; k++)
			h = h * 31 + (unsigned long)(m->val[k] * (r + 1) + m->col[k]);
	return h;
}

static struct csr A, B, C, T;

int main(void)
{
	long x[MAXN], y[MAXN];
	static const int sizes[] = { 8, 20, 33, 48, 56, 70 };
	for (unsigned t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
		int n = sizes[t];
		int rc = build(&A, n, 10 + 5 * (int)t, t % 3 + 2);
		if (rc == -1) {
			printf("n=%d: build failed %s\n", n, errbuf);
			continue;
		}
		build(&B, n, 6 + 3 * (int)t, 0);
		for (int i = 0; i < n; i++)
			x[i] = (long)(rnd() % 7) - 3;
		unsigned long s = 0;
		for (int op = 0; op < 4; op++) {
			spmv(&A, x, y, op);
			for (int i = 0; i < n; i++)
				s = s * 3 + (unsigned long)y[i];
		}
		rc = multiply(&A, &B, &C);
		transpose(&C, &T);
		long s1 = scale_rows(&B, 3, 0);
		long s2 = scale_rows(&A, 3, 1);
		printf("n=%d rc=%d nnzA=%d nnzB=%d nnzC=%d spmv=%lu cs=%lu/%lu scale=%ld/%ld\n", n, rc,
		       A.nnz, B.nnz, C.nnz, s, checksum(&C), checksum(&T), s1, s2);
		long wr = 0, wc = 0;
		for (int i = 0; i < n; i++) {
			wr += row_weight(&A, i);
			if (i % 3 == 0)
				wc += col_weight(&T, i);
		}
		printf("  weights: %ld %ld\n", wr, wc);
		printf("  get: %ld %ld %ld %ld\n", get(&A, 0, 0), get(&C, n / 2, n / 3),
		       get(&T, n - 1, 1), get(&A, n, 0));
	}
	B.n = 5;
	printf("dim: %d\n", multiply(&A, &B, &C));
	printf("errors=%d last=%s\n", errors, errbuf);
	return 0;
}
