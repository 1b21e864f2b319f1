/* tripairs: for several passes over a refilled table of words, every
 * pair (a < b) is scored by the bits the two share. At -O2 gcc rotates
 * the pair loop (its test at the bottom) and merges the outer loop's
 * test `a < M` with the pair loop's first test `a + 1 < M`: the outer
 * test keeps no code of its own, and nothing the machine code counts
 * prices its two ways. The flow's tie-break, which splits such a
 * block's count evenly, must not pay for sending the pair loop's
 * entries round the pass loop (gcda_flow.c). */
#include <stdio.h>

#define M 40

static unsigned state = 77;

static unsigned next_word(void)
{
	state ^= state << 13;
	state ^= state >> 17;
	state ^= state << 5;
	return state;
}

int main(void)
{
	static unsigned w[M];
	unsigned long score = 0;
	int heavy = 0;

	for (int pass = 0; pass < 5; pass++) {
		for (int a = 0; a < M; a++)
			w[a] = next_word() & 0xffff;
		for (int a = 0; a < M; a++)
			for (int b = a + 1; b < M; b++) {
				unsigned both = w[a] & w[b];

				score += both;
				if (both > 0x4000)
					heavy++;
			}
		for (int a = 0; a < M; a++)
			score ^= w[a] << (a & 7);
	}
	printf("score=%lu heavy=%d\n", score, heavy);
	return 0;
}
