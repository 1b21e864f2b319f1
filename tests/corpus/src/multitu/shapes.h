/* Shared declarations of the multitu corpus program (three translation units). */
#ifndef CORPUS_SHAPES_H
#define CORPUS_SHAPES_H

struct pt {
	long x;	/* abscissa */
	long y;	/* ordinate */
};

long poly_area2(const struct pt *p, int n);
int hull(struct pt *p, int n, struct pt *out);
void gen_points(struct pt *p, int n, unsigned int seed);
unsigned long hash_points(const struct pt *p, int n);

#endif
