/* Lookups in the afdo receiver's sorted address-pair tables (struct
 * afdo_pair, sorted by first address): instruction counts (ic) and taken
 * transfers (in->br, one record per source and target). */
#include "afdo.h"

size_t afdo_pairs_first(const struct afdo_pair *t, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t[mid].a < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t afdo_count_at(const struct afdo_pair *ic, size_t nic, uint64_t addr)
{
	size_t k = afdo_pairs_first(ic, nic, addr);
	return k < nic && ic[k].a == addr ? ic[k].count : 0;
}

uint64_t afdo_taken_from(const struct afdo_input *in, uint64_t addr)
{
	uint64_t n = 0;
	for (size_t k = afdo_pairs_first(in->br, in->nbr, addr);
	     k < in->nbr && in->br[k].a == addr; k++)
		n += in->br[k].count;
	return n;
}

uint64_t afdo_taken_to(const struct afdo_input *in, uint64_t a, uint64_t b)
{
	for (size_t k = afdo_pairs_first(in->br, in->nbr, a);
	     k < in->nbr && in->br[k].a == a; k++)
		if (in->br[k].b == b)
			return in->br[k].count;
	return 0;
}
