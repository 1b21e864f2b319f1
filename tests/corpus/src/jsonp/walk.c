/* jsonp: tree walkers. */
#include "json.h"

double jsum(int n)
{
	double s = 0;
	for (; n >= 0; n = jpool[n].next) {
		switch (jpool[n].kind) {
		case J_NUM:
			s += jpool[n].num;
			break;
		case J_TRUE:
			s += 1;
			break;
		case J_ARR:
		case J_OBJ:
			s += jsum(jpool[n].first);
			break;
		default:
			break;
		}
	}
	return s;
}

int jdepth(int n)
{
	int best = 0;
	for (; n >= 0; n = jpool[n].next) {
		int d = 1;
		if (jpool[n].kind == J_ARR || jpool[n].kind == J_OBJ)
			d += jdepth(jpool[n].first);
		if (d > best)
			best = d;
	}
	return best;
}

uint32_t jkeyhash(int n, uint32_t h)
{
	while (n >= 0) {
		const struct jnode *j = &jpool[n];
		if (j->key >= 0)
			for (const char *c = &jstr[j->key]; *c; c++)
				h = fnv_step(h, (unsigned char)*c);
		if (j->kind == J_STR)
			for (const char *c = &jstr[j->str]; *c; c++)
				h = fnv_step(h, (unsigned char)*c) + 1;
		if (j->first >= 0)
			h = jkeyhash(j->first, h * 31);
		n = j->next;
	}
	return h;
}

int jcount(int n, enum jkind k)
{
	int c = 0;
	for (; n >= 0; n = jpool[n].next)
		c += (jpool[n].kind == k) + jcount(jpool[n].first, k);
	return c;
}
