#include <stdio.h>
#include <string.h>
#include "inv.h"
#include "util.h"

struct item stock[160];
int nstock;

struct item make_item(int i, unsigned r)
{
	struct item it;
	memset(&it, 0, sizeof it);
	snprintf(it.name, sizeof it.name, "it%03d", i);
	it.kind = (enum kind)(r % 3u);
	switch (it.kind) {
	case K_WIDGET: it.u.widget.w = (int)(r >> 3) % 50 + 1; it.u.widget.h = (int)(r >> 7) % 30 + 1; break;
	case K_LIQUID:
		it.u.liquid.litres = (double)((r >> 4) % 200) / 8.0;
		it.u.liquid.hazard = (r & 0x40) != 0;
		break;
	default:
		it.u.bundle.count = (int)(r >> 5) % 4 + 1;
		for (int k = 0; k < 4; k++) it.u.bundle.parts[k] = (short)(k < it.u.bundle.count ? (int)((r >> (k * 3)) % 90) : -1);
	}
	it.qty = (int)((r >> 11) % 60);
	it.price = (int)((r >> 13) % 5000) + 99;
	it.zone = (int)((r >> 17) & 3);
	return it;
}

void gen_stock(int n, unsigned seed)
{
	nstock = 0;
	for (int i = 0; i < n && nstock < 160; i++) {
		unsigned r = lcg(&seed);
		if (r % 11u == 0) continue; /* gaps in numbering */
		stock[nstock++] = make_item(i, r);
	}
}

long item_value(struct item it)
{
	long base = (long)it.qty * it.price;
	switch (it.kind) {
	case K_WIDGET: return base + it.u.widget.w * it.u.widget.h;
	case K_LIQUID: return it.u.liquid.hazard ? base / 2 : base + (long)(it.u.liquid.litres * 10);
	case K_BUNDLE: {
		long extra = 0;
		for (int k = 0; k < it.u.bundle.count; k++) extra += it.u.bundle.parts[k];
		return base + extra;
	}
	}
	return -1;
}
