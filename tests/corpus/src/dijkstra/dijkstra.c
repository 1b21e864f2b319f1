/* dijkstra: shortest paths on a generated grid with an indexed binary heap (decrease-key),
 * BFS, and union-find with path compression. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

#define W 20
#define H 16
#define N (W * H)
#define INF INT_MAX

static uint32_t rng = 12345;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static unsigned char cost[N];	/* 0 = wall */

struct heap {
	int n;
	int item[N];	/* heap slot -> node */
	int pos[N];	/* node -> heap slot, -1 if absent */
	int key[N];
};

static struct heap hp;

static inline void hswap(struct heap *h, int a, int b)
{
	int t = h->item[a];
	h->item[a] = h->item[b];
	h->item[b] = t;
	h->pos[h->item[a]] = a;
	h->pos[h->item[b]] = b;
}

static void sift_up(struct heap *h, int i)
{
	while (i > 0) {
		int p = (i - 1) / 2;
		if (h->key[h->item[p]] <= h->key[h->item[i]])
			return;
		hswap(h, i, p);
		i = p;
	}
}

static void sift_down(struct heap *h, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && h->key[h->item[l]] < h->key[h->item[m]])
			m = l;
		if (r < h->n && h->key[h->item[r]] < h->key[h->item[m]])
			m = r;
		if (m == i)
			break;
		hswap(h, i, m);
		i = m;
	}
}

static void push_or_decrease(struct heap *h, int v, int k)
{
	if (h->pos[v] < 0) {
		h->item[h->n] = v;
		h->pos[v] = h->n++;
		h->key[v] = k;
		sift_up(h, h->pos[v]);
	} else if (k < h->key[v]) {
		h->key[v] = k;
		sift_up(h, h->pos[v]);
	}
}

static int pop_min(struct heap *h)
{
	int v = h->item[0];
	h->pos[v] = -1;
	if (--h->n > 0) {
		h->item[0] = h->item[h->n];
		h->pos[h->item[0]] = 0;
		sift_down(h, 0);
	}
	return v;
}

static const int dx[4] = { 1, 0, -1, 0 };
static const int dy[4] = { 0, 1, 0, -1 };

static int neighbour(int v, int d)
{
	int x = v % W + dx[d], y = v / W + dy[d];
	if (x < 0 || x >= W || y < 0 || y >= H)
		return -1;
	int u = y * W + x;
	return cost[u] ? u : -1;
}

static int dist[N];

static long dijkstra(int src, int *reached)
{
	long sum = 0;
	hp.n = 0;
	for (int i = 0; i < N; i++) {
		dist[i] = INF;
		hp.pos[i] = -1;
	}
	dist[src] = 0;
	push_or_decrease(&hp, src, 0);
	*reached = 0;
	while (hp.n) {
		int v = pop_min(&hp);
		++*reached;
		sum += dist[v];
		for (int d = 0; d < 4; d++) {
			int u = neighbour(v, d);
			if (u < 0)
				continue;
			int nd = dist[v] + cost[u];
			if (nd < dist[u]) {
				dist[u] = nd;
				push_or_decrease(&hp, u, nd);
			}
		}
	}
	return sum;
}

static int bfs(int src, int *far)
{
	static int q[N], seen[N];
	int head = 0, tail = 0, levels = 0;
	for (int i = 0; i < N; i++)
		seen[i] = -1;
	q[tail++] = src;
	seen[src] = 0;
	while (head < tail) {
		int v = q[head++];
		if (seen[v] > levels) {
			levels = seen[v];
			*far = v;
		}
		for (int d = 0; d < 4; d++) {
			int u = neighbour(v, d);
			if (u >= 0 && seen[u] < 0) {
				seen[u] = seen[v] + 1;
				q[tail++] = u;
			}
		}
	}
	return levels;
}

static int parent[N], rnk[N];

static int find(int x)
{
	if (parent[x] != x)
		parent[x] = find(parent[x]);
	return parent[x];
}

static int unite(int a, int b)
{
	a = find(a);
	b = find(b);
	if (a == b)
		return 0;
	if (rnk[a] < rnk[b]) {
		int t = a;
		a = b;
		b = t;
	}
	parent[b] = a;
	if (rnk[a] == rnk[b])
		rnk[a]++;
	return 1;
}

static int components(void)
{
	int comps = 0;
	for (int i = 0; i < N; i++) {
		parent[i] = i;
		rnk[i] = 0;
		comps += cost[i] != 0;
	}
	for (int v = 0; v < N; v++) {
		if (!cost[v])
			continue;
		for (int d = 0; d < 2; d++) {
			int u = neighbour(v, d);
			if (u >= 0)
				comps -= unite(v, u);
		}
	}
	return comps;
}

static void make_grid(int wall_pct)
{
	for (int i = 0; i < N; i++) {
		uint32_t r = next_rand();
		cost[i] = (r % 100) < (uint32_t)wall_pct ? 0 : (unsigned char)(1 + (r >> 8) % 9);
	}
	cost[0] = cost[1] = cost[W] = 1;
}

int main(void)
{
	static const int walls[] = { 10, 25, 35 };
	for (unsigned k = 0; k < sizeof walls / sizeof walls[0]; k++) {
		make_grid(walls[k]);
		int reached, far = 0;
		long s = dijkstra(0, &reached);
		int lv = bfs(0, &far);
		int far_reached;
		long s2 = dijkstra(far, &far_reached);
		int comps = components();
		printf("walls=%d reached=%d sum=%ld bfs=%d far=%d sum2=%ld comps=%d corner=%d\n",
		       walls[k], reached, s, lv, far, s2, comps,
		       dist[N - 1] == INF ? -1 : dist[N - 1]);
	}
	return 0;
}
