/* Bit twiddling: table-less CRC-32, FNV-1a, popcount, bit reversal, a hash table probe loop. */
#include <stdint.h>
#include <stdio.h>

/* Returns the CRC-32 (IEEE, reflected) of buf[0, n). */
static uint32_t crc32(const uint8_t *buf, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= buf[i];
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

/* Returns the 64-bit FNV-1a hash of buf[0, n). */
static uint64_t fnv1a(const uint8_t *buf, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= buf[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Counts set bits by clearing the lowest one at a time. */
static int popcount(uint64_t x)
{
	int n = 0;

	while (x) {
		x &= x - 1;
		n++;
	}
	return n;
}

/* Reverses the 32 bits of x with shifts and masks. */
static uint32_t bitrev(uint32_t x)
{
	x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
	x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
	x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
	x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
	return (x >> 16) | (x << 16);
}

#define TBL 1024

int main(void)
{
	static uint8_t buf[4096];
	static uint32_t table[TBL];	/* open addressing, 0 = empty */
	uint32_t x = 1, rv = 0;
	int i, pop = 0, probes = 0, dups = 0;

	for (i = 0; i < (int)sizeof(buf); i++) {
		x ^= x << 7;
		x ^= x >> 9;
		buf[i] = (uint8_t)x;
	}
	printf("crc32=%08x\n", crc32(buf, sizeof(buf)));
	printf("fnv1a=%016llx\n", (unsigned long long)fnv1a(buf, sizeof(buf)));
	for (i = 0; i < 2000; i++) {
		pop += popcount(((uint64_t)i << 32) * 0x9e3779b97f4a7c15ull);
		rv ^= bitrev((uint32_t)i * 2654435761u);
	}
	printf("pop=%d rv=%08x\n", pop, rv);
	for (i = 0; i < 700; i++) {
		uint32_t key = (uint32_t)(i * 7919 % 1000) + 1;
		uint32_t h = (key * 2654435761u) >> 22;

		while (table[h] && table[h] != key) {
			h = (h + 1) & (TBL - 1);
			probes++;
		}
		if (table[h] == key)
			dups++;
		table[h] = key;
	}
	printf("probes=%d dups=%d\n", probes, dups);
	return 0;
}
