/* regex: a small backtracking matcher (. * + ? [a-z] [^..] ^ $ \) over embedded text. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

struct pat {
	const char *re;
	int anchored;
};

static const char text[] =
	"the quick brown fox jumps over the lazy dog\n"
	"pack my box with five dozen liquor jugs\n"
	"error: file not found (code 404)\n"
	"warning: deprecated call at line 1337\n"
	"info: 12 items processed in 0.35s\n"
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaab\n"
	"mississippi river banks\n"
	"GET /index.html HTTP/1.1\n"
	"POST /api/v2/items?id=77 HTTP/1.0\n"
	"x=1; y=22; z=333; w=4444\n"
	"the end is near, the end is here\n"
	"abcabcabcabcabcabcabcabcabcabcx\n"
	"foo.bar@example.com, baz_qux@test.org\n"
	"   leading spaces and trailing   \n"
	"\n"
	"1234567890 0987654321\n";

static const char *const pats[] = {
	"the", "^the", "end$", "o.er", "a*b", "^a+b$", "[0-9]+", "_[a-z]+@[a-z]+\\.[a-z]+",
	"s+i", "mis*is+ip*i", "^[A-Z]+ /", "HTTP/1\\.[01]$", "x?y", "^[^ ]+:", "c?o+de",
	"(", "^$", "z=3*;", "a.c.*x$", "[a-c]*x", "^ +l", "q[^u]", "[a-z]+\\.html",
	"[0-9][0-9][0-9][0-9][0-9]", "e?r?r?o?r", "^.*$",
};

static int match_here(const char *re, const char *s, unsigned *steps);

/* Matches one atom at re against c; *len receives the atom's length in the pattern. */
static int match_atom(const char *re, char c, int *len)
{
	if (c == '\0' || c == '\n') {
		*len = (re[0] == '[') ? (int)(strchr(re, ']') ? strchr(re, ']') - re + 1 : 1)
				     : (re[0] == '\\' ? 2 : 1);
		return 0;
	}
	switch (re[0]) {
	case '.':
		*len = 1;
		return 1;
	case '\\':
		*len = 2;
		return re[1] == c;
	case '[': {
		int neg = 0, hit = 0, i = 1;
		if (re[i] == '^') {
			neg = 1;
			i++;
		}
		for (; re[i] && re[i] != ']'; i++) {
			if (re[i + 1] == '-' && re[i + 2] && re[i + 2] != ']') {
				if (c >= re[i] && c <= re[i + 2])
					hit = 1;
				i += 2;
			} else if (re[i] == c) {
				hit = 1;
			}
		}
		*len = re[i] ? i + 1 : i;
		return hit ^ neg;
	}
	default:
		*len = 1;
		return re[0] == c;
	}
}

static int atom_len(const char *re)
{
	int len;
	match_atom(re, '\0', &len);
	return len;
}

/* atom* (min = 0) or atom+ (min = 1): greedy with backtracking. */
static int match_repeat(const char *atom, int min, const char *rest, const char *s,
			unsigned *steps)
{
	const char *t = s;
	int len;
	while (match_atom(atom, *t, &len))
		t++;
	for (; t >= s + min; t--) {
		++*steps;
		if (match_here(rest, t, steps))
			return 1;
	}
	return 0;
}

static int match_here(const char *re, const char *s, unsigned *steps)
{
	for (;;) {
		int len;
		++*steps;
		if (re[0] == '\0')
			return 1;
		if (re[0] == '$' && re[1] == '\0')
			return *s == '\0' || *s == '\n';
		len = atom_len(re);
		switch (re[len]) {
		case '*':
			return match_repeat(re, 0, re + len + 1, s, steps);
		case '+':
			return match_repeat(re, 1, re + len + 1, s, steps);
		case '?':
			if (match_atom(re, *s, &len) && match_here(re + len + 1, s + 1, steps))
				return 1;
			re += len + 1;
			continue;
		default:
			break;
		}
		if (!match_atom(re, *s, &len))
			return 0;
		re += len;
		s++;
	}
}

/* Returns the match offset in the line [s, eol) or -1. */
static int match_line(struct pat p, const char *s, unsigned *steps)
{
	if (p.anchored)
		return match_here(p.re, s, steps) ? 0 : -1;
	const char *t = s;
	do {
		if (match_here(p.re, t, steps))
			return (int)(t - s);
	} while (*t != '\n' && *t++ != '\0');
	return -1;
}

static int valid(const char *re)
{
	int depth = 0;
	for (; *re; re++) {
		if (*re == '(' || *re == ')')
			goto bad;
		if (*re == '[')
			depth++;
		else if (*re == ']')
			depth--;
		if (depth < 0 || depth > 1)
			goto bad;
	}
	if (depth)
		goto bad;
	return 1;
bad:
	return 0;
}

static struct pat compile(const char *re)
{
	struct pat p;
	p.anchored = re[0] == '^';
	p.re = re + p.anchored;
	return p;
}

int main(void)
{
	uint32_t h = 5381;
	unsigned total_steps = 0;
	for (unsigned k = 0; k < sizeof pats / sizeof pats[0]; k++) {
		unsigned steps = 0;
		int hits = 0, lineno = 0, firstoff = -1;
		if (!valid(pats[k])) {
			printf("%-28s invalid\n", pats[k]);
			continue;
		}
		struct pat p = compile(pats[k]);
		for (int rep = 0; rep < 1; rep++) {
			const char *line = text;
			lineno = 0;
			while (*line) {
				int off = match_line(p, line, &steps);
				if (off >= 0) {
					hits++;
					if (firstoff < 0)
						firstoff = lineno * 100 + off;
					h = h * 33 + (uint32_t)(lineno * 131 + off);
				}
				line = strchr(line, '\n');
				if (!line)
					break;
				line++;
				lineno++;
			}
		}
		total_steps += steps;
		printf("%-28s hits=%d first=%d steps=%u\n", pats[k], hits, firstoff, steps);
	}
	printf("hash=%08x steps=%u\n", (unsigned)h, total_steps);
	return 0;
}
