/* A state machine: a lexer for a small config language, driven by an explicit state variable. */
#include <stdio.h>

enum state { S_START, S_IDENT, S_NUMBER, S_HEX, S_STRING, S_ESCAPE, S_COMMENT, S_SLASH };

struct counts {
	int idents;	/* identifiers seen */
	int numbers;	/* decimal and hex numbers seen */
	int strings;	/* string literals seen */
	int comments;	/* comments seen */
	int puncts;	/* punctuation tokens seen */
	int errors;	/* characters no state accepts */
	long numsum;	/* sum of all numbers, checks the value conversion */
};

/* Lexes src into counts; every transition goes through the switch on st. */
static void lex(const char *src, struct counts *c)
{
	enum state st = S_START;
	long num = 0;
	const char *s;

	for (s = src;; s++) {
		char ch = *s;

		switch (st) {
		case S_START:
			if (ch == 0)
				return;
			if ((ch >= 'a' && ch <= 'z') || ch == '_') {
				st = S_IDENT;
			} else if (ch == '0' && s[1] == 'x') {
				num = 0;
				s++;
				st = S_HEX;
			} else if (ch >= '0' && ch <= '9') {
				num = ch - '0';
				st = S_NUMBER;
			} else if (ch == '"') {
				st = S_STRING;
			} else if (ch == '/') {
				st = S_SLASH;
			} else if (ch == '=' || ch == ';' || ch == '{' || ch == '}') {
				c->puncts++;
			} else if (ch != ' ' && ch != '\n') {
				c->errors++;
			}
			break;
		case S_IDENT:
			if ((ch >= 'a' && ch <= 'z') || ch == '_' || (ch >= '0' && ch <= '9'))
				break;
			c->idents++;
			st = S_START;
			s--;
			break;
		case S_NUMBER:
			if (ch >= '0' && ch <= '9') {
				num = num * 10 + ch - '0';
				break;
			}
			c->numbers++;
			c->numsum += num;
			st = S_START;
			s--;
			break;
		case S_HEX:
			if (ch >= '0' && ch <= '9')
				num = num * 16 + ch - '0';
			else if (ch >= 'a' && ch <= 'f')
				num = num * 16 + ch - 'a' + 10;
			else {
				c->numbers++;
				c->numsum += num;
				st = S_START;
				s--;
			}
			break;
		case S_STRING:
			if (ch == '\\')
				st = S_ESCAPE;
			else if (ch == '"') {
				c->strings++;
				st = S_START;
			} else if (ch == 0) {
				c->errors++;
				return;
			}
			break;
		case S_ESCAPE:
			st = ch ? S_STRING : S_START;
			if (!ch)
				return;
			break;
		case S_SLASH:
			if (ch == '/') {
				st = S_COMMENT;
			} else {
				c->errors++;
				st = S_START;
				s--;
			}
			break;
		case S_COMMENT:
			if (ch == '\n' || ch == 0) {
				c->comments++;
				st = S_START;
				s--;
			}
			break;
		}
	}
}

int main(void)
{
	static const char src[] =
		"// sample configuration\n"
		"server { name = \"alpha\"; port = 8080; mask = 0xff00; }\n"
		"client { retries = 3; msg = \"say \\\"hi\\\"\"; weight = 0x1f; } // trailing\n"
		"limits { a = 1; b = 22; c = 333; d = 4444; bad = $; x_1 = 0xabc; }\n"
		"/ lonely slash\n";
	struct counts c = { 0 };
	int r;

	for (r = 0; r < 60; r++)
		lex(src, &c);
	printf("idents=%d numbers=%d strings=%d comments=%d puncts=%d errors=%d sum=%ld\n",
	       c.idents, c.numbers, c.strings, c.comments, c.puncts, c.errors, c.numsum);
	return 0;
}
