#include <stdio.h>
#include <stdint.h>

enum op { PUSH, ADD, SUB, MUL, DUP, SWAP, JZ, JMP, DEC, PRINT, HALT, OVER, DROP, CALL, RET, LT };

struct insn { unsigned char op; int arg; };

static long stack[64];
static int rstack[16];

static long run_goto(const struct insn *code, int *steps)
{
	static void *tbl[] = {
		&&l_push, &&l_add, &&l_sub, &&l_mul, &&l_dup, &&l_swap, &&l_jz, &&l_jmp,
		&&l_dec, &&l_print, &&l_halt, &&l_over, &&l_drop, &&l_call, &&l_ret, &&l_lt,
	};
	int pc = 0, sp = 0, rp = 0, n = 0;
	const struct insn *i;
#define NEXT do { i = &code[pc++]; n++; goto *tbl[i->op]; } while (0)
	NEXT;
l_push: stack[sp++] = i->arg; NEXT;
l_add: sp--; stack[sp - 1] += stack[sp]; NEXT;
l_sub: sp--; stack[sp - 1] -= stack[sp]; NEXT;
l_mul: sp--; stack[sp - 1] *= stack[sp]; NEXT;
l_dup: stack[sp] = stack[sp - 1]; sp++; NEXT;
l_swap: { long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; } NEXT;
l_jz: if (stack[--sp] == 0) pc = i->arg; NEXT;
l_jmp: pc = i->arg; NEXT;
l_dec: stack[sp - 1]--; NEXT;
l_print: printf("  out %ld\n", stack[sp - 1]); NEXT;
l_over: stack[sp] = stack[sp - 2]; sp++; NEXT;
l_drop: sp--; NEXT;
l_call: rstack[rp++] = pc; pc = i->arg; NEXT;
l_ret: pc = rstack[--rp]; NEXT;
l_lt: sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; NEXT;
l_halt:
	*steps = n;
	return sp ? stack[sp - 1] : 0;
#undef NEXT
}

static const char *classify(int op)
{
	switch (op) {
	case PUSH: return "lit";
	case ADD ... MUL: return "arith";
	case DUP: case SWAP: case OVER: case DROP: return "stack";
	case JZ ... JMP: return "branch";
	case CALL ... RET: return "call";
	default: return "other";
	}
}

static int char_class(int c)
{
	switch (c) {
	case '0' ... '9': return 1;
	case 'a' ... 'f':
	case 'A' ... 'F': return 2;
	case 'g' ... 'z':
	case 'G' ... 'Z': return 3;
	case ' ': case '\t': return 4;
	default: return 0;
	}
}

int main(void)
{
	/* factorial of 10 by loop, then sum 1..50 via a subroutine */
	static const struct insn prog[] = {
		{ PUSH, 1 }, { PUSH, 10 },          /* acc n */
		{ DUP, 0 }, { JZ, 9 },              /* 2: if n==0 goto 9 */
		{ DUP, 0 }, { PUSH, 0 }, { SWAP, 0 }, { DROP, 0 }, { JMP, 20 },
		{ DROP, 0 }, { PRINT, 0 }, { DROP, 0 },
		{ PUSH, 0 }, { PUSH, 50 }, { CALL, 25 }, { DROP, 0 }, { PRINT, 0 }, { HALT, 0 },
		{ HALT, 0 }, { HALT, 0 },
		/* 20: acc n n -> acc*n n-1 */
		{ DROP, 0 }, { SWAP, 0 }, { OVER, 0 }, { MUL, 0 }, { JMP, 33 },
		/* 25: sum loop: s n -> s+... 0 */
		{ DUP, 0 }, { JZ, 32 }, { SWAP, 0 }, { OVER, 0 }, { ADD, 0 }, { SWAP, 0 }, { DEC, 0 },
		/* 32 */ { RET, 0 },
		/* 33: acc*n n -> swap back, dec, loop */
		{ SWAP, 0 }, { DEC, 0 }, { JMP, 2 },
	};
	/* run a writable copy (a struct array copied by a loop), re-patched */
	struct insn code[sizeof prog / sizeof prog[0] + 1];
	for (unsigned k = 0; k < sizeof prog / sizeof prog[0]; k++)
		code[k] = prog[k];
	code[31].op = DEC;
	int steps;
	long r = run_goto(code, &steps);
	printf("result %ld steps %d\n", r, steps);
	int cnt[6] = { 0 };
	static const char *names[] = { "lit", "arith", "stack", "branch", "call", "other" };
	for (unsigned k = 0; k < sizeof prog / sizeof prog[0]; k++) {
		const char *c = classify(prog[k].op);
		for (int j = 0; j < 6; j++)
			if (c == names[j] || (c[0] == names[j][0] && c[1] == names[j][1]))
				{ cnt[j]++; break; }
	}
	for (int j = 0; j < 6; j++)
		printf("%s %d\n", names[j], cnt[j]);
	const char *s = "Hello World 0x1F ff\tzz 42!";
	int cc[5] = { 0 };
	for (; *s; s++)
		cc[char_class(*s)]++;
	printf("classes %d %d %d %d %d\n", cc[0], cc[1], cc[2], cc[3], cc[4]);
	return 0;
}
