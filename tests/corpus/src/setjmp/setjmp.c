/* setjmp/longjmp: a recursive-descent expression evaluator that longjmps out on errors. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf on_error;	/* where a syntax or arithmetic error unwinds to */
static const char *p;		/* cursor into the expression being parsed */
static int depth;		/* recursion depth, to show unwinding skips frames */

static long expr(void);

/* Raises an error with a code: never returns. */
static void fail(int code)
{
	longjmp(on_error, code);
}

/* Parses a number or a parenthesised expression. */
static long primary(void)
{
	long v = 0;

	while (*p == ' ')
		p++;
	if (*p == '(') {
		p++;
		depth++;
		v = expr();
		depth--;
		if (*p != ')')
			fail(2);
		p++;
		return v;
	}
	if (*p == '-') {
		p++;
		return -primary();
	}
	if (*p < '0' || *p > '9')
		fail(1);
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	return v;
}

/* Parses products and quotients; division by zero is an error. */
static long term(void)
{
	long v = primary(), r;

	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '*') {
			p++;
			v *= primary();
		} else if (*p == '/') {
			p++;
			r = primary();
			if (!r)
				fail(3);
			v /= r;
		} else {
			return v;
		}
	}
}

/* Parses sums and differences. */
static long expr(void)
{
	long v = term();

	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '+') {
			p++;
			v += term();
		} else if (*p == '-') {
			p++;
			v -= term();
		} else {
			return v;
		}
	}
}

/*
 * Evaluates src into *v; returns 0, or the error code fail() raised. Only this frame's
 * locals are live across setjmp, so main's loop counters need no volatile.
 */
static int eval(const char *src, long *v)
{
	int code;

	p = src;
	depth = 0;
	code = setjmp(on_error);
	if (code == 0) {
		*v = expr();
		if (*p)
			fail(4);
	}
	return code;
}

int main(void)
{
	static const char *const inputs[] = {
		"1 + 2 * 3", "(1 + 2) * 3", "((((7))))", "2 * (3 + 4) * (5 - 1) / 2",
		"1 + ", "(1 + 2", "10 / (5 - 5)", "-(3 * -4) + 100", "((1+2)*(3+4)) / x",
		"123456 / 7 - 89 * (4 + (2 * (1 + (1 + 1))))", "(1 + (2 * (3 + x)))",
	};
	int errors = 0, i, rounds;

	for (rounds = 0; rounds < 30; rounds++) {
		for (i = 0; i < (int)(sizeof(inputs) / sizeof(inputs[0])); i++) {
			long v = 0;
			int code = eval(inputs[i], &v);

			if (code)
				errors++;
			if (rounds)
				continue;
			if (code)
				printf("%-45s : error %d at offset %d depth %d\n", inputs[i], code,
				       (int)(p - inputs[i]), depth);
			else
				printf("%-45s = %ld\n", inputs[i], v);
		}
	}
	printf("errors=%d\n", errors);
	return 0;
}
