/* The benchmark workload: a compute-heavy mix (sieve, insertion/merge
 * sort, matrix multiply, hashing, a switch-driven interpreter, recursion)
 * whose length scales with argv[1] rounds (~20M instructions per 10
 * rounds). Deterministic; prints a checksum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 12345;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static int sieve(int n)
{
	static char comp[20000];
	int count = 0;
	memset(comp, 0, sizeof(comp));
	for (int i = 2; i < n; i++) {
		if (comp[i])
			continue;
		count++;
		for (int j = 2 * i; j < n; j += i)
			comp[j] = 1;
	}
	return count;
}

static void merge_sort(int *a, int *tmp, int n)
{
	if (n < 16) {
		for (int i = 1; i < n; i++) {
			int v = a[i], j = i - 1;
			while (j >= 0 && a[j] > v) {
				a[j + 1] = a[j];
				j--;
			}
			a[j + 1] = v;
		}
		return;
	}
	int h = n / 2;
	merge_sort(a, tmp, h);
	merge_sort(a + h, tmp, n - h);
	int i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
	while (i < h)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, (size_t)n * sizeof(*a));
}

static uint32_t matmul(int n)
{
	static uint32_t a[24][24], b[24][24], c[24][24];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			a[i][j] = next() & 0xff;
			b[i][j] = next() & 0xff;
		}
	uint32_t s = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			uint32_t acc = 0;
			for (int k = 0; k < n; k++)
				acc += a[i][k] * b[k][j];
			c[i][j] = acc;
			s += acc;
		}
	return s + c[1][2];
}

static uint32_t interp(int steps)
{
	uint32_t acc = 1, pc = 0;
	static const uint8_t prog[16] = {0, 1, 2, 3, 4, 5, 6, 7,
	                                 1, 3, 5, 7, 0, 2, 4, 6};
	for (int i = 0; i < steps; i++) {
		switch (prog[pc & 15]) {
		case 0: acc += 3; break;
		case 1: acc ^= acc << 3; break;
		case 2: acc *= 7; break;
		case 3: acc -= pc; break;
		case 4: acc = (acc >> 1) | (acc << 31); break;
		case 5: pc += acc & 1; break;
		case 6: acc += next() & 7; break;
		default: acc = ~acc; break;
		}
		pc++;
	}
	return acc;
}

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	static int arr[4096], tmp[4096];
	uint32_t check = 0;
	for (int r = 0; r < rounds; r++) {
		check += (uint32_t)sieve(20000);
		for (int i = 0; i < 4096; i++)
			arr[i] = (int)(next() % 100000);
		merge_sort(arr, tmp, 4096);
		check += (uint32_t)arr[100];
		check += matmul(24);
		check += interp(20000);
		check += (uint32_t)fib(18);
	}
	printf("%u\n", check);
	return 0;
}
