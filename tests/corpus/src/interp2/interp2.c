#include <stdio.h>
#include <string.h>
#include <ctype.h>
#include <stdlib.h>

enum nk { N_NUM, N_VAR, N_BIN, N_LET, N_IF, N_WHILE, N_PRINT, N_SEQ, N_CALL, N_RET, N_KINDS };
struct node { enum nk k; int op; long v; struct node *a, *b, *c; };

static char arena[1 << 16];
static size_t arena_used;
static void *alloc(size_t n) { n = (n + 15) & ~(size_t)15; if (arena_used + n > sizeof arena) return NULL; void *p = arena + arena_used; arena_used += n; return p; }
static struct node *mk(enum nk k, int op, long v, struct node *a, struct node *b, struct node *c)
{
	struct node *n = alloc(sizeof *n);
	if (!n) { puts("arena full"); exit(1); }
	n->k = k; n->op = op; n->v = v; n->a = a; n->b = b; n->c = c;
	return n;
}

/* ---- parser ---- */
static const char *src;
static int perr;
static void ws(void) { for (;;) { while (isspace((unsigned char)*src)) src++; if (*src == '#') { while (*src && *src != '\n') src++; } else break; } }
static int eat(char c) { ws(); if (*src == c) { src++; return 1; } return 0; }
static int kw(const char *w) { ws(); size_t l = strlen(w); if (!strncmp(src, w, l) && !isalnum((unsigned char)src[l])) { src += l; return 1; } return 0; }
static struct node *expr(void);
static struct node *stmt(void);

static struct node *primary(void)
{
	ws();
	if (isdigit((unsigned char)*src)) { long v = 0; while (isdigit((unsigned char)*src)) v = v * 10 + (*src++ - '0'); return mk(N_NUM, 0, v, 0, 0, 0); }
	if (eat('(')) { struct node *e = expr(); if (!eat(')')) perr++; return e; }
	if (eat('-')) return mk(N_BIN, '-', 0, mk(N_NUM, 0, 0, 0, 0, 0), primary(), 0);
	if (isalpha((unsigned char)*src)) {
		int id = *src++ - 'a';
		if (eat('(')) { struct node *arg = expr(); if (!eat(')')) perr++; return mk(N_CALL, 0, id, arg, 0, 0); }
		return mk(N_VAR, 0, id, 0, 0, 0);
	}
	perr++;
	return mk(N_NUM, 0, 0, 0, 0, 0);
}

static int prec(int c) { switch (c) { case '<': case '=': return 1; case '+': case '-': return 2; case '*': case '/': case '%': return 3; default: return 0; } }

static struct node *binary(int minp)
{
	struct node *l = primary();
	for (;;) {
		ws();
		int op = *src, p = prec(op);
		if (!p || p < minp) return l;
		src++;
		l = mk(N_BIN, op, 0, l, binary(p + 1), 0);
	}
}
static struct node *expr(void) { return binary(1); }

static struct node *block(void)
{
	struct node *first = NULL, **tail = &first;
	if (!eat('{')) { perr++; return NULL; }
	while (!eat('}')) {
		if (!*src) { perr++; break; }
		*tail = mk(N_SEQ, 0, 0, stmt(), 0, 0);
		tail = &(*tail)->b;
	}
	return first;
}

static struct node *stmt(void)
{
	struct node *n;
	if (kw("let")) { ws(); int id = *src++ - 'a'; if (!eat('=')) perr++; n = mk(N_LET, 0, id, expr(), 0, 0); }
	else if (kw("if")) { struct node *c = expr(), *t = block(), *e = kw("else") ? block() : NULL; return mk(N_IF, 0, 0, c, t, e); }
	else if (kw("while")) { struct node *c = expr(); return mk(N_WHILE, 0, 0, c, block(), 0); }
	else if (kw("print")) n = mk(N_PRINT, 0, 0, expr(), 0, 0);
	else if (kw("return")) n = mk(N_RET, 0, 0, expr(), 0, 0);
	else n = expr();
	if (!eat(';')) perr++;
	return n;
}

/* ---- evaluator: dispatch through a table ---- */
struct env { long var[26]; int ret; };
static struct node *funcs[26];
static unsigned long outsum;
static int depth, maxdepth, nprint;
typedef long (*evalfn)(struct node *, struct env *);
static evalfn table[N_KINDS];
static long eval(struct node *n, struct env *e) { return n ? table[n->k](n, e) : 0; }

