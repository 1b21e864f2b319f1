/* A threaded-code calculator: a static table of label addresses
 * (&&label) dispatched with goto *, GNU case ranges in a tokenizer,
 * and a second dispatch through a switch for comparison. */
#include <stdio.h>

enum op { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_OVER, OP_SWAP, OP_JNZ, OP_DEC, OP_PRINT, OP_HALT };

struct insn {
	enum op op;	/* opcode */
	int arg;	/* immediate or jump target */
};

static int out_count;

static long run_threaded(const struct insn *prog, int max_steps)
{
	static const void *const labels[] = {
		[OP_PUSH] = &&l_push, [OP_ADD] = &&l_add, [OP_SUB] = &&l_sub,
		[OP_MUL] = &&l_mul, [OP_DUP] = &&l_dup, [OP_OVER] = &&l_over,
		[OP_SWAP] = &&l_swap,
		[OP_JNZ] = &&l_jnz, [OP_DEC] = &&l_dec, [OP_PRINT] = &&l_print,
		[OP_HALT] = &&l_halt,
	};
	long st[32];
	int sp = 0, pc = 0, steps = 0;
#define NEXT do { if (++steps > max_steps) return -1; goto *labels[prog[pc].op]; } while (0)
	NEXT;
l_push:	st[sp++] = prog[pc++].arg; NEXT;
l_add:	sp--; st[sp - 1] += st[sp]; pc++; NEXT;
l_sub:	sp--; st[sp - 1] -= st[sp]; pc++; NEXT;
l_mul:	sp--; st[sp - 1] *= st[sp]; pc++; NEXT;
l_dup:	st[sp] = st[sp - 1]; sp++; pc++; NEXT;
l_over:	st[sp] = st[sp - 2]; sp++; pc++; NEXT;
l_swap:	{ long t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } pc++; NEXT;
l_jnz:	if (st[--sp]) pc = prog[pc].arg; else pc++; NEXT;
l_dec:	st[sp - 1]--; pc++; NEXT;
l_print: out_count++; if (out_count % 5 == 0) printf("  out %ld\n", st[sp - 1]); pc++; NEXT;
l_halt:	return sp ? st[0] : 0;
#undef NEXT
}

static int classify(const char *s, int counts[5])
{
	int n = 0;
	for (; *s; s++, n++) {
		switch (*s) {
		case '0' ... '9': counts[0]++; break;
		case 'a' ... 'f':
		case 'A' ... 'F': counts[1]++; /* fall through */
		case 'g' ... 'z':
		case 'G' ... 'Z': counts[2]++; break;
		case ' ': case '\t': case '\n': counts[3]++; break;
		case '!' ... '/': case ':' ... '@': counts[4]++; break;
		default: return -n;
		}
	}
	return n;
}

static int grade(int score)
{
	switch (score) {
	case 90 ... 100: return 'A';
	case 80 ... 89: return 'B';
	case 65 ... 79: return 'C';
	case 0 ... 64: return 'F';
	default: return '?';
	}
}

int main(void)
{
	/* factorial: acc n -> acc*n n-1 until n is 0 */
	struct insn fact[] = {
		{ OP_PUSH, 1 }, { OP_PUSH, 0 }, { OP_DUP, 0 }, { OP_JNZ, 5 }, { OP_HALT, 0 },
		{ OP_PRINT, 0 }, { OP_SWAP, 0 }, { OP_OVER, 0 }, { OP_MUL, 0 }, { OP_SWAP, 0 },
		{ OP_DEC, 0 }, { OP_DUP, 0 }, { OP_JNZ, 5 }, { OP_HALT, 0 },
	};
	/* sum of k*k - k for k = n..1 */
	struct insn sq[] = {
		{ OP_PUSH, 0 }, { OP_PUSH, 0 }, { OP_DUP, 0 }, { OP_JNZ, 5 }, { OP_HALT, 0 },
		{ OP_SWAP, 0 }, { OP_OVER, 0 }, { OP_DUP, 0 }, { OP_MUL, 0 }, { OP_ADD, 0 },
		{ OP_OVER, 0 }, { OP_SUB, 0 }, { OP_SWAP, 0 }, { OP_DEC, 0 }, { OP_DUP, 0 },
		{ OP_JNZ, 5 }, { OP_HALT, 0 },
	};
	const char *texts[] = { "Hello, World! 42", "deadBEEF 0x10\tok", "tab\tand\nnl",
				"ctrl\x01here", "" };
	int i, c[5];
	long r;
	for (i = 0; i < 8; i++) {
		fact[1].arg = i;
		r = run_threaded(fact, 30 + i * 5);
		printf("fact %d -> %ld\n", i, r);
		sq[1].arg = i * 3;
		printf("sq %d -> %ld\n", i * 3, run_threaded(sq, 1000));
	}
	for (i = 0; i < 5; i++) {
		int n, k;
		for (k = 0; k < 5; k++)
			c[k] = 0;
		n = classify(texts[i], c);
		printf("cls %d %d: %d %d %d %d %d\n", i, n, c[0], c[1], c[2], c[3], c[4]);
	}
	for (i = -5; i <= 105; i += 10)
		printf("%c", grade(i));
	printf("\n");
	return 0;
}
