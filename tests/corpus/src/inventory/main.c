#include <stdio.h>
#include "inv.h"
#include "util.h"

int registry_ready;

__attribute__((constructor)) static void init_registry(void) { registry_ready = 42; }

int main(void)
{
	char buf[96];
	unsigned s = 777u;
	printf("ready=%d\n", registry_ready);
	gen_stock(120, 99u);
	for (int z = 0; z < 4; z++) {
		struct summary sm = summarize(stock, nstock, z);
		printf("zone %d: items=%d value=%ld hazard=%d maxqty=%d\n", z, sm.items, sm.value, sm.hazard, sm.maxqty);
	}
	int miss = 0, hit = 0;
	for (int i = 0; i < 400; i++) {
		char name[16];
		unsigned r = lcg(&s);
		snprintf(name, sizeof name, "it%03u", r % 140u);
		int d = (int)(r % 17u) - 9;
		int rc = apply_order(stock, nstock, name, d);
		if (rc < 0) miss++; else hit += rc;
	}
	printf("orders: miss=%d hit=%d audit=%d\n", miss, hit, audit_count());
	for (int key = 0; key < 4; key++) {
		sort_by(stock, nstock, key);
		unsigned h = 0;
		for (int i = 0; i < nstock; i++) {
			format_item(buf, sizeof buf, &stock[i]);
			h = h * 131u + hash_str(buf);
		}
		format_item(buf, sizeof buf, &stock[0]);
		printf("key %d: h=%08x first=%s\n", key, h, buf);
	}
	long tv = 0;
	for (int i = 0; i < nstock; i++) tv += sgn(item_value(stock[i])) * MIN(item_value(stock[i]), 100000L);
	printf("total=%ld\n", tv);
	return 0;
}
