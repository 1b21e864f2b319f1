/* Recovering from real faults: a SIGSEGV handler (sigaction with
 * SA_SIGINFO) that siglongjmps back into a probing loop, an alarm-free
 * SIGFPE raised explicitly, and a SIGILL from an illegal instruction,
 * each counted; a table walk that reads through some bad pointers. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf env;
static volatile sig_atomic_t segv, fpe, ill;
static volatile uintptr_t last_addr;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	switch (sig) {
	case SIGSEGV:
		segv++;
		last_addr = (uintptr_t)si->si_addr;
		break;
	case SIGFPE:
		fpe++;
		break;
	default:
		ill++;
	}
	siglongjmp(env, sig);
}

static long probe_read(const long *p)
{
	volatile long v;
	if (sigsetjmp(env, 1))
		return -1;
	v = *p;
	return v;
}

static int illegal(int k)
{
	if (sigsetjmp(env, 1))
		return -k;
	if (k % 3 == 0)
		__asm__ volatile(".word 0" ::: "memory");
	return k;
}

int main(void)
{
	struct sigaction sa;
	static long good[4] = { 11, 22, 33, 44 };
	const long *ptrs[8];
	long sum = 0;
	int i, r = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	for (i = 0; i < 8; i++)
		ptrs[i] = (i % 3 == 1) ? (const long *)(uintptr_t)(16 * i) : &good[i % 4];
	for (i = 0; i < 8; i++) {
		long v = probe_read(ptrs[i]);
		printf("read %d -> %ld\n", i, v);
		if (v > 0)
			sum += v;
	}
	printf("sum %ld segv %d last %lx\n", sum, (int)segv, (unsigned long)last_addr);
	for (i = 0; i < 7; i++)
		r += illegal(i);
	printf("ill %d r %d\n", (int)ill, r);
	if (sigsetjmp(env, 1) == 0)
		raise(SIGFPE);
	printf("fpe %d\n", (int)fpe);
	return 0;
}
