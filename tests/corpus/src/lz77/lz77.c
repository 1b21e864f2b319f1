/* LZ77 with hash chains, base64 and run-length coding; round trips checked. Compact style. */
#include <stdio.h>
#include <string.h>

#define WIN 1024
#define MINM 3
#define MAXM 34
#define HBITS 9
#define NIL 0xffff

static unsigned char text[3000], comp[4096], dec[3000], b64[6000], back[4096], rle[6000], unr[3000];
static unsigned short head[1 << HBITS], prevp[3000];
static unsigned seed = 7;

static unsigned nextr(void) { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return seed; }
static unsigned hash3(const unsigned char *p) { return ((p[0] << 6) ^ (p[1] << 3) ^ p[2]) & ((1 << HBITS) - 1); }

static int make_text(unsigned char *t, int n) {
	static const char *words[] = { "the ", "trace ", "encoder ", "branch ", "taken ", "packet ", "aaaa", "\n", "zz", "0123" };
	int i = 0, w; while (i < n) { w = nextr() % 10; if (w == 6 && (nextr() & 1)) { int k = 5 + nextr() % 20; while (k-- && i < n) t[i++] = 'x'; continue; }
		for (const char *s = words[w]; *s && i < n; s++) t[i++] = (unsigned char)*s; }
	return i;
}

static void insert_hash(const unsigned char *in, int pos, int n) { if (pos + MINM > n) return; unsigned h = hash3(in + pos); prevp[pos] = head[h]; head[h] = (unsigned short)pos; }

/* Token format: literal = 0x00 byte; match = 0x80|len-MINM (5 bits) then 2 bytes dist. Literal runs use flag byte. */
static int lz_compress(const unsigned char *in, int n, unsigned char *out) {
	int i = 0, o = 0, chain, best, bestd, cand, len;
	for (int k = 0; k < (1 << HBITS); k++) head[k] = NIL;
	while (i < n) {
		best = 0; bestd = 0; chain = 0;
		if (i + MINM <= n) {
			cand = head[hash3(in + i)];
			while (cand != NIL && i - cand <= WIN && chain++ < 16) {
				len = 0; while (len < MAXM && i + len < n && in[cand + len] == in[i + len]) len++;
				if (len > best) { best = len; bestd = i - cand; if (len == MAXM) break; }
				cand = prevp[cand];
			}
		}
		if (best >= MINM) { out[o++] = (unsigned char)(0x80 | (best - MINM)); out[o++] = (unsigned char)(bestd >> 8); out[o++] = (unsigned char)bestd;
			for (int k = 0; k < best; k++) { insert_hash(in, i + k, n); } i += best; }
		else { int start = o++, cnt = 0; while (i < n && cnt < 127) { if (i + MINM <= n && cnt > 0) { int c2 = head[hash3(in + i)]; if (c2 != NIL && i - c2 <= WIN && in[c2] == in[i] && in[c2 + 1] == in[i + 1] && in[c2 + 2] == in[i + 2]) break; }
				insert_hash(in, i, n); out[o++] = in[i++]; cnt++; } out[start] = (unsigned char)cnt; }
	}
	return o;
}