static long ev_num(struct node *n, struct env *e) { (void)e; return n->v; }
static long ev_var(struct node *n, struct env *e) { return e->var[n->v]; }
static long ev_bin(struct node *n, struct env *e)
{
	long a = eval(n->a, e), b = eval(n->b, e);
	switch (n->op) {
	case '+': return a + b; case '-': return a - b; case '*': return a * b;
	case '/': return b ? a / b : 0;
	case '%': return b ? a % b : 0;
	case '<': return a < b;
	default: return a == b;
	}
}
static long ev_let(struct node *n, struct env *e) { return e->var[n->v] = eval(n->a, e); }
static long ev_if(struct node *n, struct env *e) { return eval(n->a, e) ? eval(n->b, e) : eval(n->c, e); }
static long ev_while(struct node *n, struct env *e) { long r = 0; while (!e->ret && eval(n->a, e)) r = eval(n->b, e); return r; }
static long ev_print(struct node *n, struct env *e) { long v = eval(n->a, e); outsum = outsum * 31u + (unsigned long)v; if (nprint++ < 40) printf("%ld\n", v); return v; }
static long ev_seq(struct node *n, struct env *e) { long r = 0; for (; n && !e->ret; n = n->b) r = eval(n->a, e); return r; }
static long ev_ret(struct node *n, struct env *e) { long v = eval(n->a, e); e->ret = 1; e->var[25] = v; return v; }
static long ev_call(struct node *n, struct env *e)
{
	struct env callee;
	memset(&callee, 0, sizeof callee);
	callee.var[0] = eval(n->a, e);
	if (!funcs[n->v] || depth > 200) return -1;
	if (++depth > maxdepth) maxdepth = depth;
	eval(funcs[n->v], &callee);
	depth--;
	return callee.ret ? callee.var[25] : 0;
}

static int define(char name, const char *body)
{
	int before = perr;
	src = body;
	funcs[name - 'a'] = block();
	return perr - before;
}

static long run(const char *prog)
{
	struct env e;
	memset(&e, 0, sizeof e);
	src = prog;
	perr = 0;
	struct node *b = block();
	if (perr) { printf("parse errors: %d\n", perr); return -1; }
	return eval(b, &e);
}

int main(void)
{
	table[N_NUM] = ev_num; table[N_VAR] = ev_var; table[N_BIN] = ev_bin; table[N_LET] = ev_let;
	table[N_IF] = ev_if; table[N_WHILE] = ev_while; table[N_PRINT] = ev_print; table[N_SEQ] = ev_seq;
	table[N_CALL] = ev_call; table[N_RET] = ev_ret;
	int errs = 0;
	errs += define('f', "{ if a < 2 { return a; } return f(a-1) + f(a-2); }");
	errs += define('g', "{ let s = 0; let i = 1; while i < a + 1 { if i % 3 = 0 { let s = s + i * i; } else { let s = s - i; } let i = i + 1; } return s; }");
	errs += define('h', "{ if a = 0 { return 1; } return a * h(a - 1) % 1000003; }");
	errs += define('c', "{ let n = a; let k = 0; while 1 - (n = 1) { if n % 2 = 0 { let n = n / 2; } else { let n = 3 * n + 1; } let k = k + 1; } return k; }");
	errs += define('m', "{ return m(a) }"); /* missing ; */
	printf("define errors=%d\n", errs);
	long r = run("{ let x = 0; while x < 12 { print f(x); let x = x + 1; } print g(60); print h(30); }");
	printf("r=%ld\n", r);
	r = run("{ let x = 1; let y = 0; while x < 100 { let y = y + c(x); let x = x + 7; } print y; # comment\n print c(27); }");
	printf("r=%ld\n", r);
	r = run("{ let q = (3 + 4 * (2 - 5)) / -2; print q; print 7 % 0 + 9 / 0; print -(-q); }");
	printf("r=%ld\n", r);
	r = run("{ let x = (1 + ; print x; }");
	printf("r=%ld\n", r);
	r = run("{ print m(3); }");
	printf("r=%ld outsum=%lu maxdepth=%d arena=%zu\n", r, outsum, maxdepth, arena_used);
	return 0;
}
