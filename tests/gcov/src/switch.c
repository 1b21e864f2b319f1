/* A switch with fall-through and a default, called over a range. */
#include <stdio.h>

int classify(int v)
{
	int r = 0;
	switch (v % 7) {
	case 0:
		r += 1;
		/* fall through */
	case 1:
		r += 2;
		break;
	case 2:
	case 3:
		r = v * 3;
		break;
	case 5:
		return -1;
	default:
		r = v;
	}
	return r;
}

int main(void)
{
	long t = 0;
	for (int i = 0; i < 50; i++)
		t += classify(i);
	printf("%ld\n", t);
	return t == 0;
}
