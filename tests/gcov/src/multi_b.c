/* Two-TU program, part two: a helper using the shared inline. */
#include "multi.h"

int accumulate(const int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += clamp(v[i], 0, 30);
	return s;
}
