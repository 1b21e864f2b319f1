/* Synchronous signals: handlers run by raise() and kill(getpid()), sigaction with
 * SA_RESTART and SA_SIGINFO, signal masks, atexit handlers, constructor/destructor
 * functions, and exit() called from deep inside a recursion. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t nusr1;	/* SIGUSR1 deliveries */
static volatile sig_atomic_t nusr2;	/* SIGUSR2 deliveries */
static volatile sig_atomic_t last_code;	/* si_code of the last SIGUSR2 */
static unsigned long acc = 1;		/* running checksum */
static int ctor_ran;			/* set by the constructor */

/* Runs before main. */
__attribute__((constructor)) static void early(void)
{
	int i;

	for (i = 0; i < 50; i++)
		acc = acc * 31 + (unsigned long)i;
	ctor_ran = 1;
}

/* Runs after main returns or exit() is called, after the atexit handlers. */
__attribute__((destructor)) static void late(void)
{
	printf("destructor acc=%lu\n", acc % 1000003);
	fflush(stdout);
}

/* Plain handler for SIGUSR1: mixes the count into acc. */
static void on_usr1(int sig)
{
	nusr1++;
	acc = acc * 7 + (unsigned long)sig + (unsigned long)nusr1;
	if (nusr1 % 5 == 0)
		acc ^= 0x5a5a;
}

/* SA_SIGINFO handler for SIGUSR2: records the sender's code. */
static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	nusr2++;
	last_code = si->si_code;
	acc += (unsigned long)sig * (unsigned long)nusr2;
}

/* Handler that raises another signal from inside itself (nested delivery). */
static void on_hup(int sig)
{
	acc = acc * 3 + (unsigned long)sig;
	raise(SIGUSR1);
}

/* atexit handlers, run in reverse order of registration. */
static void bye1(void)
{
	printf("bye1 usr1=%d usr2=%d\n", (int)nusr1, (int)nusr2);
}

static void bye2(void)
{
	printf("bye2 acc=%lu\n", acc % 1000003);
}

/* Work loop: some arithmetic plus a signal every few iterations. */
static unsigned long churn(int n)
{
	unsigned long h = 0;
	int i;

	for (i = 0; i < n; i++) {
		h = h * 131 + (unsigned long)(i ^ (i >> 3));
		if (i % 97 == 0)
			raise(SIGUSR1);
		else if (i % 211 == 0)
			kill(getpid(), SIGUSR2);
		else if (i % 503 == 0)
			raise(SIGHUP);
	}
	return h;
}

/* Recursion that exits the program from depth `stop`. */
__attribute__((noinline)) static int dive(int depth, int stop)
{
	if (depth == stop) {
		printf("exit from depth %d acc=%lu\n", depth, acc % 1000003);
		exit(0);
	}
	if (depth > 1000)
		return -1;
	if (depth % 4 == 3)
		raise(SIGUSR1);
	return dive(depth + 1, stop) + depth;
}

/* Blocks SIGUSR1, raises it several times (one stays pending), unblocks. */
static void masked(void)
{
	sigset_t set, old;
	int i;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	for (i = 0; i < 3; i++)
		raise(SIGUSR1);
	printf("pending while masked: usr1=%d\n", (int)nusr1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("after unmask: usr1=%d\n", (int)nusr1);
}

int main(void)
{
	struct sigaction sa;
	unsigned long h;
	int round;

	if (!ctor_ran)
		return 1;
	atexit(bye1);
	atexit(bye2);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr2;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	signal(SIGHUP, on_hup);

	for (round = 0; round < 6; round++) {
		h = churn(2000 + round * 300);
		acc += h % 65521;
		printf("round %d h=%lu usr1=%d usr2=%d code=%d\n", round, h % 100003,
		       (int)nusr1, (int)nusr2, last_code == SI_USER ? 0 :
		       last_code == SI_TKILL ? 1 : 2);
	}
	masked();
	signal(SIGHUP, SIG_IGN);
	raise(SIGHUP);
	printf("ignored hup acc=%lu\n", acc % 1000003);
	return dive(0, 40);
}
