/* A bytecode interpreter whose dispatch is a dense switch (a jump table at -O1 and up). */
#include <stdio.h>

enum op {
	OP_PUSH, OP_POP, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_DUP,
	OP_SWAP, OP_OVER, OP_JMP, OP_JZ, OP_JNZ, OP_DEC, OP_INC, OP_NEG,
	OP_AND, OP_OR, OP_XOR, OP_SHL, OP_PRINT, OP_HALT
};

/* Runs prog and returns the value left on top of the stack (0 if empty). */
static long run(const int *prog)
{
	long st[64];
	int sp = 0, pc = 0;
	long a, b;

	for (;;) {
		int op = prog[pc++];

		switch (op) {
		case OP_PUSH: st[sp++] = prog[pc++]; break;
		case OP_POP: sp--; break;
		case OP_ADD: b = st[--sp]; st[sp - 1] += b; break;
		case OP_SUB: b = st[--sp]; st[sp - 1] -= b; break;
		case OP_MUL: b = st[--sp]; st[sp - 1] *= b; break;
		case OP_DIV: b = st[--sp]; st[sp - 1] = b ? st[sp - 1] / b : 0; break;
		case OP_MOD: b = st[--sp]; st[sp - 1] = b ? st[sp - 1] % b : 0; break;
		case OP_DUP: st[sp] = st[sp - 1]; sp++; break;
		case OP_SWAP: a = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = a; break;
		case OP_OVER: st[sp] = st[sp - 2]; sp++; break;
		case OP_JMP: pc = prog[pc]; break;
		case OP_JZ: a = st[--sp]; pc = a ? pc + 1 : prog[pc]; break;
		case OP_JNZ: a = st[--sp]; pc = a ? prog[pc] : pc + 1; break;
		case OP_DEC: st[sp - 1]--; break;
		case OP_INC: st[sp - 1]++; break;
		case OP_NEG: st[sp - 1] = -st[sp - 1]; break;
		case OP_AND: b = st[--sp]; st[sp - 1] &= b; break;
		case OP_OR: b = st[--sp]; st[sp - 1] |= b; break;
		case OP_XOR: b = st[--sp]; st[sp - 1] ^= b; break;
		case OP_SHL: b = st[--sp]; st[sp - 1] <<= (b & 31); break;
		case OP_PRINT: printf("%ld\n", st[sp - 1]); break;
		case OP_HALT: return sp ? st[sp - 1] : 0;
		default: return -1;
		}
	}
}

/* Classifies a character into one of many classes: a second, char-indexed switch. */
static int classify(int c)
{
	switch (c) {
	case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
	case 'b': case 'c': case 'd': case 'f': case 'g': return 2;
	case 'h': case 'j': case 'k': case 'l': case 'm': return 3;
	case 'n': case 'p': case 'q': case 'r': case 's': return 4;
	case 't': case 'v': case 'w': case 'x': case 'y': case 'z': return 5;
	case '0': case '1': case '2': case '3': case '4': return 6;
	case '5': case '6': case '7': case '8': case '9': return 7;
	case ' ': return 8;
	default: return 0;
	}
}

int main(void)
{
	/* acc = 0; for (n = 3000; n; n--) acc = (acc * 3 + n) % 1000003 ^ (n & 7); print acc */
	static const int prog[] = {
		OP_PUSH, 0, OP_PUSH, 3000,
		/* 4: loop, stack: acc n */
		OP_DUP, OP_JZ, 30,
		OP_SWAP, OP_PUSH, 3, OP_MUL, OP_OVER, OP_ADD, OP_PUSH, 1000003, OP_MOD,
		OP_OVER, OP_PUSH, 7, OP_AND, OP_XOR,
		OP_SWAP, OP_DEC, OP_JMP, 4,
		OP_HALT, OP_HALT, OP_HALT, OP_HALT, OP_HALT,
		/* 30: */
		OP_POP, OP_PRINT, OP_PUSH, 1, OP_PUSH, 4, OP_SHL, OP_NEG, OP_PRINT, OP_ADD,
		OP_PUSH, 6, OP_OR, OP_PUSH, 5, OP_DIV, OP_PUSH, 9, OP_SUB, OP_INC, OP_HALT
	};
	static const char text[] = "the quick brown fox jumps over 13 lazy dogs 42 times";
	int hist[9] = { 0 };
	int i, r;

	for (r = 0; r < 40; r++)
		for (i = 0; text[i]; i++)
			hist[classify(text[i])]++;
	for (i = 0; i < 9; i++)
		printf("class %d: %d\n", i, hist[i]);
	printf("result %ld\n", run(prog));
	return 0;
}
