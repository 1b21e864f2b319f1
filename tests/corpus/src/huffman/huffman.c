/* huffman: byte frequencies -> Huffman tree (node heap) -> canonical-ish codes -> bit
 * buffer -> decode via tree walk and via a lookup table -> verify. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define BUFLEN 1000
#define MAXNODES 512
#define LUTBITS 8

struct node {
	uint32_t freq;
	int sym;		/* -1 for internal */
	int left, right;
};

struct code {
	uint32_t bits;
	int len;
};

static struct node nodes[MAXNODES];
static int nnodes;
static struct code codes[256];
static unsigned char input[BUFLEN], output[BUFLEN];
static uint8_t bitbuf[BUFLEN * 2];

struct lut_ent {
	int16_t sym;	/* -1: longer than LUTBITS, walk tree from node */
	uint8_t len;
	int16_t node;
};
static struct lut_ent lut[1 << LUTBITS];

static int less(int a, int b)
{
	if (nodes[a].freq != nodes[b].freq)
		return nodes[a].freq < nodes[b].freq;
	return a < b;
}

static void heap_push(int *h, int *n, int v)
{
	int i = (*n)++;
	h[i] = v;
	while (i && less(h[i], h[(i - 1) / 2])) {
		int p = (i - 1) / 2, t = h[p];
		h[p] = h[i];
		h[i] = t;
		i = p;
	}
}

static int heap_pop(int *h, int *n)
{
	int top = h[0], i = 0;
	h[0] = h[--*n];
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < *n && less(h[l], h[m]))
			m = l;
		if (r < *n && less(h[r], h[m]))
			m = r;
		if (m == i)
			return top;
		int t = h[m];
		h[m] = h[i];
		h[i] = t;
		i = m;
	}
}

static int build_tree(const uint32_t *freq)
{
	int heap[MAXNODES], n = 0;
	nnodes = 0;
	for (int s = 0; s < 256; s++) {
		if (!freq[s])
			continue;
		nodes[nnodes] = (struct node){ freq[s], s, -1, -1 };
		heap_push(heap, &n, nnodes++);
	}
	if (n == 1) {
		/* a lone symbol still needs one bit */
		nodes[nnodes] = (struct node){ nodes[0].freq, -1, 0, -1 };
		return nnodes++;
	}
	while (n > 1) {
		int a = heap_pop(heap, &n), b = heap_pop(heap, &n);
		nodes[nnodes] = (struct node){ nodes[a].freq + nodes[b].freq, -1, a, b };
		heap_push(heap, &n, nnodes++);
	}
	return heap[0];
}

static void assign(int nd, uint32_t bits, int len)
{
	if (nd < 0)
		return;
	if (nodes[nd].sym >= 0) {
		codes[nodes[nd].sym] = (struct code){ bits, len ? len : 1 };
		return;
	}
	assign(nodes[nd].left, bits << 1, len + 1);
	assign(nodes[nd].right, (bits << 1) | 1, len + 1);
}

static inline void put_bits(size_t *pos, uint32_t bits, int len)
{
	for (int i = len - 1; i >= 0; i--) {
		size_t p = (*pos)++;
		if ((bits >> i) & 1)
			bitbuf[p >> 3] |= (uint8_t)(0x80 >> (p & 7));
	}
}

static inline unsigned get_bit(size_t p)
{
	return (bitbuf[p >> 3] >> (7 - (p & 7))) & 1;
}

static size_t encode(size_t len)
{
	size_t pos = 0;
	memset(bitbuf, 0, sizeof bitbuf);
	for (size_t i = 0; i < len; i++)
		put_bits(&pos, codes[input[i]].bits, codes[input[i]].len);
	return pos;
}

static int walk(int nd, size_t *p, size_t nbits)
{
	while (nodes[nd].sym < 0) {
		if (*p >= nbits)
			return -1;
		nd = get_bit((*p)++) ? nodes[nd].right : nodes[nd].left;
		if (nd < 0)
			return -1;
	}
	return nodes[nd].sym;
}

static void build_lut(int root)
{
	for (unsigned v = 0; v < (1u << LUTBITS); v++) {
		int nd = root, used = 0;
		while (nodes[nd].sym < 0 && used < LUTBITS) {
			unsigned b = (v >> (LUTBITS - 1 - used)) & 1;
			nd = b ? nodes[nd].right : nodes[nd].left;
			used++;
			if (nd < 0)
				break;
		}
		if (nd >= 0 && nodes[nd].sym >= 0)
			lut[v] = (struct lut_ent){ (int16_t)nodes[nd].sym, (uint8_t)used, 0 };
		else
			lut[v] = (struct lut_ent){ -1, (uint8_t)used, (int16_t)nd };
	}
}

static long decode_tree(int root, size_t nbits, size_t len)
{
	size_t p = 0;
	for (size_t i = 0; i < len; i++) {
		int s = walk(root, &p, nbits);
		if (s < 0)
			return -(long)i - 1;
		output[i] = (unsigned char)s;
	}
	return (long)p;
}

static long decode_lut(int root, size_t nbits, size_t len)
{
	size_t p = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned v = 0;
		for (int k = 0; k < LUTBITS; k++)
			v = (v << 1) | (p + k < nbits ? get_bit(p + k) : 0);
		struct lut_ent e = lut[v];
		int s;
		if (e.sym >= 0) {
			s = e.sym;
			p += e.len;
		} else {
			p += e.len;
			s = walk(e.node, &p, nbits);
			if (s < 0)
				return -(long)i - 1;
		}
		output[i] = (unsigned char)s;
	}
	(void)root;
	return (long)p;
}

static uint32_t seed;

static void gen(int kind, size_t len)
{
	static const char words[] = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do";
	seed = 2463534242u + (uint32_t)kind;
	for (size_t i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		uint32_t r = seed >> 16;
		switch (kind) {
		case 0: input[i] = (unsigned char)words[r % (sizeof words - 1)]; break;
		case 1: input[i] = (unsigned char)((r % 7) * (r % 5)); break;
		case 2: input[i] = (unsigned char)(r & 0xff); break;
		default: input[i] = 'z'; break;
		}
	}
}

int main(void)
{
	static const size_t lens[] = { BUFLEN, 600, 500, 100 };
	for (int kind = 0; kind < 4; kind++) {
		uint32_t freq[256] = { 0 };
		size_t len = lens[kind];
		gen(kind, len);
		for (size_t i = 0; i < len; i++)
			freq[input[i]]++;
		memset(codes, 0, sizeof codes);
		int root = build_tree(freq);
		assign(root, 0, 0);
		size_t nbits = encode(len);
		long a = decode_tree(root, nbits, len);
		int ok1 = memcmp(input, output, len) == 0;
		memset(output, 0, len);
		build_lut(root);
		long b = decode_lut(root, nbits, len);
		int ok2 = memcmp(input, output, len) == 0;
		uint32_t h = 0;
		int maxlen = 0;
		for (int s = 0; s < 256; s++) {
			h = h * 31 + codes[s].bits * 7 + (uint32_t)codes[s].len;
			if (codes[s].len > maxlen)
				maxlen = codes[s].len;
		}
		printf("kind=%d len=%zu nodes=%d bits=%zu tree=%ld lut=%ld ok=%d%d maxlen=%d h=%08x\n",
		       kind, len, nnodes, nbits, a, b, ok1, ok2, maxlen, (unsigned)h);
	}
	return 0;
}
