/* AVL tree: insert, delete, lookup with rotations, in-order walk, invariant checks. */
#include <stdio.h>
#include <stdlib.h>

typedef struct node {
	int key;
	int val;
	int height;
	struct node *left, *right;
} node;

static node pool[2048];
static node *freelist;
static int pool_used;
static unsigned rng_state = 12345u;

static unsigned rnd(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return (rng_state >> 8) & 0xffffff;
}

static node *alloc_node(int key, int val)
{
	node *n;
	if (freelist) {
		n = freelist;
		freelist = n->left;
	} else if (pool_used < 2048) {
		n = &pool[pool_used++];
	} else {
		return NULL;
	}
	n->key = key;
	n->val = val;
	n->height = 1;
	n->left = n->right = NULL;
	return n;
}

static void free_node(node *n)
{
	n->left = freelist;
	freelist = n;
}

static int height(const node *n) { return n ? n->height : 0; }
static int maxi(int a, int b) { return a > b ? a : b; }

static void fix_height(node *n)
{
	n->height = 1 + maxi(height(n->left), height(n->right));
}

static int balance(const node *n)
{
	return height(n->left) - height(n->right);
}

static node *rot_right(node *y)
{
	node *x = y->left;
	y->left = x->right;
	x->right = y;
	fix_height(y);
	fix_height(x);
	return x;
}

static node *rot_left(node *x)
{
	node *y = x->right;
	x->right = y->left;
	y->left = x;
	fix_height(x);
	fix_height(y);
	return y;
}

static long rotations;

static node *rebalance(node *n)
{
	int b;
	fix_height(n);
	b = balance(n);
	if (b > 1) {
		if (balance(n->left) < 0) {
			n->left = rot_left(n->left);
			rotations++;
		}
		rotations++;
		return rot_right(n);
	}
	if (b < -1) {
		if (balance(n->right) > 0) {
			n->right = rot_right(n->right);
			rotations++;
		}
		rotations++;
		return rot_left(n);
	}
	return n;
}

static node *insert(node *n, int key, int val, int *added)
{
	if (!n) {
		node *m = alloc_node(key, val);
		if (m)
			*added = 1;
		return m;
	}
	if (key < n->key)
		n->left = insert(n->left, key, val, added);
	else if (key > n->key)
		n->right = insert(n->right, key, val, added);
	else {
		n->val += val;
		return n;
	}
	return rebalance(n);
}

static node *remove_min(node *n, node **minp)
{
	if (!n->left) {
		*minp = n;
		return n->right;
	}
	n->left = remove_min(n->left, minp);
	return rebalance(n);
}

static node *delete(node *n, int key, int *removed)
{
	node *l, *r, *m;
	if (!n)
		return NULL;
	if (key < n->key) {
		n->left = delete(n->left, key, removed);
	} else if (key > n->key) {
		n->right = delete(n->right, key, removed);
	} else {
		*removed = 1;
		l = n->left;
		r = n->right;
		free_node(n);
		if (!r)
			return l;
		r = remove_min(r, &m);
		m->right = r;
		m->left = l;
		return rebalance(m);
	}
	return rebalance(n);
}

static const node *lookup(const node *n, int key)
{
	while (n) {
		if (key == n->key)
			return n;
		n = key < n->key ? n->left : n->right;
	}
	return NULL;
}

/* Returns the height, or -1 when an invariant is broken. */
static int check(const node *n, long lo, long hi, int *count)
{
	int hl, hr;
	if (!n)
		return 0;
	if (n->key <= lo || n->key >= hi)
		return -1;
	hl = check(n->left, lo, n->key, count);
	if (hl < 0)
		return -1;
	hr = check(n->right, n->key, hi, count);
	if (hr < 0)
		return -1;
	if (hl - hr > 1 || hr - hl > 1)
		return -1;
	if (n->height != 1 + maxi(hl, hr))
		return -1;
	++*count;
	return n->height;
}

typedef void (*visit_fn)(const node *, void *);

static void inorder(const node *n, visit_fn f, void *ctx)
{
	if (!n)
		return;
	inorder(n->left, f, ctx);
	f(n, ctx);
	inorder(n->right, f, ctx);
}

struct sum_ctx { unsigned long h; int prev; int sorted; };

static void visit_sum(const node *n, void *p)
{
	struct sum_ctx *c = p;
	if (n->key <= c->prev)
		c->sorted = 0;
	c->prev = n->key;
	c->h = c->h * 31u + (unsigned)n->key * 7u + (unsigned)n->val;
}

static int kth(const node *n, int k, int *out)
{
	/* k-th smallest by explicit stack walk */
	const node *stack[64];
	int sp = 0;
	while (n || sp) {
		while (n) {
			stack[sp++] = n;
			n = n->left;
		}
		n = stack[--sp];
		if (k-- == 0) {
			*out = n->key;
			return 1;
		}
		n = n->right;
	}
	return 0;
}

int main(void)
{
	node *root = NULL;
	int size = 0, round, i, bad = 0;
	long found = 0, missed = 0;
	for (round = 0; round < 3; round++) {
		int added = 0, removed = 0;
		for (i = 0; i < 180; i++) {
			int k = (int)(rnd() % 900), a = 0;
			root = insert(root, k, i, &a);
			added += a;
		}
		for (i = 0; i < 140; i++) {
			int k = (int)(rnd() % 900), r = 0;
			root = delete(root, k, &r);
			removed += r;
		}
		size += added - removed;
		for (i = 0; i < 300; i++) {
			if (lookup(root, (int)(rnd() % 900)))
				found++;
			else
				missed++;
		}
		{
			int cnt = 0, h = check(root, -1, 100000, &cnt);
			struct sum_ctx c = { 5381u, -1, 1 };
			int med = -1;
			inorder(root, visit_sum, &c);
			kth(root, cnt / 2, &med);
			if (h < 0 || cnt != size || !c.sorted)
				bad++;
			printf("round %d: +%d -%d size=%d height=%d median=%d hash=%08lx\n",
			       round, added, removed, size, h, med, c.h & 0xffffffffUL);
		}
	}
	while (root) {
		int r = 0;
		root = delete(root, root->key, &r);
		size -= r;
	}
	printf("found=%ld missed=%ld rotations=%ld final=%d bad=%d\n", found, missed,
	       rotations, size, bad);
	return bad ? 1 : 0;
}
