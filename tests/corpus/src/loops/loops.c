/* Nested loops: matrix multiply, a prime sieve, and a triangular loop nest with early exits. */
#include <stdio.h>

#define M 24

static int sieve[20000];	/* sieve[i] != 0 when i is composite */

int main(void)
{
	static long a[M][M], b[M][M], c[M][M];
	long trace = 0, tri = 0;
	int i, j, k, primes = 0, last = 0;

	for (i = 0; i < M; i++)
		for (j = 0; j < M; j++) {
			a[i][j] = (i * 3 + j) % 7 - 3;
			b[i][j] = (i + j * 5) % 11 - 5;
		}
	for (i = 0; i < M; i++)
		for (j = 0; j < M; j++) {
			long s = 0;

			for (k = 0; k < M; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
	for (i = 0; i < M; i++)
		trace += c[i][i];
	for (i = 2; i < 20000; i++) {
		if (sieve[i])
			continue;
		primes++;
		last = i;
		for (j = i * 2; j < 20000; j += i)
			sieve[j] = 1;
	}
	for (i = 0; i < 200; i++) {
		for (j = 0; j < i; j++) {
			if ((i ^ j) % 13 == 0)
				break;
			for (k = j; k < i; k += 7)
				tri += (i * j + k) & 15;
		}
	}
	printf("trace=%ld c01=%ld primes=%d last=%d tri=%ld\n", trace, c[0][1], primes, last, tri);
	return 0;
}
