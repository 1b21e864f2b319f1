/* RISC-V instruction decoding: length, control-flow class, direct target,
 * link-register use, and objdump-style text. RV32 and RV64, base + C, plus
 * enough of M/A/F/D/Zicsr/Zifencei to render RV64GC. */
#ifndef LTPIPE_INSN_H
#define LTPIPE_INSN_H

#include <stddef.h>
#include <stdint.h>

/* Control-flow class of one instruction, as the trace decoder sees it. */
enum lt_insn_class {
	LT_INSN_OTHER = 0,   /* falls through to pc + len */
	LT_INSN_BRANCH = 1,  /* conditional branch: beq..bgeu, c.beqz, c.bnez */
	LT_INSN_JUMP = 2,    /* direct (inferable) jump: jal, c.j, c.jal */
	LT_INSN_IJUMP = 3,   /* indirect (uninferable) jump: jalr, c.jr, c.jalr */
	LT_INSN_TRET = 4,    /* trap return: mret, sret, uret */
	LT_INSN_TRAP = 5,    /* ecall, ebreak, c.ebreak: synchronous trap */
	LT_INSN_INVALID = 6, /* reserved / unknown encoding */
};

/* Link-register use of a jump, per the RISC-V return-address-stack hints
 * (rd/rs1 in {x1, x5} are link registers). */
enum lt_insn_link {
	LT_LINK_NONE = 0,     /* not a jump, or a plain jump */
	LT_LINK_CALL = 1,     /* push: rd is a link register */
	LT_LINK_RET = 2,      /* pop: rs1 is a link register, rd is not */
	LT_LINK_CORO = 3,     /* pop then push: rd and rs1 both link, rd != rs1 */
};

/* One decoded instruction. */
struct lt_insn {
	uint64_t addr;   /* address it was decoded at */
	uint32_t raw;    /* the encoding (low 16 bits only for a 2-byte insn) */
	uint8_t len;     /* 2 or 4; an INVALID longer-insn prefix: 6..22 */
	uint8_t cls;     /* enum lt_insn_class */
	uint8_t link;    /* enum lt_insn_link */
	uint8_t rd;      /* destination (link) register; set for jumps only */
	uint8_t rs1;     /* first source register (jalr: base); jumps and
	                    branches only, else 0 */
	int64_t imm;     /* branch/jal offset, jalr immediate, else 0 */
	uint64_t target; /* direct target (branch, jal), else 0 */
};

/* Decodes the instruction at `addr` from `buf` (little-endian, `avail`
 * bytes valid). `xlen` is 32 or 64 (selects c.jal vs c.addiw etc).
 * Returns the length (2 or 4) and fills `out`; LT_ERR_TRUNC if `avail` is
 * too short (out->len is the length needed once 2 bytes are there,
 * out->cls = LT_INSN_INVALID); LT_ERR_BAD_INSN for a reserved/unknown
 * encoding (out->len and out->cls = LT_INSN_INVALID are still set so callers
 * can skip it; a 48/64/80+-bit prefix gets its declared length 6..22, as
 * objdump steps over it). The 16-bit space is checked fully; a 32-bit
 * encoding is INVALID only if it is a reserved jump/branch/SYSTEM form or the
 * reserved major opcode 0x6b: unknown extensions (V, Zb*, custom) are
 * LT_INSN_OTHER, since they fall through. */
int lt_insn_decode(const uint8_t *buf, size_t avail, uint64_t addr, int xlen,
                   struct lt_insn *out);

/* Renders `in` as objdump -M no-aliases text ("addi\ta0,a0,1"; a direct
 * target as absolute hex "jal\tra,1047c"), NUL-terminated into buf[size].
 * Returns the number of characters written (excluding the NUL; truncated to
 * size - 1). Encodings objdump 2.40 cannot name render as it does:
 * ".4byte\t0x..." / ".2byte\t0x..." (0x0000 as "c.unimp"). CSR names follow
 * privileged spec 1.12 (objdump's default). */
size_t lt_insn_render(const struct lt_insn *in, int xlen, char *buf,
                      size_t size);

#endif
