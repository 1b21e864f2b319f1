/* A switch gcc compiles to a jump table, two of whose cases only set a
 * state variable held in a register (`state = 2; continue;`, `default:
 * state = 3; break;`): their statements became PHI arguments before the
 * profiling pass, so their table entries land on constant loads that
 * the line table gives no row of their own, reading as the line of the
 * code laid out before them; each loads its constant and jumps on to a
 * different join (the loop's latch, the code after the switch). */
#include <stdio.h>

__attribute__((noinline)) static long run(const unsigned char *s, int n)
{
	int state = 0, sub = 0;
	long acc = 0;
	for (int i = 0; i < n; i++) {
		unsigned c = s[i] % 9u;
		switch (state) {
		case 0:
			switch (c) {
			case 0:
			case 1: state = 1; sub = (int)(s[i] & 3); break;
			case 2: state = 2; continue;
			case 3: acc += c; /* fall through */
			case 4: acc ^= (long)c << 1; break;
			case 8: acc -= 5; continue;
			default: state = 3; break;
			}
			break;
		case 1:
			acc += sub;
			if (c < 4)
				state = 0;
			else
				state = 2;
			break;
		case 2:
			state = 3 - 3 * (int)(c & 1);
			break;
		default:
			acc += 2;
			state = 0;
			break;
		}
		acc = acc * 7 % 100003 + state;
	}
	return acc;
}

int main(void)
{
	/* mostly 5..7 (the default), few 2s */
	static const unsigned char pick[16] = {5, 6, 7, 5, 6, 7, 5, 6,
	                                       7, 2, 2, 0, 1, 2, 3, 4};
	unsigned char s[256];
	unsigned x = 5;
	long t = 0;
	for (int i = 0; i < 256; i++) {
		x = x * 1103515245u + 12345u;
		s[i] = pick[(x >> 16) % 16];
	}
	for (int k = 0; k < 6; k++)
		t += run(s, 100 + 30 * k);
	printf("%ld\n", t);
	return 0;
}
