/* Hexadecimal digits, for the text formats that carry bytes as hex (code
 * maps, build-ids in the stream protocol). */
#ifndef LTPIPE_HEX_H
#define LTPIPE_HEX_H

/* The value of hex digit c (either case), or -1 if c is none. */
static inline int lt_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
