/* A process that forks: the child works, exits; the parent waits, works,
 * exits (check_fork.py). */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += (i % 3) ? i : -i;
	return s;
}

int main(void)
{
	fflush(stdout);
	pid_t p = fork();
	if (p < 0)
		return 1;
	if (p == 0) {
		printf("child %d\n", work(100));
		return 0;
	}
	int st;
	waitpid(p, &st, 0);
	printf("parent %d %d\n", work(50), WEXITSTATUS(st));
	return 0;
}
