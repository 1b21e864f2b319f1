#ifndef MEMO_H
#define MEMO_H
long is_even_depth(unsigned n, long acc);
long is_odd_depth(unsigned n, long acc);
int tree_a(int n, int *calls);
int tree_b(int n, int *calls);
unsigned gcd_tail(unsigned a, unsigned b);
long sum_tail(const int *v, int n, long acc);
#endif
