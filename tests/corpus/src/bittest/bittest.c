/* Switch shapes gcc lowers without a jump table: case groups over a small range
 * become bit tests ((1 << x) & mask), if-else chains over one variable become a
 * switch (if-to-switch) and then a table or bit test, switches returning constants
 * become a table load (CSWTCH) or arithmetic, `default: __builtin_unreachable()`,
 * __builtin_expect_with_probability, arms ending in the same statements that
 * gcc merges into one tail (cross-jumping), and `&&` chains over values
 * earlier tests decided (jump threading skips them). */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint32_t seed = 0x1234567u;

/* Next pseudo-random number of a fixed LCG (deterministic). */
static uint32_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) & 0xffffffu;
}

/* 1 for an ASCII vowel of either case: one bit test at -O1/-O2. */
static __attribute__((noinline)) int is_vowel(int c)
{
	switch (c) {
	case 'a': case 'e': case 'i': case 'o': case 'u':
	case 'A': case 'E': case 'I': case 'O': case 'U':
		return 1;
	default:
		return 0;
	}
}

/* Class of a punctuation or digit byte: three case groups in one 64-wide range
 * (several bit tests in a row), a single case and a default. */
static int punct_class(int c)
{
	switch (c) {
	case ' ': case '\t': case '\n': case '\r':
		return 1;
	case '(': case ')': case '[': case ']': case '{': case '}':
		return 2;
	case '+': case '-': case '*': case '/': case '%': case '=': case '<': case '>':
		return 3;
	case ';':
		return 4;
	default:
		return 0;
	}
}

/* An if-else chain over one variable (gcc turns it into a switch and then a bit
 * test); the last test on its own line. */
static int is_small_prime(unsigned v)
{
	if (v == 2 || v == 3 || v == 5 || v == 7 || v == 11 || v == 13)
		return 1;
	else if (v == 17 || v == 19 || v == 23 || v == 29 || v == 31)
		return 1;
	else if (v == 37)
		return 1;
	return 0;
}

/* An if-else chain with a different result per value: a switch, then a jump table
 * or a value table. */
static int chain_weight(unsigned k)
{
	int w;
	if (k == 0)
		w = 11;
	else if (k == 1)
		w = 4;
	else if (k == 2)
		w = 19;
	else if (k == 3)
		w = 8;
	else if (k == 4)
		w = 2;
	else if (k == 6)
		w = 30;
	else
		w = -1;
	return w;
}

/* Constant per case: a table load (CSWTCH) at -O2, no branch but the range check. */
static int month_days(int m)
{
	switch (m) {
	case 1: return 31;
	case 2: return 28;
	case 3: return 31;
	case 4: return 30;
	case 5: return 31;
	case 6: return 30;
	case 7: return 31;
	case 8: return 31;
	case 9: return 30;
	case 10: return 31;
	case 11: return 30;
	case 12: return 31;
	default: return 0;
	}
}

/* A linear switch (result = 3 * x + 5): arithmetic, not a table. */
static int linear(unsigned x)
{
	switch (x) {
	case 0: return 5;
	case 1: return 8;
	case 2: return 11;
	case 3: return 14;
	default: return 0;
	}
}

/* Two-way switch gcc turns into a conditional move or arithmetic. */
static int sign_pick(int x)
{
	switch (x & 1) {
	case 0: return 7;
	case 1: return 9;
	}
	return 0;
}

/* The selector is always below 4: the default is unreachable, so gcc drops the
 * range check. */
static int op4(unsigned op, int a, int b)
{
	switch (op & 3) {
	case 0: return a + b;
	case 1: return a - b;
	case 2: return a ^ b;
	case 3: return (a & 0xff) * (b & 0xf);
	default: __builtin_unreachable();
	}
}

static int tail_count;	/* how often the merged tail ran */
static long tail_sum;	/* what the merged tail added up */

/* Every arm ends in the same three statements: gcc -O2 merges the tails. */
static int tails(int kind, int v)
{
	switch (kind) {
	case 0:
		v = v * 3 + 1;
		tail_count++;
		tail_sum += v;
		return v & 0xff;
	case 1:
		v = v ^ 0x55;
		tail_count++;
		tail_sum += v;
		return v & 0xff;
	case 2:
		v = v - 17;
		tail_count++;
		tail_sum += v;
		return v & 0xff;
	case 5:
		v = v >> 1;
		tail_count++;
		tail_sum += v;
		return v & 0xff;
	default:
		tail_count++;
		tail_sum += v;
		return v & 0xff;
	}
}

