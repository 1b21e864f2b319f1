/* String table / symbol interning with open addressing. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>

#define CAP 256
#define POOL 16384

struct sym {
	const char *name;
	unsigned len;
	unsigned hash;
	int kind;
	int refs;
};

static struct sym table[CAP];
static char pool[POOL];
static unsigned pool_used;
static unsigned nsyms, probes_total, collisions;
static uint32_t lcg_state = 12345u;

static uint32_t lcg(void)
{
	lcg_state = lcg_state * 1103515245u + 12345u;
	return (lcg_state >> 8) & 0xffffff;
}

static unsigned hash_str(const char *s, unsigned len)
{
	unsigned h = 2166136261u;
	for (unsigned i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h ? h : 1;
}

static char *pool_dup(const char *s, unsigned len)
{
	if (pool_used + len + 1 > POOL)
		return NULL;
	char *p = pool + pool_used;
	memcpy(p, s, len);
	p[len] = 0;
	pool_used += len + 1;
	return p;
}

/* Returns the slot of s or NULL; several return points. */
static struct sym *lookup(const char *s, unsigned len)
{
	unsigned h = hash_str(s, len);
	unsigned i = h & (CAP - 1), n = 0;
	struct sym *e;
	if (len == 0)
		return NULL;
	do {
		e = &table[i];
		probes_total++;
		if (!e->name)
			return NULL;
		if (e->hash == h && e->len == len && memcmp(e->name, s, len) == 0)
			goto found;
		if (e->kind < 0 && n > CAP / 2)
			break;
		i = (i + 1) & (CAP - 1);
		n++;
	} while (n < CAP);
	return NULL;
found:
	e->refs++;
	return e;
}

static struct sym *intern(const char *s, unsigned len, int kind)
{
	unsigned h = hash_str(s, len);
	unsigned i = h & (CAP - 1), n = 0;
	struct sym *e = NULL;
	if (len == 0 || nsyms >= CAP - 8)
		return NULL;
	do {
		e = &table[i];
		if (!e->name)
			break;
		if (e->hash == h && e->len == len && strncmp(e->name, s, len) == 0 && e->name[len] == 0)
			goto found;
		collisions++;
		i = (i + 1) & (CAP - 1);
	} while (++n < CAP);
	if (n >= CAP)
		return NULL;
	e->name = pool_dup(s, len);
	if (!e->name)
		return NULL;
	e->len = len;
	e->hash = h;
	e->kind = kind;
	e->refs = 1;
	nsyms++;
	return e;
found:
	e->refs++;
	return e->kind == kind ? e : (e->kind = kind < e->kind ? kind : e->kind, e);
}

static const char *kind_name(int k)
{
	return k == 0 ? "ident" : k == 1 ? "keyword" : k == 2 ? "number" : "other";
}

static const char *const keywords[] = {
	"if", "else", "while", "for", "return", "int", "char", "struct",
	"static", "const", "do", "goto", "break", "continue", "switch", "case",
};

