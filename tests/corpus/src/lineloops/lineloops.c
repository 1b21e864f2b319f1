/* Functions written on one line, inlined into their callers: a two-level
 * search (an outer loop over levels, an inner walk along each level), a
 * hash-chain lookup (a loop whose test and early return share the line)
 * and a row scan (a loop nested in a loop). Each lists its one line in
 * every gcno block, so lines cannot tell its conditions apart; the shape
 * of each inlined copy's code can (gcda_shape.c), and the calls follow
 * from the pins of the first test every call runs (gcda_pinentry.c). */
#include <stdio.h>

#define LEVELS 5
#define NODES 700
#define BUCKETS 32

struct node { int key; struct node *next[LEVELS]; };
struct item { int key, val; struct item *link; };

static struct node nodes[NODES], root;
static int nnodes, depth = 1;
static struct item items[300], *table[BUCKETS];
static int nitems;
static long probes, hops;
static unsigned state = 12345;

static unsigned step(void) { state = state * 69069u + 1u; return state >> 8; }
static int draw_level(void) { int l = 1; unsigned r = step(); while ((r & 3) == 1 && l < LEVELS) { l++; r >>= 2; } return l; }

static void add(int key)
{
	struct node *prev[LEVELS], *x = &root;
	int i, l;
	for (i = depth - 1; i >= 0; i--) {
		while (x->next[i] && x->next[i]->key < key)
			x = x->next[i];
		prev[i] = x;
	}
	if ((x->next[0] && x->next[0]->key == key) || nnodes == NODES)
		return;
	l = draw_level();
	for (i = depth; i < l; i++)
		prev[i] = &root;
	if (l > depth)
		depth = l;
	x = &nodes[nnodes++];
	x->key = key;
	for (i = 0; i < l; i++) { x->next[i] = prev[i]->next[i]; prev[i]->next[i] = x; }
}

static int seek(int key) { struct node *x = &root; for (int i = depth - 1; i >= 0; i--) while (x->next[i] && x->next[i]->key < key) { x = x->next[i]; hops++; } x = x->next[0]; return x && x->key == key; }

static struct item *chain(int key) { for (struct item *e = table[(unsigned)key % BUCKETS]; e; e = e->link) { probes++; if (e->key == key) return e; } return NULL; }

static int fetch(int key)
{
	struct item *e = chain(key);
	if (e)
		return e->val;
	if (nitems == 300)
		return -1;
	e = &items[nitems++];
	e->key = key;
	e->val = key % 97;
	e->link = table[(unsigned)key % BUCKETS];
	table[(unsigned)key % BUCKETS] = e;
	return e->val;
}

static int below(const int *m, int rows, int cols, int lim) { int n = 0; for (int r = 0; r < rows; r++) for (int c = 0; c < cols && m[r * cols + c] < lim; c++) n++; return n; }

int main(void)
{
	static int grid[12 * 10];
	long found = 0, sum = 0, under = 0;
	for (int i = 0; i < 900; i++)
		add((int)(step() % 3001));
	for (int k = 0; k < 3001; k += 4)
		found += seek(k);
	for (int i = 0; i < 2500; i++)
		sum += fetch((int)(step() % 450) * (i % 3 + 1));
	for (int i = 0; i < 12 * 10; i++)
		grid[i] = (int)(step() % 100);
	for (int lim = 0; lim < 100; lim += 3)
		under += below(grid, 12, 10, lim);
	printf("nodes=%d depth=%d found=%ld hops=%ld\n", nnodes, depth, found, hops);
	printf("items=%d probes=%ld sum=%ld under=%ld\n", nitems, probes, sum, under);
	return 0;
}
