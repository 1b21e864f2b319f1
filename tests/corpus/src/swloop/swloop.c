/* A packet decoder: a switch inside a loop where cases break out of the
 * switch, continue the loop, leave the loop with goto, or return; a
 * nested switch; a do-while retry with a switch deciding; and a loop
 * whose exits are a flag, a count and a sentinel. */
#include <stdio.h>

enum { OP_NOP, OP_PUSH, OP_POP, OP_ADD, OP_JMP, OP_END, OP_ESC, OP_DUP };

static int decode(const unsigned char *in, int n, long *result)
{
	long st[16];
	int sp = 0, i = 0, escapes = 0, steps = 0;
	while (i < n) {
		unsigned char op = in[i++];
		if (++steps > 200)
			goto loop;
		switch (op & 7) {
		case OP_NOP:
			continue;
		case OP_PUSH:
			if (i >= n)
				goto truncated;
			if (sp == 16)
				return -3;
			st[sp++] = in[i++];
			break;
		case OP_POP:
			if (!sp)
				goto underflow;
			sp--;
			break;
		case OP_ADD:
			if (sp < 2)
				goto underflow;
			st[sp - 2] += st[sp - 1];
			sp--;
			break;
		case OP_JMP:
			switch (op >> 3) {
			case 0:
				i = 0;
				break;
			case 1:
			case 2:
				i += op >> 3;
				break;
			default:
				if ((op >> 3) > n)
					goto truncated;
				i = op >> 3;
			}
			continue;
		case OP_END:
			goto done;
		case OP_ESC:
			escapes++;
			if (escapes > 2)
				return -4;
			i++;
			continue;
		default:
			if (!sp)
				goto underflow;
			if (sp == 16)
				return -3;
			st[sp] = st[sp - 1];
			sp++;
		}
		if (sp > 0 && st[sp - 1] > 1000)
			break;
	}
done:
	*result = sp ? st[sp - 1] : 0;
	return sp;
truncated:
	return -1;
underflow:
	return -2;
loop:
	return -5;
}

static int retry(int seed)
{
	int tries = 0, v = seed;
	do {
		v = (v * 7 + 3) % 31;
		switch (v % 4) {
		case 0:
			return tries;
		case 1:
			v += 2;
			break;
		case 2:
			if (tries > 3)
				return -tries;
			break;
		default:
			continue;
		}
		tries++;
	} while (tries < 10);
	return 100 + v;
}

int main(void)
{
	static const unsigned char progs[][12] = {
		{ 1, 5, 1, 7, 3, 5 },
		{ 1, 200, 7, 3, 7, 3, 7, 3, 7, 3, 5 },
		{ 2, 5 },
		{ 1, 1, 6, 9, 1, 2, 3, 0, 5 },
		{ 1, 3, 4, 1, 4, 5 },
		{ 1, 9, 6, 0, 6, 0, 6, 0, 5 },
		{ 1, 4, 1 },
		{ 0, 0, 1, 8, 12, 1, 1, 3, 5 },
	};
	int i;
	long r = 0;
	for (i = 0; i < 8; i++) {
		int k = decode(progs[i], 12, &r);
		printf("prog %d -> %d %ld\n", i, k, k > 0 ? r : 0);
		r = 0;
	}
	for (i = 0; i < 12; i++)
		printf("retry %d %d\n", i, retry(i));
	return 0;
}
