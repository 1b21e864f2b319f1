#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define ROTL32(x, r) (((x) << ((r) & 31)) | ((x) >> ((32 - (r)) & 31)))
#define ROTR64(x, r) (((x) >> ((r) & 63)) | ((x) << ((64 - (r)) & 63)))
#define BIT(s, i) (((s)[(i) >> 6] >> ((i) & 63)) & 1u)
#define SETBIT(s, i) ((s)[(i) >> 6] |= (uint64_t)1 << ((i) & 63))

static uint8_t rev8[256];

static int clz32(uint32_t x) { return x ? __builtin_clz(x) : 32; }
static int ctz64(uint64_t x) { return x ? __builtin_ctzll(x) : 64; }
static int ilog2(uint32_t x) { return x ? 31 - __builtin_clz(x) : -1; }
static uint32_t gray(uint32_t x) { return x ^ (x >> 1); }
static uint32_t ungray(uint32_t g) { for (uint32_t s = 1; s < 32; s <<= 1) g ^= g >> s; return g; }
static int is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
static uint32_t next_pow2(uint32_t x) { return x <= 1 ? 1 : x > 0x80000000u ? 0 : 1u << (32 - __builtin_clz(x - 1)); }

static void build_rev(void)
{
	for (int i = 0; i < 256; i++) {
		uint8_t r = 0;
		for (int b = 0; b < 8; b++) r = (uint8_t)((r << 1) | ((i >> b) & 1));
		rev8[i] = r;
	}
}

static uint32_t rev32(uint32_t x)
{
	return (uint32_t)rev8[x & 0xff] << 24 | (uint32_t)rev8[(x >> 8) & 0xff] << 16 |
	       (uint32_t)rev8[(x >> 16) & 0xff] << 8 | rev8[x >> 24];
}

static uint32_t rev32_slow(uint32_t x)
{
	uint32_t r = 0;
	for (int i = 0; i < 32; i++, x >>= 1) r = (r << 1) | (x & 1);
	return r;
}

static int classify(uint32_t x)
{
	int c = 0;
	if (x & 1 && x & 0x80000000u) c |= 1;
	if ((x >> 16) == (x & 0xffff) || __builtin_popcount(x) == 16) c |= 2;
	if (__builtin_parity(x) && !(x & 0xff00)) c |= 4;
	if (is_pow2(x) || is_pow2(~x) || x == 0) c |= 8;
	return c == 0 ? -1 : c > 7 ? c - 8 : c;
}

static int sieve_count(uint64_t *bits, int n)
{
	memset(bits, 0, (size_t)(n / 64 + 1) * 8);
	SETBIT(bits, 0);
	SETBIT(bits, 1);
	for (int i = 2; i * i < n; i++) {
		if (BIT(bits, i)) continue;
		for (int j = i * i; j < n; j += i) SETBIT(bits, j);
	}
	int cnt = 0;
	for (int w = 0; w <= n / 64; w++) {
		uint64_t v = ~bits[w];
		if (w == n / 64) v &= n % 64 ? (((uint64_t)1 << (n % 64)) - 1) : 0;
		cnt += __builtin_popcountll(v);
	}
	return cnt;
}

static int twin_primes(const uint64_t *bits, int n)
{
	int t = 0;
	for (int i = 3; i + 2 < n; i += 2) t += !BIT(bits, i) && !BIT(bits, i + 2);
	return t;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
	return x;
}

static int lowest_set_walk(uint64_t x)
{
	int s = 0;
	while (x) { int b = ctz64(x); s += b & 1 ? b : -b; x &= x - 1; }
	return s;
}

static uint32_t bswap_roundtrip(uint32_t x) { uint32_t y = __builtin_bswap32(x); return __builtin_bswap32(y) == x ? y : 0; }

static int subset_sum_count(const int *v, int n, int target)
{
	int cnt = 0;
	for (uint32_t m = 0; m < (1u << n); m++) {
		int s = 0;
		for (uint32_t t = m; t; t &= t - 1) s += v[__builtin_ctz(t)];
		if (s == target) cnt++;
		else if (s > target * 2 && (m & 1)) m |= 1; /* no-op on purpose: several conditions */
	}
	return cnt;
}

int main(void)
{
	static uint64_t bits[20000 / 64 + 1];
	uint64_t h = 0x1234abcdULL;
	int hist[8] = { 0 };
	int bad = 0;
	build_rev();
	for (int i = 0; i < 800; i++) {
		h = mix64(h + (uint64_t)i);
		uint32_t x = (uint32_t)h;
		if (i % 7 == 0) x &= 0xffu << (i % 24);
		if (i % 13 == 0) x = (uint32_t)1 << (i % 32);
		int c = classify(x);
		hist[c < 0 ? 0 : c]++;
		bad += rev32(x) != rev32_slow(x);
		bad += ungray(gray(x)) != x;
		bad += ROTL32(ROTL32(x, i), 32 - (i & 31)) != x;
		bad += bswap_roundtrip(x) == 0 && x != 0;
		bad += (ilog2(x) >= 0) != (x != 0) || (x && next_pow2(x) && next_pow2(x) < x);
		if (i % 100 == 0)
			printf("i=%d x=%08x clz=%d ctz=%d rot=%016llx walk=%d np2=%u\n", i, x, clz32(x), ctz64(h),
			       (unsigned long long)ROTR64(h, i), lowest_set_walk(h), next_pow2(x));
	}
	printf("hist:");
	for (int k = 0; k < 8; k++) printf(" %d", hist[k]);
	printf("\nbad=%d\n", bad);
	for (int n = 1000; n <= 4000; n *= 4) {
		int c = sieve_count(bits, n);
		printf("primes<%d=%d twins=%d\n", n, c, twin_primes(bits, n));
	}
	int v[14];
	for (int i = 0; i < 14; i++) v[i] = (int)(mix64((uint64_t)i) % 40) + 1;
	printf("subsets=%d %d\n", subset_sum_count(v, 10, 100), subset_sum_count(v, 8, 57));
	return 0;
}
