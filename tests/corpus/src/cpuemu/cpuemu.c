/* A tiny register machine: fetch/decode/execute in one big function with flags,
 * conditional jumps, calls and returns on an emulated stack. */
#include <stdio.h>
#include <stdint.h>

enum { HALT, LDI, MOV, ADD, SUB, MUL, DIV, AND, OR, XOR, SHL, SHR, CMP, CMPI,
       JMP, JZ, JNZ, JLT, JGE, CALL, RET, PUSH, POP, LD, ST, ADDI, OUT, NOP, NOPS };

typedef struct { uint8_t op, a, b; int16_t imm; } insn;

#define I(o, a, b, imm) { o, a, b, imm }

/* r0 = fib(r1) iteratively, output each */
static const insn prog_fib[] = {
	I(LDI, 1, 0, 20), I(LDI, 2, 0, 0), I(LDI, 3, 0, 1), I(LDI, 4, 0, 0),
	I(CMP, 4, 1, 0), I(JGE, 0, 0, 13), I(OUT, 2, 0, 0), I(MOV, 5, 3, 0),
	I(ADD, 3, 2, 0), I(MOV, 2, 5, 0), I(ADDI, 4, 0, 1), I(JMP, 0, 0, 4),
	I(NOP, 0, 0, 0), I(HALT, 0, 0, 0),
};

/* recursive factorial via CALL/RET: fact(r1) -> r0 */
static const insn prog_fact[] = {
	I(LDI, 7, 0, 1), I(LDI, 1, 0, 1),
	/* 2: loop */ I(CALL, 0, 0, 9), I(OUT, 0, 0, 0), I(ADDI, 1, 0, 1), I(CMPI, 1, 0, 13), I(JLT, 0, 0, 2), I(HALT, 0, 0, 0), I(NOP, 0, 0, 0),
	/* 9: fact */ I(CMPI, 1, 0, 1), I(JGE, 0, 0, 13), I(LDI, 0, 0, 1), I(RET, 0, 0, 0),
	/* 13 */ I(PUSH, 1, 0, 0), I(ADDI, 1, 0, -1), I(CALL, 0, 0, 9), I(POP, 1, 0, 0), I(MUL, 0, 1, 0), I(RET, 0, 0, 0),
};

/* sieve in memory: mark composites below 400, output count */
static const insn prog_sieve[] = {
	I(LDI, 1, 0, 2), I(LDI, 6, 0, 400), I(LDI, 0, 0, 0),
	/* 3 */ I(CMP, 1, 6, 0), I(JGE, 0, 0, 17),
	I(LD, 2, 1, 0), I(CMPI, 2, 0, 0), I(JNZ, 0, 0, 15), I(ADDI, 0, 0, 1),
	I(MOV, 3, 1, 0), I(ADD, 3, 1, 0),
	/* 11 */ I(CMP, 3, 6, 0), I(JGE, 0, 0, 15), I(ST, 7, 3, 0), I(JMP, 0, 0, 18),
	/* 15 */ I(ADDI, 1, 0, 1), I(JMP, 0, 0, 3),
	/* 17 */ I(JMP, 0, 0, 21),
	/* 18 */ I(ADD, 3, 1, 0), I(JMP, 0, 0, 11), I(NOP, 0, 0, 0),
	/* 21 */ I(OUT, 0, 0, 0), I(HALT, 0, 0, 0),
};

/* bit tricks and a divide by zero fault at the end */
static const insn prog_bits[] = {
	I(LDI, 1, 0, 0x1234), I(LDI, 2, 0, 3), I(LDI, 5, 0, 0),
	/* 3 */ I(SHL, 1, 2, 0), I(XOR, 1, 5, 0), I(LDI, 3, 0, 0x7fff), I(AND, 1, 3, 0), I(OR, 5, 1, 0), I(SHR, 5, 2, 0),
	I(ADDI, 4, 0, 1), I(CMPI, 4, 0, 40), I(JLT, 0, 0, 3), I(OUT, 1, 0, 0), I(OUT, 5, 0, 0),
	I(SUB, 5, 5, 0), I(DIV, 1, 5, 0), I(HALT, 0, 0, 0),
};

/* bad opcode */
static const insn prog_bad[] = { I(LDI, 1, 0, 5), I(NOPS + 3, 0, 0, 0) };

struct cpu { int32_t r[8]; int32_t mem[512]; int32_t stack[64]; int sp, pc, zf, nf; long steps; uint32_t outsum; int nout; };

