#include <stdio.h>
#include <string.h>
#include "calc.h"

static struct { char name[8]; long val; } vars[16];
static int nvars;

long get_var(const char *name, int *ok)
{
	for (int i = 0; i < nvars; i++)
		if (!strcmp(vars[i].name, name)) { *ok = 1; return vars[i].val; }
	*ok = 0;
	return 0;
}

void set_var(const char *name, long v)
{
	int i;
	for (i = 0; i < nvars; i++)
		if (!strcmp(vars[i].name, name))
			break;
	if (i == nvars) {
		if (nvars == 16)
			return;
		strcpy(vars[nvars++].name, name);
	}
	vars[i].val = v;
}

static int prec(char op)
{
	switch (op) {
	case '|': return 1;
	case '&': return 2;
	case '<': case '>': return 3;
	case 'L': case 'R': return 4;
	case '+': case '-': return 5;
	case '*': case '/': case '%': return 6;
	case 'n': return 8;
	case '^': return 9;
	default: return 0;
	}
}

static int right_assoc(char op) { return op == '^' || op == 'n'; }

static long ipow(long b, long e, int *err)
{
	long r = 1;
	if (e < 0) { *err = E_SYNTAX; return 0; }
	while (e-- > 0) {
		if (r > 1000000000L || r < -1000000000L) { *err = E_OVERFLOW; return 0; }
		r *= b;
	}
	return r;
}

static int apply(char op, long *vals, int *nv)
{
	long a, b;
	int err = E_OK;
	if (op == 'n') {
		if (*nv < 1) return E_SYNTAX;
		vals[*nv - 1] = -vals[*nv - 1];
		return E_OK;
	}
	if (*nv < 2) return E_SYNTAX;
	b = vals[--*nv];
	a = vals[*nv - 1];
	switch (op) {
	case '+': a += b; break;
	case '-': a -= b; break;
	case '*': a *= b; break;
	case '/': if (!b) return E_DIVZERO; a /= b; break;
	case '%': if (!b) return E_DIVZERO; a %= b; break;
	case '^': a = ipow(a, b, &err); break;
	case '<': a = a < b; break;
	case '>': a = a > b; break;
	case '&': a &= b; break;
	case '|': a |= b; break;
	case 'L': a = (b >= 0 && b < 62) ? a << b : 0; break;
	case 'R': a = (b >= 0 && b < 62) ? a >> b : 0; break;
	default: return E_SYNTAX;
	}
	vals[*nv - 1] = a;
	return err;
}

int evaluate(const char *s, long *result)
{
	struct token toks[64];
	long vals[32];
	char ops[32];
	int nt = tokenize(s, toks, 64), nv = 0, no = 0, i = 0, expect_operand = 1, e;
	const char *assign = NULL;
	if (nt < 0) return E_TOKEN;
	if (nt >= 3 && toks[0].kind == T_VAR && toks[1].kind == T_ASSIGN) { assign = toks[0].name; i = 2; }
	for (; toks[i].kind != T_END; i++) {
		struct token *t = &toks[i];
		if (t->kind == T_NUM || t->kind == T_VAR) {
			int ok = 1;
			if (!expect_operand || nv == 32) return E_SYNTAX;
			vals[nv++] = t->kind == T_NUM ? t->num : get_var(t->name, &ok);
			if (!ok) return E_UNDEF;
			expect_operand = 0;
		} else if (t->kind == T_OP) {
			char op = t->op;
			if (expect_operand) {
				if (op != '-') return E_SYNTAX;
				op = 'n';
			} else {
				while (no > 0 && ops[no - 1] != '(' &&
				       (prec(ops[no - 1]) > prec(op) || (prec(ops[no - 1]) == prec(op) && !right_assoc(op))))
					if ((e = apply(ops[--no], vals, &nv)) != E_OK) return e;
			}
			if (no == 32) return E_OVERFLOW;
			ops[no++] = op;
			expect_operand = 1;
		} else if (t->kind == T_LPAR) {
			if (!expect_operand || no == 32) return E_SYNTAX;
			ops[no++] = '(';
		} else if (t->kind == T_RPAR) {
			if (expect_operand) return E_SYNTAX;
			while (no > 0 && ops[no - 1] != '(')
				if ((e = apply(ops[--no], vals, &nv)) != E_OK) return e;
			if (no == 0) return E_PAREN;
			no--;
		} else {
			return E_SYNTAX;
		}
	}
	if (expect_operand) return E_SYNTAX;
	while (no > 0) {
		if (ops[no - 1] == '(') return E_PAREN;
		if ((e = apply(ops[--no], vals, &nv)) != E_OK) return e;
	}
	if (nv != 1) return E_SYNTAX;
	*result = vals[0];
	if (assign) set_var(assign, vals[0]);
	return E_OK;
}

static const char *const lines[] = {
	"1 + 2 * 3", "(1 + 2) * 3", "-4 + -(-2)", "2 ^ 3 ^ 2", "x = 7", "y = x * x - 3",
	"y / (x - 7)", "z + 1", "0x1f & 0x0c | 3", "1 << 10 >> 3", "(3 > 2) + (2 < 1)",
	"((((5))))", "(1 + 2", "1 + 2)", "3 $ 4", "* 5", "10 % 4 - 9 % 3", "2 ^ 80",
	"acc = 0", "q = x ^ 2 % 10", "", "n1 = 12345 * 6789 % 1000003", "n1 * 2 - n1",
};

int main(void)
{
	int errs[8] = { 0 };
	unsigned long h = 0;
	long acc = 0;
	for (int round = 0; round < 40; round++) {
		for (unsigned i = 0; i < sizeof lines / sizeof lines[0]; i++) {
			long r = 0;
			int e = evaluate(lines[i], &r);
			errs[e]++;
			if (round == 0) {
				if (e == E_OK)
					printf("%-28s = %ld\n", lines[i], r);
				else
					printf("%-28s : error %d (%s)\n", lines[i], e, err_name(e));
			}
			h = h * 1000003u ^ (unsigned long)(r + e);
		}
		{
			char buf[64];
			long r = 0;
			snprintf(buf, sizeof buf, "acc = acc + %d * (x - %d)", round, round % 5);
			if (evaluate(buf, &r) == E_OK) acc = r;
		}
	}
	printf("acc=%ld hash=%016lx\n", acc, h);
	for (int e = 0; e <= E_TOKEN; e++)
		printf("%s: %d\n", err_name(e), errs[e]);
	return 0;
}
