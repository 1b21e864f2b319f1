/* flushcase: a scanner whose `switch` on the next character is re-entered
 * by `goto again` (blanks and newlines) and left by every other case.
 * gcc's loop store motion keeps the globals `pos` and `line` in registers
 * across that loop and stores them back on each way out, so every
 * jump-table target of a leaving case starts with those stores (and the
 * tests of store motion's "was it written" flags), which carry no line
 * of their own: the line table runs the row of the code laid out before
 * them on over the landing. The case's own code follows on its own row. */
#include <stdio.h>

struct tok { int kind; int line; int len; };

static const char text[] =
	"a = b + 1;\n  c = (a * b) - d;\n\tif (x < y) { z = x % 3; }\n"
	"w = [1, 2, 3];\n  q = a ^ b | c & d;\n! @ ? :\n\n  done = 1;\n";
static int pos, line = 1;
static struct tok cur;
static int counts[17];

__attribute__((noinline)) static void next(void)
{
	int c;
again:
	c = (unsigned char)text[pos];
	cur.line = line;
	switch (c) {
	case 0: cur.kind = 0; return;
	case '\n': line++; /* fall through */
	case ' ': case '\t': pos++; goto again;
	case 'a' ... 'z': {
		int start = pos;
		while (text[pos] >= 'a' && text[pos] <= 'z')
			pos++;
		cur.kind = 1;
		cur.len = pos - start;
		return;
	}
	case '0' ... '9':
		while (text[pos] >= '0' && text[pos] <= '9')
			pos++;
		cur.kind = 2;
		return;
	case '=': pos++; cur.kind = 3; return;
	case '+': pos++; cur.kind = 4; return;
	case '-': pos++; cur.kind = 5; return;
	case '*': pos++; cur.kind = 6; return;
	case '(': pos++; cur.kind = 7; return;
	case ')': pos++; cur.kind = 8; return;
	case ';': pos++; cur.kind = 9; return;
	case '<': pos++; cur.kind = 10; return;
	case '{': pos++; cur.kind = 11; return;
	case '}': pos++; cur.kind = 12; return;
	case '[': pos++; cur.kind = 13; return;
	case ']': pos++; cur.kind = 16; return;
	case ',': pos++; cur.kind = 14; return;
	default: pos++; cur.kind = 15; return;
	}
}

int main(void)
{
	int lines = 0;
	for (int round = 0; round < 6; round++) {
		pos = 0;
		line = 1;
		do {
			next();
			counts[cur.kind]++;
			lines = cur.line;
		} while (cur.kind);
	}
	for (int k = 0; k < 17; k++)
		printf("%d ", counts[k]);
	printf("lines=%d\n", lines);
	return 0;
}