static int classify(const char *w, unsigned len)
{
	if (len && w[0] >= '0' && w[0] <= '9')
		return 2;
	for (unsigned k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
		if (strlen(keywords[k]) == len && memcmp(keywords[k], w, len) == 0)
			return 1;
	return (w[0] == '_' || (w[0] >= 'a' && w[0] <= 'z')) ? 0 : 3;
}

static unsigned make_word(char *buf)
{
	static const char syl[][4] = { "ka", "ro", "mi", "tu", "ne", "sa", "lo", "vi", "_x", "9" };
	uint32_t r = lcg();
	unsigned nsyl = 1 + r % 3, len = 0;
	if ((r >> 4) % 11 == 0) {
		const char *k = keywords[(r >> 8) % 16];
		len = (unsigned)strlen(k);
		memcpy(buf, k, len);
		buf[len] = 0;
		return len;
	}
	for (unsigned i = 0; i < nsyl; i++) {
		const char *p = syl[lcg() % 10];
		while (*p)
			buf[len++] = *p++;
	}
	buf[len] = 0;
	return len;
}

/* Letter classes: a switch gcc may turn into a bit test. */
static unsigned shape(const char *w)
{
	unsigned v = 0, c = 0, d = 0;
	for (; *w; w++) {
		switch (*w) {
		case 'a': case 'e': case 'i': case 'o': case 'u':
			v++;
			break;
		case '0': case '9':
			d++;
			break;
		default:
			c++;
		}
		if (*w == '_') { c += 2; } if (v > 3) { v = 3; }
	}
	return v * 100 + c * 10 + d;
}

static int remove_sym(const char *s)
{
	struct sym *e = lookup(s, (unsigned)strlen(s));
	if (!e)
		return 0;
	if (e->refs > 3) {
		e->refs -= 3;
		return 1;
	}
	e->kind = -1;
	return 2;
}

static const char *longest(void)
{
	const struct sym *best = NULL;
	for (unsigned i = 0; i < CAP; i++) {
		const struct sym *e = &table[i];
		if (!e->name || e->kind < 0)
			continue;
		if (!best || e->len > best->len || (e->len == best->len && strcmp(e->name, best->name) < 0))
			best = e;
	}
	return best ? best->name : "(none)";
}

/* Same body twice: gcc -O2 folds them (ipa-icf). */
static __attribute__((noinline)) unsigned live_len(unsigned from, unsigned to)
{
	unsigned t = 0;
	for (unsigned i = from; i < to; i++)
		if (table[i].name && table[i].kind >= 0)
			t += table[i].len;
	return t;
}

static __attribute__((noinline)) unsigned used_len(unsigned from, unsigned to)
{
	unsigned t = 0;
	for (unsigned i = from; i < to; i++)
		if (table[i].name && table[i].kind >= 0)
			t += table[i].len;
	return t;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = *(const struct sym *const *)a, *y = *(const struct sym *const *)b;
	if (x->refs != y->refs)
		return x->refs > y->refs ? -1 : 1;
	return strcmp(x->name, y->name);
}

int main(void)
{
	char buf[32];
	unsigned kinds[4] = { 0 }, fails = 0, shapes = 0, hits = 0, misses = 0;
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < 200; i++) {
			unsigned len = make_word(buf);
			int k = classify(buf, len);
			struct sym *e = intern(buf, len, k);
			if (!e) {
				fails++;
				continue;
			}
			shapes += shape(e->name) % 7 == 3 ? 1 : 0;
			kinds[e->kind >= 0 && e->kind < 4 ? e->kind : 3]++;
		}
		for (int i = 0; i < 150; i++) {
			unsigned len = make_word(buf);
			if (i % 7 == 3)
				buf[len - 1] ^= 1;
			if (lookup(buf, len))
				hits++;
			else
				misses++;
		}
		unsigned rem[3] = { 0 };
		for (int i = 0; i < 20; i++) {
			make_word(buf);
			rem[remove_sym(buf)]++;
		}
		printf("round %d: syms=%u pool=%u hits=%u misses=%u rem=%u/%u/%u\n", round, nsyms,
		       pool_used, hits, misses, rem[0], rem[1], rem[2]);
	}
	printf("kinds: %s=%u %s=%u %s=%u %s=%u fails=%u\n", kind_name(0), kinds[0], kind_name(1),
	       kinds[1], kind_name(2), kinds[2], kind_name(3), kinds[3], fails);
	printf("probes=%u collisions=%u shapes=%u longest=%s\n", probes_total, collisions, shapes, longest());
	struct sym *arr[CAP];
	unsigned n = 0;
	for (unsigned i = 0; i < CAP; i++)
		if (table[i].name && table[i].kind >= 0)
			arr[n++] = &table[i];
	qsort(arr, n, sizeof arr[0], cmp_sym);
	for (unsigned i = 0; i < n && i < 8; i++)
		printf("  %-10s %-8s refs=%d\n", arr[i]->name, kind_name(arr[i]->kind), arr[i]->refs);
	unsigned l1 = 0, l2 = 0;
	for (unsigned i = 0; i < CAP; i += 64) {
		l1 += live_len(i, i + 64);
		if (i % 128 == 0)
			l2 += used_len(i, i + 32);
	}
	printf("lengths: %u %u\n", l1, l2);
	printf("empty lookup: %s\n", lookup("", 0) ? "found" : "null");
	return 0;
}
