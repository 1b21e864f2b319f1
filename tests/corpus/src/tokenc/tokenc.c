/* tokenc: tokenizer + recursive-descent parser/evaluator for a tiny C-like language.
 * Range cases, a long lexer function, string interning by hashing, goto error recovery. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

enum tok {
	T_EOF, T_ID, T_NUM, T_STR, T_CHAR, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PCT,
	T_LP, T_RP, T_LB, T_RB, T_SEMI, T_COMMA, T_ASSIGN, T_EQ, T_NE, T_LT, T_LE,
	T_GT, T_GE, T_AND, T_OR, T_NOT, T_AMP, T_PIPE, T_CARET, T_SHL, T_SHR,
	T_PLUSEQ, T_MINUSEQ, T_INC, T_DEC, T_KW_IF, T_KW_ELSE, T_KW_WHILE, T_KW_INT,
	T_KW_RETURN, T_KW_PRINT, T_ERR
};

struct token { enum tok t; int sym; long val; int line; };

#define NSYM 128
static char symtab[NSYM][24];
static unsigned symhash[NSYM];
static int nsym;
static int hashslot[512];
static long vars[NSYM];
static int lexerrors, parseerrors, collisions;

static unsigned hashstr(const char *s, int n)
{
	unsigned h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int intern(const char *s, int n)
{
	unsigned h = hashstr(s, n);
	unsigned slot = h & 511;
	for (;;) {
		int id = hashslot[slot];
		if (id == 0)
			break;
		id--;
		if (symhash[id] == h && (int)strlen(symtab[id]) == n && memcmp(symtab[id], s, n) == 0)
			return id;
		collisions++;
		slot = (slot + 1) & 511;
	}
	if (nsym >= NSYM || n >= 24)
		return -1;
	memcpy(symtab[nsym], s, n);
	symtab[nsym][n] = 0;
	symhash[nsym] = h;
	hashslot[slot] = nsym + 1;
	return nsym++;
}

static const char *src;
static int pos, line;
static struct token cur;

static int kw(int sym)
{
	static const char *const kws[] = { "if", "else", "while", "int", "return", "print" };
	for (unsigned i = 0; i < sizeof kws / sizeof kws[0]; i++)
		if (strcmp(symtab[sym], kws[i]) == 0)
			return T_KW_IF + (int)i;
	return T_ID;
}

/* The long one: every character class has its own arm. */
static void next(void)
{
	int c, start;
again:
	c = (unsigned char)src[pos];
	cur.line = line;
	switch (c) {
	case 0:
		cur.t = T_EOF;
		return;
	case '\n':
		line++;
		/* fall through */
	case ' ': case '\t': case '\r':
		pos++;
		goto again;
	case '/':
		if (src[pos + 1] == '/') {
			while (src[pos] && src[pos] != '\n')
				pos++;
			goto again;
		}
		if (src[pos + 1] == '*') {
			pos += 2;
			while (src[pos] && !(src[pos] == '*' && src[pos + 1] == '/')) {
				if (src[pos] == '\n')
					line++;
				pos++;
			}
			if (!src[pos]) {
				lexerrors++;
				cur.t = T_ERR;
				return;
			}
			pos += 2;
			goto again;
		}
		pos++;
		cur.t = T_SLASH;
		return;
	case 'a' ... 'z':
	case 'A' ... 'Z':
	case '_':
		start = pos;
		while (1) {
			c = (unsigned char)src[pos];
			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'))
				pos++;
			else
				break;
		}
		cur.sym = intern(src + start, pos - start);
		if (cur.sym < 0) {
			lexerrors++;
			cur.t = T_ERR;
			return;
		}
		cur.t = kw(cur.sym);
		return;
	case '0':
		if (src[pos + 1] == 'x' || src[pos + 1] == 'X') {
			long v = 0;
			pos += 2;
			for (;;) {
				c = (unsigned char)src[pos];
				switch (c) {
				case '0' ... '9': v = v * 16 + (c - '0'); break;
				case 'a' ... 'f': v = v * 16 + (c - 'a' + 10); break;
				case 'A' ... 'F': v = v * 16 + (c - 'A' + 10); break;
				default: goto hexdone;
				}
				pos++;
			}
hexdone:
			cur.t = T_NUM;
			cur.val = v;
			return;
		}
		/* fall through */
	case '1' ... '9': {
		long v = 0;
		while (src[pos] >= '0' && src[pos] <= '9')
			v = v * 10 + (src[pos++] - '0');
		cur.t = T_NUM;
		cur.val = v;
		return;
	}
	case '"': {
		long h = 0;
		pos++;
		while (src[pos] != '"') {
			if (!src[pos] || src[pos] == '\n') {
				lexerrors++;
				cur.t = T_ERR;
				return;
			}
			if (src[pos] == '\\' && src[pos + 1])
				pos++;
			h = h * 31 + src[pos++];
		}
		pos++;
		cur.t = T_STR;
		cur.val = h & 0xffff;
		return;
	}
	case '\'':
		if (src[pos + 1] && src[pos + 2] == '\'') {
			cur.t = T_CHAR;
			cur.val = (unsigned char)src[pos + 1];
			pos += 3;
			return;
		}
		lexerrors++;
		pos++;
		cur.t = T_ERR;
		return;
	case '+':
		pos++;
		if (src[pos] == '+') { pos++; cur.t = T_INC; }
		else if (src[pos] == '=') { pos++; cur.t = T_PLUSEQ; }
		else cur.t = T_PLUS;
		return;
	case '-':
		pos++;
		if (src[pos] == '-') { pos++; cur.t = T_DEC; }
		else if (src[pos] == '=') { pos++; cur.t = T_MINUSEQ; }
		else cur.t = T_MINUS;
		return;
	case '*': pos++; cur.t = T_STAR; return;
	case '%': pos++; cur.t = T_PCT; return;
	case '(': pos++; cur.t = T_LP; return;
	case ')': pos++; cur.t = T_RP; return;
	case '{': pos++; cur.t = T_LB; return;
	case '}': pos++; cur.t = T_RB; return;
	case ';': pos++; cur.t = T_SEMI; return;
	case ',': pos++; cur.t = T_COMMA; return;
	case '^': pos++; cur.t = T_CARET; return;
	case '=':
		pos++;
		cur.t = src[pos] == '=' ? (pos++, T_EQ) : T_ASSIGN;
		return;
	case '!':
		pos++;
		cur.t = src[pos] == '=' ? (pos++, T_NE) : T_NOT;
		return;
	case '<':
		pos++;
		if (src[pos] == '=') { pos++; cur.t = T_LE; }
		else if (src[pos] == '<') { pos++; cur.t = T_SHL; }
		else cur.t = T_LT;
		return;
	case '>':
		pos++;
		if (src[pos] == '=') { pos++; cur.t = T_GE; }
		else if (src[pos] == '>') { pos++; cur.t = T_SHR; }
		else cur.t = T_GT;
		return;
	case '&':
		pos++;
		if (src[pos] == '&') { pos++; cur.t = T_AND; } else cur.t = T_AMP;
		return;
	case '|':
		pos++;
		if (src[pos] == '|') { pos++; cur.t = T_OR; } else cur.t = T_PIPE;
		return;
	default:
		lexerrors++;
		pos++;
		cur.t = T_ERR;
		return;
	}
}

