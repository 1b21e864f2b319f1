/* Recursion: naive fibonacci, Ackermann, a binary search tree built and walked recursively. */
#include <stdio.h>
#include <stdlib.h>

struct node {
	int key;		/* search key */
	int count;		/* times the key was inserted */
	struct node *left;	/* keys less than key */
	struct node *right;	/* keys greater than key */
};

/* Returns the n-th Fibonacci number, exponentially on purpose. */
static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* Returns the Ackermann function A(m, n). */
static long ack(long m, long n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

/* Inserts key below *root; returns the (possibly new) subtree root. */
static struct node *insert(struct node *root, int key)
{
	if (!root) {
		root = malloc(sizeof(*root));
		if (!root)
			exit(2);
		root->key = key;
		root->count = 1;
		root->left = root->right = NULL;
	} else if (key < root->key) {
		root->left = insert(root->left, key);
	} else if (key > root->key) {
		root->right = insert(root->right, key);
	} else {
		root->count++;
	}
	return root;
}

/* Returns the height of the tree. */
static int height(const struct node *t)
{
	int l, r;

	if (!t)
		return 0;
	l = height(t->left);
	r = height(t->right);
	return 1 + (l > r ? l : r);
}

/* Folds an in-order walk into *h; returns the number of nodes. */
static int walk(const struct node *t, unsigned long *h)
{
	int n;

	if (!t)
		return 0;
	n = walk(t->left, h);
	*h = *h * 131 + (unsigned long)(t->key * 7 + t->count);
	return n + 1 + walk(t->right, h);
}

/* Frees the tree. */
static void destroy(struct node *t)
{
	if (!t)
		return;
	destroy(t->left);
	destroy(t->right);
	free(t);
}

int main(void)
{
	struct node *root = NULL;
	unsigned long h = 0;
	unsigned int x = 7;
	int i, n;

	printf("fib(20)=%ld\n", fib(20));
	printf("ack(2,3)=%ld ack(3,3)=%ld\n", ack(2, 3), ack(3, 3));
	for (i = 0; i < 800; i++) {
		x = x * 69069u + 1u;
		root = insert(root, (int)((x >> 8) % 1000));
	}
	n = walk(root, &h);
	printf("nodes=%d height=%d hash=%lu\n", n, height(root), h);
	destroy(root);
	return 0;
}
