/* Shared inline helper: its lines appear in both TUs' gcno LINES records. */
static inline int clamp(int v, int lo, int hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

int accumulate(const int *v, int n);