static int run(struct cpu *c, const insn *code, int len, long limit)
{
	c->pc = 0; c->sp = 0; c->zf = c->nf = 0; c->steps = 0;
	for (;;) {
		const insn *in;
		int32_t *ra, rb;
		if (c->pc < 0 || c->pc >= len)
			return -1;
		if (++c->steps > limit)
			return -2;
		in = &code[c->pc++];
		ra = &c->r[in->a & 7];
		rb = c->r[in->b & 7];
		switch (in->op) {
		case HALT: return 0;
		case LDI: *ra = in->imm; break;
		case MOV: *ra = rb; break;
		case ADD: *ra += rb; goto setf;
		case SUB: *ra -= rb; goto setf;
		case MUL: *ra *= rb; goto setf;
		case DIV:
			if (rb == 0)
				return -3;
			*ra /= rb;
			goto setf;
		case AND: *ra &= rb; goto setf;
		case OR: *ra |= rb; goto setf;
		case XOR: *ra ^= rb; goto setf;
		case SHL: *ra = (int32_t)((uint32_t)*ra << (rb & 31)); goto setf;
		case SHR: *ra = (int32_t)((uint32_t)*ra >> (rb & 31)); goto setf;
		case CMP: c->zf = *ra == rb; c->nf = *ra < rb; break;
		case CMPI: c->zf = *ra == in->imm; c->nf = *ra < in->imm; break;
		case ADDI: *ra += in->imm; goto setf;
		case JMP: c->pc = in->imm; break;
		case JZ: if (c->zf) c->pc = in->imm; break;
		case JNZ: if (!c->zf) c->pc = in->imm; break;
		case JLT: if (c->nf) c->pc = in->imm; break;
		case JGE: if (!c->nf) c->pc = in->imm; break;
		case CALL:
			if (c->sp >= 64)
				return -4;
			c->stack[c->sp++] = c->pc;
			c->pc = in->imm;
			break;
		case RET:
			if (c->sp <= 0)
				return -5;
			c->pc = c->stack[--c->sp];
			break;
		case PUSH:
			if (c->sp >= 64)
				return -4;
			c->stack[c->sp++] = *ra;
			break;
		case POP:
			if (c->sp <= 0)
				return -5;
			*ra = c->stack[--c->sp];
			break;
		case LD:
			if ((uint32_t)rb >= 512)
				return -6;
			*ra = c->mem[rb];
			break;
		case ST:
			if ((uint32_t)rb >= 512)
				return -6;
			c->mem[rb] = *ra;
			break;
		case OUT:
			c->outsum = c->outsum * 33u + (uint32_t)*ra;
			c->nout++;
			break;
		case NOP:
			break;
		default:
			return -7;
		}
		continue;
	setf:
		c->zf = *ra == 0;
		c->nf = *ra < 0;
	}
}

int main(void)
{
	static const struct { const char *name; const insn *code; int len; long limit; } progs[] = {
		{ "fib", prog_fib, sizeof prog_fib / sizeof prog_fib[0], 100000 },
		{ "fact", prog_fact, sizeof prog_fact / sizeof prog_fact[0], 100000 },
		{ "sieve", prog_sieve, sizeof prog_sieve / sizeof prog_sieve[0], 100000 },
		{ "bits", prog_bits, sizeof prog_bits / sizeof prog_bits[0], 100000 },
		{ "bad", prog_bad, 2, 100 },
		{ "fib-short", prog_fib, 12, 100000 },
		{ "sieve-limit", prog_sieve, sizeof prog_sieve / sizeof prog_sieve[0], 500 },
	};
	static struct cpu cpu;
	uint32_t total = 0;
	unsigned i, k;
	for (i = 0; i < sizeof progs / sizeof progs[0]; i++) {
		int rc;
		for (k = 0; k < 8; k++)
			cpu.r[k] = k == 7;
		for (k = 0; k < 512; k++)
			cpu.mem[k] = 0;
		cpu.outsum = 0;
		cpu.nout = 0;
		rc = run(&cpu, progs[i].code, progs[i].len, progs[i].limit);
		printf("%-12s rc=%d steps=%ld outs=%d sum=%08x r0=%d\n", progs[i].name, rc,
		       cpu.steps, cpu.nout, (unsigned)cpu.outsum, (int)cpu.r[0]);
		total = total * 7u + cpu.outsum + (uint32_t)cpu.steps;
	}
	printf("total=%08x\n", (unsigned)total);
	return 0;
}