/* Parser / evaluator. exec==0 parses without side effects (skipped branches). */
static long expr(int exec);

static int accept(enum tok t)
{
	if (cur.t == t) { next(); return 1; }
	return 0;
}

static long primary(int exec)
{
	long v = 0;
	switch (cur.t) {
	case T_NUM: case T_CHAR: case T_STR:
		v = cur.val; next(); return v;
	case T_ID: {
		int s = cur.sym;
		next();
		if (cur.t == T_ASSIGN || cur.t == T_PLUSEQ || cur.t == T_MINUSEQ) {
			enum tok op = cur.t;
			next();
			v = expr(exec);
			if (exec)
				vars[s] = op == T_ASSIGN ? v : op == T_PLUSEQ ? vars[s] + v : vars[s] - v;
			return exec ? vars[s] : 0;
		}
		if (cur.t == T_INC || cur.t == T_DEC) {
			long old = vars[s];
			if (exec) vars[s] += cur.t == T_INC ? 1 : -1;
			next();
			return old;
		}
		return vars[s];
	}
	case T_LP:
		next(); v = expr(exec);
		if (!accept(T_RP)) parseerrors++;
		return v;
	case T_MINUS: next(); return -primary(exec);
	case T_NOT: next(); return !primary(exec);
	default:
		parseerrors++;
		next();
		return 0;
	}
}

