/* Control flow the other programs lack: switch with fallthrough and a default in
 * the middle, a goto-based state machine, while (1) with several exits, labelled
 * breaks out of nested loops via goto, continue in nested loops, empty-bodied for
 * loops, constant-folded branches and short-circuit conditions in returns. */
#include <stdio.h>
#include <string.h>

#define DEBUG_LEVEL 0

/* Fallthrough chains, and a default that is neither first nor last. */
static int classify(int v)
{
	int r = 0;

	switch (v % 9) {
	case 0:
		r += 1;
		/* fall through */
	case 1:
		r += 2;
		/* fall through */
	case 2:
		r += 4;
		break;
	default:
		r += 100;
		/* fall through */
	case 5:
		r += 8;
		break;
	case 6:
	case 7:
		r += 16;
		if (v & 1)
			break;
		r += 32;
		/* fall through */
	case 8:
		r += 64;
	}
	return r;
}

/* Number scanner as a goto state machine: counts integers, hex numbers and
 * words in a string. */
static void scan(const char *s, int *nint, int *nhex, int *nword)
{
	const char *p = s;

start:
	if (*p == '\0')
		goto done;
	if (*p == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		goto hex;
	}
	if (*p >= '0' && *p <= '9')
		goto dec;
	if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
		goto word;
	p++;
	goto start;
dec:
	while (*p >= '0' && *p <= '9')
		p++;
	(*nint)++;
	goto start;
hex:
	while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
		p++;
	(*nhex)++;
	goto start;
word:
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
		p++;
	(*nword)++;
	goto start;
done:
	return;
}

/* while (1) with three exits: a hit, a sentinel, a limit. */
static int search(const int *a, int n, int key)
{
	int i = 0;

	while (1) {
		if (i >= n)
			return -1;
		if (a[i] == key)
			break;
		if (a[i] < 0)
			return -2 - i;
		i++;
	}
	return i;
}

/* First pair (i, j) with a[i] * b[j] == target, skipping odd rows and zero
 * columns; leaves both loops with a goto. */
static int find_pair(const int *a, const int *b, int n, int target)
{
	int i, j, skipped = 0;

	for (i = 0; i < n; i++) {
		if (a[i] & 1) {
			skipped++;
			continue;
		}
		for (j = 0; j < n; j++) {
			if (b[j] == 0)
				continue;
			if (a[i] * b[j] == target)
				goto found;
		}
	}
	return -skipped;
found:
	return i * 100 + j;
}

/* Empty-bodied loops: string length and the first non-space. */
static int trimmed_len(const char *s)
{
	const char *e;

	for (; *s == ' '; s++)
		;
	for (e = s; *e; e++)
		;
	for (; e > s && e[-1] == ' '; e--)
		;
	return (int)(e - s);
}

/* Short-circuit conditions in return statements. */
static int in_range(int v, int lo, int hi)
{
	return v >= lo && v <= hi;
}

static int odd_or_big(int v)
{
	return (v & 1) || v > 40 || (v < -5 && v != -10);
}

static int tally(int v)
{
	int r = 0;

	/* Folded away at every level. */
	if (DEBUG_LEVEL > 1)
		printf("tally %d\n", v);
	if (sizeof(long) == 8)
		r += 1;
	r += in_range(v, 10, 30) * 2;
	r += odd_or_big(v) * 4;
	return r;
}

int main(void)
{
	static const char *texts[] = {
		"abc 123 0x1f zz 9", "  0xdeadbeef and 42 more  ", "", "x0 0 0x",
		"Hello, World 2024!",
	};
	int a[32], b[32];
	int i, k, sum = 0;

	for (i = 0; i < 300; i++)
		sum += classify(i * 7 + (i >> 3));
	printf("classify %d\n", sum);

	for (k = 0; k < 40; k++) {
		for (i = 0; i < 5; i++) {
			int ni = 0, nh = 0, nw = 0;

			scan(texts[(i + k) % 5], &ni, &nh, &nw);
			sum += ni + 3 * nh + 7 * nw;
		}
	}
	printf("scan %d\n", sum);

	for (i = 0; i < 32; i++) {
		a[i] = (i * 37) % 29 - (i == 27 ? 40 : 0);
		b[i] = (i * 11) % 7;
	}
	sum = 0;
	for (k = 0; k < 60; k++)
		sum += search(a, 32 - (k % 5), (k * 13) % 31);
	printf("search %d\n", sum);

	sum = 0;
	for (k = 1; k < 120; k++)
		sum += find_pair(a, b, 32, k * 2);
	printf("pairs %d\n", sum);

	sum = 0;
	for (k = 0; k < 200; k++)
		sum += trimmed_len(texts[k % 5] + (k % 3 == 0 && strlen(texts[k % 5]) > 2));
	printf("trim %d\n", sum);

	sum = 0;
	for (k = -50; k < 50; k++)
		sum += tally(k);
	printf("tally %d\n", sum);
	return 0;
}
