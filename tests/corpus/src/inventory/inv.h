#ifndef INV_H
#define INV_H
#include <stdint.h>
#include <stddef.h>

enum kind { K_WIDGET, K_LIQUID, K_BUNDLE };

struct item {
	char name[16];
	enum kind kind;
	union {
		struct { int w, h; } widget;
		struct { double litres; int hazard; } liquid;
		struct { int count; short parts[4]; } bundle;
	} u;
	int qty;
	int price; /* cents */
	int zone;
};

struct summary { long value; int items; int hazard; int maxqty; };

extern struct item stock[];
extern int nstock;
extern int registry_ready;

void gen_stock(int n, unsigned seed);
struct item make_item(int i, unsigned r);
struct summary summarize(const struct item *it, int n, int zone);
long item_value(struct item it);
int apply_order(struct item *it, int n, const char *name, int delta);
void sort_by(struct item *it, int n, int key);
int format_item(char *buf, size_t len, const struct item *it);
unsigned hash_str(const char *s);
int audit_count(void);
#endif
