#include <string.h>
#include <stdlib.h>
#include "inv.h"
#include "util.h"

static int audits;

int audit_count(void) { return audits; }

unsigned hash_str(const char *s) { unsigned h = 5381; while (*s) h = h * 33u ^ (unsigned char)*s++; return h; }

static int note(int q)
{
	static int calls;
	calls++;
	if (q == 0 || calls % 50 == 0) audits++;
	return q;
}

int apply_order(struct item *it, int n, const char *name, int delta)
{
	int lo = 0, hi = n - 1;
	/* stock is sorted by name only until the first sort_by; fall back to a scan */
	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(it[mid].name, name);
		if (c == 0) {
			int q = CLAMP(it[mid].qty + delta, 0, 99);
			it[mid].qty = q;
			return note(q);
		}
		if (c < 0) lo = mid + 1; else hi = mid - 1;
	}
	return -1;
}

static int sort_key;

static int cmp_items(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	long d;
	switch (sort_key) {
	case 0: d = (long)a->kind - b->kind; if (d == 0) d = strcmp(a->name, b->name); break;
	case 1: d = item_value(*b) - item_value(*a); break;
	case 2: d = a->zone != b->zone ? a->zone - b->zone : a->qty - b->qty; break;
	default: d = strcmp(b->name, a->name);
	}
	if (d == 0) d = strcmp(a->name, b->name);
	return sgn(d);
}

void sort_by(struct item *it, int n, int key)
{
	sort_key = key;
	qsort(it, (size_t)n, sizeof *it, cmp_items);
}
