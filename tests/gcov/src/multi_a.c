/* Two-TU program, part one: main. */
#include <stdio.h>
#include "multi.h"

int main(void)
{
	int v[16];
	for (int i = 0; i < 16; i++)
		v[i] = clamp(i * 5 - 20, -10, 40);
	printf("%d\n", accumulate(v, 16));
	return 0;
}
