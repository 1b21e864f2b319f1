/* A small libc program for the objdump cross-check: it is only compiled and
 * disassembled (statically linked, so all of libc's code is checked too),
 * but it also runs and prints something sensible. It pulls in stdio,
 * qsort, setjmp/longjmp, a dense switch, floating point, fenv (CSR access)
 * and atomics. */
#include <fenv.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf env;
static atomic_int counter;

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static const char *day(int d)
{
	switch (d) {
	case 0: return "sun";
	case 1: return "mon";
	case 2: return "tue";
	case 3: return "wed";
	case 4: return "thu";
	case 5: return "fri";
	case 6: return "sat";
	default: return "?";
	}
}

static void deep(int n)
{
	if (n == 0)
		longjmp(env, 42);
	deep(n - 1);
}

int main(int argc, char **argv)
{
	int v[] = {5, 3, 9, 1, 7, 2, 8};
	size_t n = sizeof(v) / sizeof(v[0]), i;
	double acc = 0.0;
	float facc = 1.0f;
	int r;

	qsort(v, n, sizeof(v[0]), cmp_int);
	for (i = 0; i < n; i++) {
		acc += v[i] / 3.0;
		facc *= (float)v[i] * 0.5f;
		atomic_fetch_add(&counter, v[i]);
	}
#ifdef FE_TOWARDZERO /* soft-float RV32 has no rounding modes */
	fesetround(FE_TOWARDZERO);
#else
#define FE_TOWARDZERO 0
#endif
	r = setjmp(env);
	if (r == 0)
		deep(argc + 3);
	printf("%s %d %.3f %.1f %d %s %d\n", day(argc % 8), r, acc,
	       (double)facc, atomic_load(&counter), argv[0] ? "x" : "",
	       fegetround() == FE_TOWARDZERO);
	return (int)strlen(argv[0]) == 0;
}