static int prec(enum tok t)
{
	switch (t) {
	case T_OR: return 1;
	case T_AND: return 2;
	case T_PIPE: return 3;
	case T_CARET: return 4;
	case T_AMP: return 5;
	case T_EQ: case T_NE: return 6;
	case T_LT: case T_LE: case T_GT: case T_GE: return 7;
	case T_SHL: case T_SHR: return 8;
	case T_PLUS: case T_MINUS: return 9;
	case T_STAR: case T_SLASH: case T_PCT: return 10;
	default: return 0;
	}
}

static long binop(enum tok op, long a, long b)
{
	switch (op) {
	case T_OR: return a || b;
	case T_AND: return a && b;
	case T_PIPE: return a | b;
	case T_CARET: return a ^ b;
	case T_AMP: return a & b;
	case T_EQ: return a == b;
	case T_NE: return a != b;
	case T_LT: return a < b;
	case T_LE: return a <= b;
	case T_GT: return a > b;
	case T_GE: return a >= b;
	case T_SHL: return (long)((unsigned long)a << (b & 31));
	case T_SHR: return a >> (b & 31);
	case T_PLUS: return a + b;
	case T_MINUS: return a - b;
	case T_STAR: return a * b;
	case T_SLASH: return b ? a / b : (parseerrors++, 0);
	case T_PCT: return b ? a % b : 0;
	default: return 0;
	}
}

static long climb(int exec, int minp)
{
	long lhs = primary(exec);
	int p;
	while ((p = prec(cur.t)) >= minp && p > 0) {
		enum tok op = cur.t;
		next();
		long rhs = climb(exec, p + 1);
		lhs = exec ? binop(op, lhs, rhs) : 0;
	}
	return lhs;
}

static long expr(int exec) { return climb(exec, 1); }

static long output;
static int nprints;

static int stmt(int exec);

static int block(int exec)
{
	int r = 0;
	while (cur.t != T_RB && cur.t != T_EOF)
		if ((r = stmt(exec)) < 0)
			return r;
	if (!accept(T_RB))
		parseerrors++;
	return r;
}

/* Returns -1 on `return`, 0 otherwise. Errors skip to the next ';'. */
static int stmt(int exec)
{
	long v;
	switch (cur.t) {
	case T_LB:
		next();
		return block(exec);
	case T_KW_INT:
		next();
		if (cur.t != T_ID)
			goto error;
		return stmt(exec);
	case T_KW_IF:
		next();
		if (!accept(T_LP)) goto error;
		v = expr(exec);
		if (!accept(T_RP)) goto error;
		if (stmt(exec && v) < 0 && exec && v) return -1;
		if (accept(T_KW_ELSE))
			if (stmt(exec && !v) < 0 && exec && !v) return -1;
		return 0;
	case T_KW_WHILE: {
		int save = pos, sline = line, iters = 0;
		struct token scur = cur;
		for (;;) {
			next();
			if (!accept(T_LP)) goto error;
			v = expr(exec);
			if (!accept(T_RP)) goto error;
			int go = exec && v && iters < 1000;
			if (stmt(go) < 0 && go) return -1;
			if (!go) return 0;
			iters++;
			pos = save; line = sline; cur = scur;
		}
	}
	case T_KW_RETURN:
		next();
		v = expr(exec);
		if (exec) output = output * 7 + v;
		accept(T_SEMI);
		return -1;
	case T_KW_PRINT:
		next();
		v = expr(exec);
		if (exec) { output = output * 31 + v; nprints++; }
		if (!accept(T_SEMI)) goto error;
		return 0;
	case T_SEMI:
		next();
		return 0;
	default:
		expr(exec);
		if (!accept(T_SEMI)) goto error;
		return 0;
	}
error:
	parseerrors++;
	while (cur.t != T_SEMI && cur.t != T_EOF && cur.t != T_RB)
		next();
	accept(T_SEMI);
	return 0;
}

