/* jsonp: the parser. */
#include "json.h"

struct jnode jpool[JPOOL];
char jstr[JSTRPOOL];
static int njnodes;
static int nstr;

struct pstate {
	const char *s;
	size_t i;
	int err;
};

void jreset(void)
{
	njnodes = 0;
	nstr = 0;
}

static int newnode(enum jkind k)
{
	if (njnodes >= JPOOL)
		return -1;
	struct jnode *n = &jpool[njnodes];
	n->kind = k;
	n->first = n->next = n->key = n->str = -1;
	n->num = 0;
	return njnodes++;
}

static void skip(struct pstate *p)
{
	while (is_ws(p->s[p->i]))
		p->i++;
}

static int parse_value(struct pstate *p, int depth);

/* Parses a string literal into the string pool; returns its offset or -1. */
static int parse_string(struct pstate *p)
{
	int start = nstr;
	if (p->s[p->i] != '"')
		goto bad;
	p->i++;
	for (;;) {
		char c = p->s[p->i++];
		if (c == '\0')
			goto bad;
		if (c == '"')
			break;
		if (c == '\\') {
			char e = p->s[p->i++];
			switch (e) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case '/': c = '/'; break;
			case '\\': c = '\\'; break;
			case '"': c = '"'; break;
			case 'u': {
				int v = 0;
				for (int k = 0; k < 4; k++) {
					int h = hexval(p->s[p->i++]);
					if (h < 0)
						goto bad;
					v = v * 16 + h;
				}
				c = (char)(v < 128 ? v : '?');
				break;
			}
			default:
				goto bad;
			}
		}
		if (nstr >= JSTRPOOL - 1)
			goto bad;
		jstr[nstr++] = c;
	}
	jstr[nstr++] = '\0';
	return start;
bad:
	p->err = 2;
	nstr = start;
	return -1;
}

static double parse_number(struct pstate *p)
{
	double sign = 1, v = 0, frac = 0, scale = 1;
	int ex = 0, exsign = 1;
	if (p->s[p->i] == '-') {
		sign = -1;
		p->i++;
	}
	if (p->s[p->i] < '0' || p->s[p->i] > '9') {
		p->err = 3;
		return 0;
	}
	while (p->s[p->i] >= '0' && p->s[p->i] <= '9')
		v = v * 10 + (p->s[p->i++] - '0');
	if (p->s[p->i] == '.') {
		p->i++;
		while (p->s[p->i] >= '0' && p->s[p->i] <= '9') {
			frac = frac * 10 + (p->s[p->i++] - '0');
			scale *= 10;
		}
		v += frac / scale;
	}
	if (p->s[p->i] == 'e' || p->s[p->i] == 'E') {
		p->i++;
		if (p->s[p->i] == '+')
			p->i++;
		else if (p->s[p->i] == '-') {
			exsign = -1;
			p->i++;
		}
		while (p->s[p->i] >= '0' && p->s[p->i] <= '9')
			ex = ex * 10 + (p->s[p->i++] - '0');
	}
	while (ex-- > 0)
		v = exsign > 0 ? v * 10 : v / 10;
	return sign * v;
}

static int match_word(struct pstate *p, const char *w)
{
	size_t k = 0;
	while (w[k]) {
		if (p->s[p->i + k] != w[k])
			return 0;
		k++;
	}
	p->i += k;
	return 1;
}

static int parse_container(struct pstate *p, int depth, int obj)
{
	int n = newnode(obj ? J_OBJ : J_ARR), last = -1;
	char close = obj ? '}' : ']';
	if (n < 0) {
		p->err = 4;
		return -1;
	}
	p->i++;
	skip(p);
	if (p->s[p->i] == close) {
		p->i++;
		return n;
	}
	for (;;) {
		int key = -1, v;
		skip(p);
		if (obj) {
			key = parse_string(p);
			if (key < 0)
				return -1;
			skip(p);
			if (p->s[p->i] != ':') {
				p->err = 5;
				return -1;
			}
			p->i++;
		}
		v = parse_value(p, depth + 1);
		if (v < 0)
			return -1;
		jpool[v].key = key;
		if (last < 0)
			jpool[n].first = v;
		else
			jpool[last].next = v;
		last = v;
		skip(p);
		if (p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->s[p->i] == close) {
			p->i++;
			return n;
		}
		p->err = 6;
		return -1;
	}
}

static int parse_value(struct pstate *p, int depth)
{
	int n;
	if (depth > 64) {
		p->err = 7;
		return -1;
	}
	skip(p);
	switch (p->s[p->i]) {
	case '{':
		return parse_container(p, depth, 1);
	case '[':
		return parse_container(p, depth, 0);
	case '"': {
		int s = parse_string(p);
		if (s < 0)
			return -1;
		n = newnode(J_STR);
		if (n >= 0)
			jpool[n].str = s;
		return n;
	}
	case 't':
		return match_word(p, "true") ? newnode(J_TRUE) : (p->err = 8, -1);
	case 'f':
		return match_word(p, "false") ? newnode(J_FALSE) : (p->err = 8, -1);
	case 'n':
		return match_word(p, "null") ? newnode(J_NULL) : (p->err = 8, -1);
	default: {
		double v = parse_number(p);
		if (p->err)
			return -1;
		n = newnode(J_NUM);
		if (n >= 0)
			jpool[n].num = v;
		return n;
	}
	}
}

struct jresult jparse(const char *text)
{
	struct pstate p = { text, 0, 0 };
	struct jresult r;
	r.node = parse_value(&p, 0);
	if (r.node >= 0) {
		skip(&p);
		if (p.s[p.i] != '\0') {
			p.err = 9;
			r.node = -1;
		}
	}
	r.err = p.err;
	r.pos = p.i;
	return r;
}
