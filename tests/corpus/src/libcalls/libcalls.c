/* libc calls: strtol on argv, malloc/realloc/free, memcpy/memmove/memset, strcmp, snprintf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses one argument as a number in any base strtol accepts; exits on junk. */
static long parse(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (end == s || *end) {
		fprintf(stderr, "bad number '%s'\n", s);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "delta", "alpha", "echo", "charlie", "bravo" };
	char buf[128];
	char *grow = NULL;
	size_t len = 0, cap = 0;
	long total = 0;
	int i, j, less = 0;
	long *v;

	if (argc < 2) {
		fprintf(stderr, "usage: %s NUMBER...\n", argv[0]);
		return 1;
	}
	/* Only argv[1..] are printed: argv[0] is the same in every run but is not data. */
	for (i = 1; i < argc; i++) {
		long x = parse(argv[i]);

		total += x;
		printf("arg %d = %ld\n", i, x);
	}
	v = malloc((size_t)(argc - 1) * sizeof(*v));
	if (!v)
		return 2;
	for (i = 1; i < argc; i++)
		v[i - 1] = parse(argv[i]);
	for (i = 0; i < 200; i++) {
		int n = snprintf(buf, sizeof(buf), "[%d:%ld]", i, v[i % (argc - 1)] * i);

		if (len + (size_t)n + 1 > cap) {
			cap = cap ? cap * 2 : 16;
			while (cap < len + (size_t)n + 1)
				cap *= 2;
			grow = realloc(grow, cap);
			if (!grow)
				return 2;
		}
		memcpy(grow + len, buf, (size_t)n + 1);
		len += (size_t)n;
	}
	memmove(grow + 1, grow, 40);
	memset(grow, '#', 1);
	printf("len=%zu cap=%zu head=%.30s tail=%s\n", len, cap, grow, grow + len - 16);
	for (i = 0; i < 5; i++)
		for (j = 0; j < 5; j++)
			less += strcmp(names[i], names[j]) < 0;
	printf("less=%d total=%ld strlen=%zu\n", less, total, strlen(grow));
	printf("%s %s %d\n", strstr(grow, "[99:"), strchr(names[3], 'r'), atoi("  -77x"));
	free(v);
	free(grow);
	return 0;
}
