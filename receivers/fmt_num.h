/* Hand-written number formatting for receivers that write a line per event
 * or instruction (no printf on their hot path). Private to receivers/. */
#ifndef LT_FMT_NUM_H
#define LT_FMT_NUM_H

#include <stdint.h>

/* Writes "0x" and the lowercase hex digits of v at p (at most 18 bytes);
 * returns the end. */
static inline char *lt_fmt_hex(char *p, uint64_t v)
{
	static const char hexd[] = "0123456789abcdef";
	char tmp[16];
	int n = 0;
	do {
		tmp[n++] = hexd[v & 15];
		v >>= 4;
	} while (v);
	*p++ = '0';
	*p++ = 'x';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* Writes the decimal digits of v at p (at most 20 bytes); returns the end. */
static inline char *lt_fmt_dec(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

#endif
