/* A stack VM whose dispatch loop is a switch inside for (;;), a binary heap
 * with sift loops, and a chained hash table with deletion. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c, code) do { if (!(c)) { fail = (code); goto out; } } while (0)
#define SWAP(a, b) do { int t_ = (a); (a) = (b); (b) = t_; } while (0)

enum { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_JNZ, OP_DEC,
       OP_PRINT, OP_DROP, OP_DIV, OP_OVER, OP_HALT };

static long stack[64];

/* Runs prog; returns the top of stack at OP_HALT or a negative error. */
static long run(const int *prog, int *steps)
{
	int sp = 0, pc = 0, fail = 0;
	long a, b;

	for (;;) {
		int op = prog[pc++];
		++*steps;
		switch (op) {
		case OP_PUSH: CHECK(sp < 64, 1); stack[sp++] = prog[pc++]; break;
		case OP_ADD: a = stack[--sp]; stack[sp - 1] += a; break;
		case OP_SUB: a = stack[--sp]; stack[sp - 1] -= a; break;
		case OP_MUL: a = stack[--sp]; stack[sp - 1] *= a; break;
		case OP_DIV:
			a = stack[--sp];
			CHECK(a != 0, 2);
			stack[sp - 1] /= a;
			break;
		case OP_DUP: CHECK(sp > 0, 3); stack[sp] = stack[sp - 1]; sp++; break;
		case OP_SWAP: a = stack[sp - 1]; b = stack[sp - 2];
			stack[sp - 1] = b; stack[sp - 2] = a; break;
		case OP_JNZ: a = stack[--sp]; if (a) pc = prog[pc]; else pc++; break;
		case OP_DEC: stack[sp - 1]--; break;
		case OP_OVER: stack[sp] = stack[sp - 2]; sp++; break;
		case OP_PRINT: printf("vm %ld\n", stack[sp - 1]); break;
		case OP_DROP: sp--; break;
		case OP_HALT: return sp ? stack[sp - 1] : 0;
		default: fail = 4; goto out;
		}
	}
out:
	return -fail;
}

/* Binary min-heap. */
static int heap[512];
static int heap_n;

static void heap_push(int v)
{
	int i = heap_n++;
	heap[i] = v;
	while (i > 0 && heap[(i - 1) / 2] > heap[i]) {
		SWAP(heap[(i - 1) / 2], heap[i]);
		i = (i - 1) / 2;
	}
}

static int heap_pop(void)
{
	int top = heap[0], i = 0;
	heap[0] = heap[--heap_n];
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < heap_n && heap[l] < heap[m]) m = l;
		if (r < heap_n && heap[r] < heap[m]) m = r;
		if (m == i) break;
		SWAP(heap[m], heap[i]);
		i = m;
	}
	return top;
}

/* Chained hash table. */
struct node { unsigned key; int val; struct node *next; };
static struct node *buckets[37];

static unsigned hash(unsigned k) { return (k * 2654435761u) % 37u; }

static void ht_put(unsigned k, int v)
{
	struct node **pp = &buckets[hash(k)], *n;
	for (n = *pp; n; n = n->next)
		if (n->key == k) { n->val = v; return; }
	n = malloc(sizeof *n);
	n->key = k; n->val = v; n->next = *pp; *pp = n;
}

static int ht_get(unsigned k, int *v)
{
	for (struct node *n = buckets[hash(k)]; n; n = n->next)
		if (n->key == k) { *v = n->val; return 1; }
	return 0;
}

static int ht_del(unsigned k)
{
	for (struct node **pp = &buckets[hash(k)]; *pp; pp = &(*pp)->next) {
		if ((*pp)->key == k) {
			struct node *d = *pp;
			*pp = d->next;
			free(d);
			return 1;
		}
	}
	return 0;
}

int main(void)
{
	/* factorial of 10 by a countdown loop, then a sum loop, then errors */
	static const int fact[] = { OP_PUSH, 1, OP_PUSH, 12, /* acc n */
		OP_DUP, OP_JNZ, 9, OP_DROP, OP_HALT,  /* 4: while (n) */
		OP_SWAP, OP_OVER, OP_MUL, OP_SWAP,    /* 9: acc *= n */
		OP_DEC, OP_PUSH, 1, OP_JNZ, 4 };      /* n--, loop */
	static const int sum[] = { OP_PUSH, 0, OP_PUSH, 300,
		OP_DUP, OP_JNZ, 9, OP_DROP, OP_HALT,  /* 4 */
		OP_SWAP, OP_PUSH, 3, OP_ADD, OP_SWAP, OP_DEC, OP_PUSH, 1,
		OP_JNZ, 4 };
	static const int bad1[] = { OP_PUSH, 5, OP_PUSH, 0, OP_DIV, OP_HALT };
	static const int bad2[] = { OP_DUP, OP_HALT };
	static const int bad3[] = { OP_PUSH, 7, OP_PRINT, 99 };
	const int *progs[] = { fact, sum, bad1, bad2, bad3 };
	int steps = 0, v, found = 0, dels = 0;
	unsigned long chk = 0;

	for (unsigned i = 0; i < sizeof progs / sizeof progs[0]; i++)
		printf("prog %u -> %ld\n", i, run(progs[i], &steps));
	printf("steps %d\n", steps);

	for (int i = 0; i < 400; i++)
		heap_push((i * 7919) % 1009);
	for (int i = 0; heap_n > 0; i++) {
		int x = heap_pop();
		chk = chk * 31 + (unsigned)x;
		if (i % 100 == 0)
			printf("heap[%d] %d\n", i, x);
	}
	printf("heap chk %lu\n", chk);

	for (unsigned k = 0; k < 300; k++)
		ht_put(k * 13u, (int)k);
	for (unsigned k = 0; k < 300; k += 3)
		ht_put(k * 13u, -(int)k);
	for (unsigned k = 0; k < 600; k += 2)
		dels += ht_del(k * 13u);
	for (unsigned k = 0; k < 400; k++)
		if (ht_get(k * 13u, &v)) {
			found++;
			chk += (unsigned long)(long)v;
		}
	printf("hash dels %d found %d chk %lu\n", dels, found, chk);
	for (int b = 0; b < 37; b++)
		while (buckets[b])
			ht_del(buckets[b]->key);
	return 0;
}
