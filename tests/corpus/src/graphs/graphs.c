/* graphs: adjacency lists in arrays, iterative DFS with an explicit stack, Kahn's
 * topological sort, Tarjan's SCC (recursive), cycle detection, BFS levels, and an
 * analysis chosen by a switch and called through a function pointer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 220
#define MAXE 900

struct graph {
	int nv, ne;
	int head[MAXV], next[MAXE], to[MAXE];
	int indeg[MAXV];
};

static unsigned int seed = 77;

static unsigned int rnd(unsigned int n)
{
	seed = seed * 1664525u + 1013904223u;
	return (seed >> 8) % n;
}

static void g_init(struct graph *g, int nv)
{
	g->nv = nv;
	g->ne = 0;
	memset(g->head, -1, sizeof g->head);
	memset(g->indeg, 0, sizeof g->indeg);
}

static int g_add(struct graph *g, int u, int v)
{
	if (g->ne >= MAXE || u == v)
		return 0;
	g->to[g->ne] = v;
	g->next[g->ne] = g->head[u];
	g->head[u] = g->ne++;
	g->indeg[v]++;
	return 1;
}

/* Iterative DFS from s; returns the number of vertices reached. */
static int dfs_count(const struct graph *g, int s, unsigned char *seen)
{
	int stack[MAXE + MAXV], sp = 0, n = 0;

	stack[sp++] = s;
	while (sp > 0) {
		int u = stack[--sp], e;

		if (seen[u])
			continue;
		seen[u] = 1;
		n++;
		for (e = g->head[u]; e != -1; e = g->next[e])
			if (!seen[g->to[e]])
				stack[sp++] = g->to[e];
	}
	return n;
}

static int components(const struct graph *g)
{
	unsigned char seen[MAXV] = { 0 };
	int v, c = 0;

	for (v = 0; v < g->nv; v++)
		if (!seen[v] && dfs_count(g, v, seen) > 0)
			c++;
	return c;
}

/* Kahn; returns the number of vertices ordered (== nv iff acyclic). */
static int topo(const struct graph *g)
{
	int indeg[MAXV], q[MAXV], qh = 0, qt = 0, v, done = 0;
	unsigned long h = 0;

	memcpy(indeg, g->indeg, sizeof(int) * (size_t)g->nv);
	for (v = 0; v < g->nv; v++)
		if (indeg[v] == 0)
			q[qt++] = v;
	while (qh < qt) {
		int u = q[qh++], e;

		h = h * 33 + (unsigned long)u;
		done++;
		for (e = g->head[u]; e != -1; e = g->next[e])
			if (--indeg[g->to[e]] == 0)
				q[qt++] = g->to[e];
	}
	return done == g->nv ? (int)(h % 100000) : -done;
}

struct tarjan {
	const struct graph *g;
	int idx[MAXV], low[MAXV], stk[MAXV], sp, counter, nscc, biggest;
	unsigned char on[MAXV];
};

static void strong(struct tarjan *t, int v)
{
	int e;

	t->idx[v] = t->low[v] = t->counter++;
	t->stk[t->sp++] = v;
	t->on[v] = 1;
	for (e = t->g->head[v]; e != -1; e = t->g->next[e]) {
		int w = t->g->to[e];

		if (t->idx[w] < 0) {
			strong(t, w);
			if (t->low[w] < t->low[v])
				t->low[v] = t->low[w];
		} else if (t->on[w] && t->idx[w] < t->low[v]) {
			t->low[v] = t->idx[w];
		}
	}
	if (t->low[v] == t->idx[v]) {
		int w, size = 0;

		do {
			w = t->stk[--t->sp];
			t->on[w] = 0;
			size++;
		} while (w != v);
		t->nscc++;
		if (size > t->biggest)
			t->biggest = size;
	}
}

static int scc(const struct graph *g)
{
	static struct tarjan t;
	int v;

	memset(&t, 0, sizeof t);
	t.g = g;
	for (v = 0; v < g->nv; v++)
		t.idx[v] = -1;
	for (v = 0; v < g->nv; v++)
		if (t.idx[v] < 0)
			strong(&t, v);
	return t.nscc * 1000 + t.biggest;
}

/* Three-colour DFS cycle check, recursive. */
static int has_cycle_from(const struct graph *g, int u, unsigned char *col)
{
	int e;

	col[u] = 1;
	for (e = g->head[u]; e != -1; e = g->next[e]) {
		int w = g->to[e];

		if (col[w] == 1)
			return 1;
		if (col[w] == 0 && has_cycle_from(g, w, col))
			return 1;
	}
	col[u] = 2;
	return 0;
}

static int has_cycle(const struct graph *g)
{
	unsigned char col[MAXV] = { 0 };
	int v;

	for (v = 0; v < g->nv; v++)
		if (!col[v] && has_cycle_from(g, v, col))
			return 1;
	return 0;
}

static int bfs_levels(const struct graph *g)
{
	int dist[MAXV], q[MAXV], qh = 0, qt = 0, v, far = 0;

	for (v = 0; v < g->nv; v++)
		dist[v] = -1;
	dist[0] = 0;
	q[qt++] = 0;
	while (qh < qt) {
		int u = q[qh++], e;

		for (e = g->head[u]; e != -1; e = g->next[e]) {
			int w = g->to[e];

			if (dist[w] >= 0)
				continue;
			dist[w] = dist[u] + 1;
			if (dist[w] > far)
				far = dist[w];
			q[qt++] = w;
		}
	}
	return far * 1000 + qt;
}

typedef int (*analysis)(const struct graph *);

static analysis pick(int k)
{
	switch (k) {
	case 0:
		return components;
	case 1:
		return topo;
	case 2:
	case 3:
		return scc;
	case 4:
		return has_cycle;
	default:
		return bfs_levels;
	}
}

static void build(struct graph *g, int kind, int nv)
{
	int i, m;

	g_init(g, nv);
	m = nv * (2 + kind % 3);
	for (i = 0; i < m; i++) {
		int u = (int)rnd((unsigned)nv), v = (int)rnd((unsigned)nv);

		if (kind & 1) {
			/* DAG: edges go upward only */
			if (u > v) {
				int t = u;
				u = v;
				v = t;
			}
		}
		if (!g_add(g, u, v) && kind == 4)
			g_add(g, v, (v + 1) % nv);
	}
}

int main(void)
{
	static struct graph g;
	unsigned long total = 0;
	int res[6][8];
	int kind, k;

	for (kind = 0; kind < 8; kind++) {
		build(&g, kind, 60 + (kind % 5) * 35);
		for (k = 0; k < 6; k++) {
			analysis f = pick(k);

			res[k][kind] = f(&g);
			total = total * 1000003u + (unsigned long)(long)res[k][kind];
		}
	}
	for (k = 0; k < 6; k++) {
		printf("a%d:", k);
		for (kind = 0; kind < 8; kind++)
			printf(" %d", res[k][kind]);
		printf("\n");
	}
	printf("total=%lu\n", total);
	return EXIT_SUCCESS;
}
