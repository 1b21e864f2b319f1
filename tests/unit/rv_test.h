/* What the frontend unit tests share: a failure counter with its CHECK
 * macro, an event-capturing sink, and RISC-V instruction encodings to
 * build code images from. */
#ifndef LTPIPE_TESTS_RV_TEST_H
#define LTPIPE_TESTS_RV_TEST_H

#include <stdint.h>
#include <stdio.h>

#include "ltpipe/frontend.h"

static int failures;

#define CHECK(c, ...)                                                        \
	do {                                                                 \
		if (!(c)) {                                                  \
			failures++;                                          \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                        \
			fprintf(stderr, "\n");                               \
		}                                                            \
	} while (0)

/* Events a frontend sink received, in order (the first 256). */
struct evlist {
	struct lt_event ev[256]; /* events received */
	size_t n;                /* how many */
};

/* An lt_event_sink appending to the struct evlist at user. */
static int capture(void *user, const struct lt_event *ev, size_t n)
{
	struct evlist *l = user;
	for (size_t i = 0; i < n && l->n < 256; i++)
		l->ev[l->n++] = ev[i];
	return 0;
}

#define NOP 0x00000013u
#define ECALL 0x00000073u
#define MRET 0x30200073u

/* jal rd, off */
static inline uint32_t jal(unsigned rd, int32_t off)
{
	uint32_t u = (uint32_t)off;
	return ((u >> 20 & 1) << 31) | ((u >> 1 & 0x3ff) << 21) |
	       ((u >> 11 & 1) << 20) | ((u >> 12 & 0xff) << 12) | rd << 7 |
	       0x6f;
}

/* Conditional branch with funct3 f3 (0 beq, 1 bne). */
static inline uint32_t br(unsigned f3, unsigned rs1, unsigned rs2,
                          int32_t off)
{
	uint32_t u = (uint32_t)off;
	return ((u >> 12 & 1) << 31) | ((u >> 5 & 0x3f) << 25) | rs2 << 20 |
	       rs1 << 15 | f3 << 12 | ((u >> 1 & 0xf) << 8) |
	       ((u >> 11 & 1) << 7) | 0x63;
}

/* beq rs1, rs2, off */
static inline uint32_t beq(unsigned rs1, unsigned rs2, int32_t off)
{
	return br(0, rs1, rs2, off);
}

/* jalr rd, 0(rs1) */
static inline uint32_t jalr(unsigned rd, unsigned rs1)
{
	return rs1 << 15 | rd << 7 | 0x67;
}

#endif
