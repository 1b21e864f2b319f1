/* Nested loops, an early exit and a never-called function, for gcov tests. */
#include <stdio.h>
#include <stdlib.h>

static int sq(int x)
{
	return x * x;
}

int never_called(int a)
{
	if (a > 3)
		return a;
	return -a;
}

int work(int n, int k)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (i % k)
			s += sq(i);
		else
			s -= i;
		for (int j = 0; j < i; j++)
			if (j == 7)
				break;
	}
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	printf("%d\n", work(n, 3));
	return 0;
}
