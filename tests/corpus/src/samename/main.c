/* samename: calls into two units whose static functions share names and line numbers. */
#include <stdio.h>
#include "samename.h"

int main(void)
{
	long l = 0, r = 0;
	int k;

	for (k = 1; k <= 40; k++) {
		l += left_run(k * 10) & 0xffff;
		r += right_run(k * 7) & 0xffff;
	}
	printf("left=%ld right=%ld\n", l, r);
	return 0;
}
