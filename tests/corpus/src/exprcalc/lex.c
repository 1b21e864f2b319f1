#include <ctype.h>
#include <string.h>
#include "calc.h"

static int is_op(int c)
{
	switch (c) {
	case '+': case '-': case '*': case '/': case '%': case '^': case '<': case '>': case '&': case '|':
		return 1;
	default:
		return 0;
	}
}

int tokenize(const char *s, struct token *out, int max)
{
	int n = 0, i = 0;
	while (n < max - 1) {
		struct token *t = &out[n];
		while (s[i] == ' ' || s[i] == '\t')
			i++;
		t->pos = i;
		if (!s[i]) {
			t->kind = T_END;
			return n + 1;
		}
		if (isdigit((unsigned char)s[i])) {
			long v = 0;
			int base = 10;
			if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
				base = 16;
				i += 2;
			}
			while (isxdigit((unsigned char)s[i])) {
				int d = isdigit((unsigned char)s[i]) ? s[i] - '0' : (tolower((unsigned char)s[i]) - 'a' + 10);
				if (d >= base)
					break;
				v = v * base + d;
				i++;
			}
			t->kind = T_NUM;
			t->num = v;
		} else if (isalpha((unsigned char)s[i]) || s[i] == '_') {
			int k = 0;
			while (isalnum((unsigned char)s[i]) || s[i] == '_') {
				if (k < 7)
					t->name[k++] = s[i];
				i++;
			}
			t->name[k] = 0;
			t->kind = T_VAR;
		} else if (s[i] == '<' && s[i + 1] == '<') {
			t->kind = T_OP; t->op = 'L'; i += 2;
		} else if (s[i] == '>' && s[i + 1] == '>') {
			t->kind = T_OP; t->op = 'R'; i += 2;
		} else if (is_op(s[i])) {
			t->kind = T_OP; t->op = s[i++];
		} else if (s[i] == '(') {
			t->kind = T_LPAR; i++;
		} else if (s[i] == ')') {
			t->kind = T_RPAR; i++;
		} else if (s[i] == '=') {
			t->kind = T_ASSIGN; i++;
		} else if (s[i] == ',') {
			t->kind = T_COMMA; i++;
		} else {
			t->kind = T_ERR;
			return -(i + 1);
		}
		n++;
	}
	return -1000;
}

const char *err_name(int e)
{
	static const char *names[] = { "ok", "syntax", "divide by zero", "undefined", "overflow", "parenthesis", "bad token" };
	return e >= 0 && e <= E_TOKEN ? names[e] : "?";
}