/* Identical else-if arms (gcc merges the blocks) and a call in two arms. */
static int same_arms(int a, int b)
{
	int r = 0;
	if (a > b)
		r = a - b + tails(a & 7, b);
	else if (a < b - 100)
		r = b - a + tails(b & 7, a);
	else if (a == b)
		r = 1;
	else
		r = 1;
	return r;
}

/* Conditions on the same values: gcc threads the jumps, so on the paths
 * where a != c is already known both tests of `a == b && b == c` are
 * skipped. */
static __attribute__((noinline)) int threaded(int a, int b, int c)
{
	int r = 0;
	if (a > 0 && b > 0)
		r += 1;
	if (a < 5 || c < 5)
		r += 2;
	if (a == b && b == c)
		r += 4;
	if ((a & 1) && (b & 2) && (c & 4))
		r += 8;
	return r;
}

/* Counts with branch hints of given probabilities. */
static long hinted(const unsigned *v, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		if (__builtin_expect_with_probability(v[i] % 10 == 0, 1, 0.9))
			s += 100;
		else if (__builtin_expect_with_probability(v[i] % 3 == 0, 0, 0.05))
			s -= 3;
		else
			s += v[i] & 7;
	}
	return s;
}

/* Character statistics of a text: vowels, classes, a sparse switch on the byte
 * with a bit-test group and a range. */
static void text_stats(const char *t, int n, long *out)
{
	for (int i = 0; i < n; i++) {
		int c = (unsigned char)t[i];
		out[0] += is_vowel(c);
		out[1 + punct_class(c)]++;
		/* Two groups of letters and a default: bit tests with actions. */
		switch (c) {
		case 'x': case 'y': case 'z': case 'q': case 'j': case 'k':
			out[6] += 3;
			break;
		case 'b': case 'c': case 'd': case 'f': case 'g': case 'w':
			out[6]--;
			break;
		default:
			break;
		}
		switch (c) {
		case '0' ... '9':
			out[7] += c - '0';
			break;
		case 'A' ... 'F':
			out[8]++;
			/* fall through */
		case 'G':
			out[8]++;
			break;
		default:
			break;
		}
	}
}

static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzAEIOUBCDFG 0123456789"
	"()[]{}+-*/%=<>;\t\n!?";

int main(void)
{
	static char text[4000];
	static unsigned vals[1500];
	long st[9];
	long sum = 0;
	int i;

	for (i = 0; i < (int)sizeof text; i++)
		text[i] = alphabet[rnd() % (sizeof alphabet - 1)];
	for (i = 0; i < 1500; i++)
		vals[i] = rnd();

	memset(st, 0, sizeof st);
	text_stats(text, (int)sizeof text, st);
	text_stats(text + 100, 1000, st);
	for (i = 0; i < 9; i++)
		printf("st[%d]=%ld\n", i, st[i]);

	int primes = 0;
	for (unsigned v = 0; v < 600; v++)
		primes += is_small_prime(v % 45);
	printf("primes=%d\n", primes);

	for (i = 0; i < 1500; i++) {
		unsigned v = vals[i];
		sum += chain_weight(v % 9);
		sum += month_days((int)(v % 14));
		sum += linear(v % 6);
		sum += sign_pick((int)v);
		sum += op4(v >> 4, (int)(v & 0xfff), (int)(v >> 12));
		sum += same_arms((int)(v % 300), (int)(v >> 14) % 300);
	}
	printf("sum=%ld tails=%d/%ld\n", sum, tail_count, tail_sum);
	long th = 0;
	for (i = 0; i + 2 < 1500; i++)
		th += threaded((int)(vals[i] % 9) - 2, (int)(vals[i + 1] % 9) - 2,
		               (int)(vals[i + 2] % 9) - 2);
	printf("threaded=%ld\n", th);
	printf("hinted=%ld %ld\n", hinted(vals, 1500), hinted(vals + 7, 300));
	return 0;
}
