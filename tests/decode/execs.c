/* A child that execs (check_fork.py): a failing execve (the program goes
 * on), some work, then an execve that replaces it. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += (i & 1) ? i : -i;
	return s;
}

int main(void)
{
	fflush(stdout);
	pid_t p = fork();
	if (p < 0)
		return 1;
	if (p == 0) {
		execl("/nonexistent/prog", "prog", (char *)0);
		printf("child %d\n", work(60));
		fflush(stdout);
		execl("/bin/true", "true", (char *)0);
		_exit(127);
	}
	int st;
	waitpid(p, &st, 0);
	printf("parent %d %d\n", work(40), WEXITSTATUS(st));
	return 0;
}
