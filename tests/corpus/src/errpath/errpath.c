/* Error paths: unlikely branches gcc -O2 moves into f.cold, cold and noreturn functions,
 * goto-based error exits and retries, early returns, do-while loops, abort on paths that
 * never run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define unlikely(x) __builtin_expect(!!(x), 0)
/* gcc does not split functions into hot and cold parts on riscv64 by default: these do. */
#define SPLIT __attribute__((optimize("reorder-blocks-and-partition")))

struct stats {
	int ok;		/* values accepted */
	int bad;	/* malformed values */
	int retries;	/* records restarted after an error */
	int cls[5];	/* accepted values per class */
	long sum;	/* sum of accepted values */
};

static int nerr;	/* errors reported */

/* Reports an error: cold, so the blocks calling it move to their function's .cold part. */
__attribute__((cold, noinline)) static void report(const char *what, long v)
{
	if (++nerr <= 4)
		printf("error %d: %s (%ld)\n", nerr, what, v);
}

/* Prints the summary and ends the program with status 0: never returns. */
__attribute__((noreturn, noinline)) static void finish(const struct stats *st)
{
	printf("ok=%d bad=%d retries=%d sum=%ld errors=%d cls=%d,%d,%d,%d,%d\n", st->ok,
	       st->bad, st->retries, st->sum, nerr, st->cls[0], st->cls[1], st->cls[2],
	       st->cls[3], st->cls[4]);
	fflush(stdout);
	exit(0);
}

/* Allocates or aborts (the abort never runs). */
static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (unlikely(p == NULL)) {
		fputs("out of memory\n", stderr);
		abort();
	}
	return p;
}

/* Parses a signed decimal number at *sp into *out and advances *sp. Returns 0, or -1
 * for a malformed number (reported, skipped up to the next separator). */
SPLIT static int parse_num(const char **sp, long *out)
{
	const char *s = *sp;
	long v = 0;
	int neg = 0, digits = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (unlikely(*s < '0' || *s > '9'))
		goto bad;
	do {
		v = v * 10 + (*s++ - '0');
		if (unlikely(++digits > 9))
			goto bad;
	} while (*s >= '0' && *s <= '9');
	*out = neg ? -v : v;
	*sp = s;
	return 0;
bad:
	report("malformed number", (long)(s - *sp));
	while (*s && *s != ',' && *s != ';')
		s++;
	*sp = s;
	return -1;
}

/* Class of a value, with an early return for each. */
static int classify(long v)
{
	if (v == 0)
		return 0;
	if (v < 0 && v > -100)
		return 1;
	if (unlikely(v <= -100))
		return 2;
	if (v < 1000)
		return 3;
	return 4;
}

/* Processes one record "v,v,...;v,...": a malformed value before a ';' restarts the
 * record's next group (at most twice), others are skipped. */
SPLIT __attribute__((noinline)) static void process(const char *line, struct stats *st)
{
	const char *s = line;
	int attempt = 0;
	long v;

	if (unlikely(line == NULL))
		abort();
retry:
	while (*s) {
		if (parse_num(&s, &v) < 0) {
			st->bad++;
			if (*s == ';' && attempt++ < 2) {
				s++;
				st->retries++;
				goto retry;
			}
			if (*s)
				s++;
			continue;
		}
		int c = classify(v);
		st->cls[c]++;
		if (unlikely(c == 2)) {
			report("value too small", v);
			continue;
		}
		st->ok++;
		st->sum += v;
		if (*s == ',' || *s == ';')
			s++;
		else if (unlikely(*s != 0))
			report("junk after value", *s++);
	}
}

/* Copies a record into a fresh buffer and checks it (the copy never fails). */
static char *dup_record(const char *src)
{
	size_t n = strlen(src);
	char *p = xmalloc(n + 1);

	memcpy(p, src, n + 1);
	if (unlikely(p[n] != 0))
		abort();
	return p;
}

static const char *const records[] = {
	"1,2,3;40,500,6000",
	"7,-8,x9,10;11",
	"12345678901,5;6,7",
	"-150,3,4;-1,0,0",
	"abc;def;ghi;42",
	"99,98,97,96,95,94,93,92,91,90",
	"1;2;3;4;5;6;7;8",
	"0,0,0,-99,-100,100,1000",
};

SPLIT int main(void)
{
	struct stats st;
	int round = 0;

	memset(&st, 0, sizeof(st));
	do {
		for (size_t i = 0; i < sizeof(records) / sizeof(records[0]); i++) {
			char *r = dup_record(records[i]);
			process(r, &st);
			free(r);
		}
	} while (++round < 20);
	finish(&st);
}
