/* A helper called out of line with a varying character and inlined late
 * where a constant 0 resolves its first test: width() calls spec(f, 0,
 * &w) only for the width of the format item at f. That copy keeps the
 * `c == 0` arm's tests (on lines 22 and 23, which the arm's blocks share)
 * but no code of the arm's `return 0`, the one line that only the arm's
 * last block lists, so that block's estimate counts the out-of-line body
 * alone: the copy's runs still belong to the `c == 0` arm, not to the
 * switch's cases (spec's counter 5, `case '\\'`, stays the body's). */
#include <stdio.h>
#include <string.h>

static const char *const fmts[] = {
	"%d items", "[abc] or %s", "a*b?c", "[x-z]*%d", "\\n%x", "plain",
	"%5d|%-3s", "[0-9]+\\.", "%%", "x[yz]%c\\t", "%lu/%lu", "\\\\%",
	"[", "a%", "%", "[]]%d",
};

/* Matches item f against c; *w gets the item's width in the format. */
static int spec(const char *f, char c, int *w)
{
	if (c == '\0') {
		*w = (f[0] == '[') ? (int)(strchr(f, ']') ? strchr(f, ']') - f + 1 : 1)
				   : (f[0] == '\\' ? 2 : 1);
		return 0;
	}
	switch (f[0]) {
	case '%': {
		int i = 1;
		while (f[i] == '-' || (f[i] >= '0' && f[i] <= '9'))
			i++;
		while (f[i] == 'l')
			i++;
		*w = f[i] ? i + 1 : i;
		return c == '#';
	}
	case '\\':
		*w = 2;
		return f[1] == c;
	case '[': {
		int i = 1, hit = 0;
		for (; f[i] && f[i] != ']'; i++)
			if (f[i] == c)
				hit = 1;
		*w = f[i] ? i + 1 : i;
		return hit;
	}
	default:
		*w = 1;
		return f[0] == c;
	}
}

static int width(const char *f)
{
	int w;
	spec(f, '\0', &w);
	return w;
}

static unsigned walk(const char *f, const char *s, unsigned *steps);

/* Item f as often as it matches at s (`*`), then the rest of f. */
static unsigned repeat(const char *f, const char *rest, const char *s,
                       unsigned *steps)
{
	const char *t = s;
	int w;
	while (*t && spec(f, *t, &w))
		t++;
	++*steps;
	return (unsigned)(t - s) + walk(rest, t, steps);
}

/* Items of f matched against s in step (`*` skips an item, `?` a
 * character); returns how many matched. */
static unsigned walk(const char *f, const char *s, unsigned *steps)
{
	unsigned hits = 0;
	while (*f && *s) {
		int w = width(f);
		++*steps;
		if (f[w] == '*')
			return hits + repeat(f, f + w + 1, s, steps);
		if (f[w] == '?') {
			s++;
			f += w + 1;
			continue;
		}
		if (spec(f, *s, &w))
			hits++;
		f += w;
		s++;
	}
	return hits;
}

int main(void)
{
	static const char *const texts[] = {
		"12 items", "b or %s", "\\n%x", "plain text", "%5d|%-3s",
		"7.", "%", "xy\\t", "10/20", "\\%", "[", "a%%", "?", "]5",
	};
	unsigned steps = 0, hits = 0;
	for (unsigned round = 0; round < 30; round++)
		for (unsigned k = 0; k < sizeof(fmts) / sizeof(fmts[0]); k++)
			hits += walk(fmts[k], texts[(k + round) %
			                            (sizeof(texts) / sizeof(texts[0]))],
			             &steps);
	printf("steps %u hits %u\n", steps, hits);
	return 0;
}