static int lz_decompress(const unsigned char *in, int n, unsigned char *out, int cap) {
	int i = 0, o = 0;
	while (i < n) {
		unsigned c = in[i++];
		if (c & 0x80) { if (i + 2 > n) return -1; int len = (int)(c & 0x7f) + MINM, d = (in[i] << 8) | in[i + 1]; i += 2;
			if (d <= 0 || d > o || o + len > cap) { return -2; } while (len--) { out[o] = out[o - d]; o++; } }
		else { if (c == 0 || i + (int)c > n || o + (int)c > cap) return -3; memcpy(out + o, in + i, c); o += c; i += c; }
	}
	return o;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static int b64_enc(const unsigned char *in, int n, unsigned char *out) {
	int o = 0, i; for (i = 0; i + 2 < n; i += 3) { unsigned v = (in[i] << 16) | (in[i + 1] << 8) | in[i + 2];
		out[o++] = B64[v >> 18]; out[o++] = B64[(v >> 12) & 63]; out[o++] = B64[(v >> 6) & 63]; out[o++] = B64[v & 63]; }
	if (n - i == 1) { unsigned v = in[i] << 16; out[o++] = B64[v >> 18]; out[o++] = B64[(v >> 12) & 63]; out[o++] = '='; out[o++] = '='; }
	else if (n - i == 2) { unsigned v = (in[i] << 16) | (in[i + 1] << 8); out[o++] = B64[v >> 18]; out[o++] = B64[(v >> 12) & 63]; out[o++] = B64[(v >> 6) & 63]; out[o++] = '='; }
	return o;
}
static int b64_val(int c) { if (c >= 'A' && c <= 'Z') return c - 'A'; if (c >= 'a' && c <= 'z') return c - 'a' + 26; if (c >= '0' && c <= '9') return c - '0' + 52; if (c == '+') return 62; if (c == '/') return 63; return c == '=' ? -2 : -1; }
static int b64_dec(const unsigned char *in, int n, unsigned char *out) {
	int o = 0; if (n % 4) return -1;
	for (int i = 0; i < n; i += 4) { int a = b64_val(in[i]), b = b64_val(in[i + 1]), c = b64_val(in[i + 2]), d = b64_val(in[i + 3]);
		if (a < 0 || b < 0) { return -1; } out[o++] = (unsigned char)((a << 2) | (b >> 4));
		if (c == -2) { break; } if (c < 0) { return -1; } out[o++] = (unsigned char)(((b & 15) << 4) | (c >> 2));
		if (d == -2) { break; } if (d < 0) { return -1; } out[o++] = (unsigned char)(((c & 3) << 6) | d); }
	return o;
}

static int rle_enc(const unsigned char *in, int n, unsigned char *out) { int o = 0; for (int i = 0; i < n;) { int r = 1; while (i + r < n && in[i + r] == in[i] && r < 255) r++; out[o++] = (unsigned char)r; out[o++] = in[i]; i += r; } return o; }
static int rle_dec(const unsigned char *in, int n, unsigned char *out) { int o = 0; for (int i = 0; i + 1 < n; i += 2) for (int r = in[i]; r > 0; r--) out[o++] = in[i + 1]; return o; }

static unsigned adler(const unsigned char *p, int n) { unsigned a = 1, b = 0; while (n--) { a = (a + *p++) % 65521; b = (b + a) % 65521; } return (b << 16) | a; }

int main(void) {
	int fails = 0;
	static const int sizes[] = { 0, 1, 2, 3, 50, 700, 2999 };
	for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		int n = make_text(text, sizes[s]), c = lz_compress(text, n, comp), d = lz_decompress(comp, c, dec, sizeof dec);
		int e = b64_enc(comp, c, b64), f = b64_dec(b64, e, back), r = rle_enc(text, n, rle), u = rle_dec(rle, r, unr);
		int ok = d == n && !memcmp(dec, text, n) && f == c && !memcmp(back, comp, c) && u == n && !memcmp(unr, text, n);
		fails += !ok;
		printf("n=%4d lz=%4d b64=%4d rle=%4d adler=%08x %s\n", n, c, e, r, adler(comp, c), ok ? "ok" : "FAIL");
	}
	/* damaged inputs exercise the error returns */
	comp[0] = 0x85; comp[1] = 0x7f; comp[2] = 0xff; printf("bad lz: %d\n", lz_decompress(comp, 3, dec, sizeof dec));
	comp[0] = 0; printf("bad lz0: %d\n", lz_decompress(comp, 1, dec, sizeof dec));
	printf("bad b64: %d %d\n", b64_dec((const unsigned char *)"QUJD*A==", 8, back), b64_dec((const unsigned char *)"QUJ", 3, back));
	printf("b64 ok: %d\n", b64_dec((const unsigned char *)"QUJDRA==", 8, back));
	printf("fails=%d\n", fails);
	return fails;
}
