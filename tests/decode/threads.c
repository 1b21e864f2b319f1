/* A multi-threaded program for check_threads.py: threads doing different
 * deterministic work on disjoint data (no races, so each thread's own
 * instruction sequence is the same in every run however they interleave).
 * Two run at once (a barrier holds both until the main thread is there
 * too); a third starts after they were joined, so qemu-user gives it a
 * vCPU index one of them had. */
#include <pthread.h>
#include <stdio.h>

static pthread_barrier_t all_up;
static long out_sum, out_fib, out_sieve;

static void *sum_squares(void *arg)
{
	long n = (long)arg, s = 0;

	pthread_barrier_wait(&all_up);
	for (long i = 0; i < n; i++)
		if (i % 3)
			s += i * i;
	out_sum = s;
	return NULL;
}

static long fib(long n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void *fib_worker(void *arg)
{
	pthread_barrier_wait(&all_up);
	out_fib = fib((long)arg);
	return NULL;
}

static void *sieve(void *arg)
{
	static char composite[2000];
	long n = (long)arg, count = 0;

	for (long i = 2; i < n; i++) {
		if (composite[i])
			continue;
		count++;
		for (long j = i * i; j < n; j += i)
			composite[j] = 1;
	}
	out_sieve = count;
	return NULL;
}

int main(void)
{
	pthread_t a, b, c;

	pthread_barrier_init(&all_up, NULL, 3);
	pthread_create(&a, NULL, sum_squares, (void *)3000L);
	pthread_create(&b, NULL, fib_worker, (void *)15L);
	pthread_barrier_wait(&all_up);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_create(&c, NULL, sieve, (void *)2000L);
	pthread_join(c, NULL);
	printf("%ld %ld %ld\n", out_sum, out_fib, out_sieve);
	return 0;
}
