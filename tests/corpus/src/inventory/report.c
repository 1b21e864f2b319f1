#include <stdio.h>
#include "inv.h"
#include "util.h"

struct summary summarize(const struct item *it, int n, int zone)
{
	struct summary s = { 0, 0, 0, 0 };
	for (int i = 0; i < n; i++) {
		if (it[i].zone != zone) continue;
		s.items++;
		s.value += item_value(it[i]);
		if (it[i].kind == K_LIQUID && it[i].u.liquid.hazard) s.hazard++;
		s.maxqty = MAX(s.maxqty, it[i].qty);
	}
	return s;
}

int format_item(char *buf, size_t len, const struct item *it)
{
	int n;
	switch (it->kind) {
	case K_WIDGET:
		n = snprintf(buf, len, "%s W %dx%d q%d $%d.%02d", it->name, it->u.widget.w, it->u.widget.h, it->qty,
			     it->price / 100, it->price % 100);
		break;
	case K_LIQUID:
		n = snprintf(buf, len, "%s L %.2f%s q%d", it->name, it->u.liquid.litres, it->u.liquid.hazard ? "!" : "", it->qty);
		break;
	default:
		n = snprintf(buf, len, "%s B%d q%d", it->name, it->u.bundle.count, it->qty);
	}
	return n < (int)len ? n : (int)len - 1;
}