static long run(const char *text)
{
	src = text; pos = 0; line = 1;
	output = 0; nprints = 0;
	memset(vars, 0, sizeof vars);
	next();
	while (cur.t != T_EOF)
		if (stmt(1) < 0)
			break;
	return output;
}

static const char *const progs[] = {
	"int i = 0; int s = 0; while (i < 12) { s += i * i % 7; i++; } print s; return s;",
	"x = 0x1F; y = 'a'; /* block\n comment */ print x << 3 | y; print x && !y || 3 >= 2;",
	"n = 6; steps = 0; while (n != 1) { if (n % 2 == 0) n = n / 2; else n = 3 * n + 1; steps++; } print steps;",
	"a = 1; b = 1; k = 0; while (k < 9) { t = a + b; a = b; b = t % 1000003; k = k + 1; } print b; // fib\n",
	"s = \"hello\\\"world\"; print s; bad = @ ; print 5; if (1 { print 6; } print 7;",
	"int q; q = 10; while (q) { q--; if (q == 3) return q * 100; } print 99;",
	"z = 1; /* unterminated",
	"x = 5 / 0; y = (3 + ; print x + y; w = 'ab'; print 0xAbC ^ 0x0f0 & 255;",
	"i = 0; c = 0; while (i < 9) { j = i; while (j > 0) { c += j & 1; j = j >> 1; } i++; } print c;",
	"A_long_identifier_name_here = 3; B2 = A_long_identifier_name_here * 2 - -4; print B2 != 10 == 0;",
};

int main(void)
{
	unsigned long total = 0;
	char buf[4096];
	unsigned lcg = 12345;
	for (int round = 0; round < 3; round++) {
		for (unsigned p = 0; round == 0 && p < sizeof progs / sizeof progs[0]; p++) {
			long r = run(progs[p]);
			total = total * 1000003u + (unsigned long)r;
			if (round == 0)
				printf("prog %u: out=%ld prints=%d\n", p, r, nprints);
		}
		/* a generated program with random identifiers and operators */
		int n = 0;
		static const char *const ops[] = { "+", "-", "*", "<<", "&", "|", "^", "==", "<", ">=", "%" };
		for (int k = 0; k < 50 && n < 3900; k++) {
			lcg = lcg * 1103515245u + 12345u;
			int len = 1 + (lcg >> 16) % 5;
			char name[8];
			for (int m = 0; m < len; m++) {
				lcg = lcg * 1103515245u + 12345u;
				name[m] = (char)('a' + (lcg >> 16) % 26);
			}
			name[len] = 0;
			lcg = lcg * 1103515245u + 12345u;
			n += snprintf(buf + n, sizeof buf - n, "%s = %s %s %u; print %s;\n", name, name,
				      ops[(lcg >> 16) % 11], (lcg >> 8) % 50, name);
		}
		long r = run(buf);
		total = total * 1000003u + (unsigned long)r;
		printf("gen %d: out=%ld prints=%d syms=%d\n", round, r, nprints, nsym);
	}
	printf("lexerr=%d parseerr=%d coll=%d total=%lu\n", lexerrors, parseerrors, collisions, total);
	return 0;
}
