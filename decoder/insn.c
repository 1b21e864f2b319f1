/* RISC-V instruction decoding for the trace decoder: length, control-flow
 * class, direct target and return-address-stack hints. Only what decides
 * control flow is checked in depth; any other well-formed 32-bit encoding is
 * LT_INSN_OTHER so that extensions we do not render (V, Zb*, custom) still
 * step correctly. The 16-bit space is checked fully, because compressed
 * reserved encodings are how a mis-synchronised walk shows itself. */
#include "ltpipe/insn.h"

#include <string.h>

#include "ltpipe/error.h"

/* Sign-extends the low `bits` bits of `v`. */
static inline int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);

	v &= (1ull << bits) - 1;
	return (int64_t)((v ^ m) - m);
}

/* Extracts raw[hi:lo]. */
static inline uint32_t bits(uint32_t raw, unsigned hi, unsigned lo)
{
	return (raw >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* Wraps an address to the register width. */
static inline uint64_t wrap(uint64_t a, int xlen)
{
	return xlen == 32 ? (a & 0xffffffffull) : a;
}

/* x1 (ra) and x5 (t0) are the link registers of the RAS hint table. */
static inline int is_link(unsigned r)
{
	return r == 1 || r == 5;
}

/* Link hint of a jalr-like jump (RISC-V unprivileged spec, table "return-
 * address stack prediction hints encoded in register operands"). */
static uint8_t jalr_link(unsigned rd, unsigned rs1)
{
	if (is_link(rd)) {
		if (is_link(rs1) && rs1 != rd)
			return LT_LINK_CORO;
		return LT_LINK_CALL;
	}
	return is_link(rs1) ? LT_LINK_RET : LT_LINK_NONE;
}

/* c.j / c.jal offset: imm[11|4|9:8|10|6|7|3:1|5] in bits 12:2. */
static int64_t cj_imm(uint32_t r)
{
	uint32_t v = bits(r, 12, 12) << 11 | bits(r, 11, 11) << 4 |
		     bits(r, 10, 9) << 8 | bits(r, 8, 8) << 10 |
		     bits(r, 7, 7) << 6 | bits(r, 6, 6) << 7 |
		     bits(r, 5, 3) << 1 | bits(r, 2, 2) << 5;

	return sext(v, 12);
}

/* c.beqz / c.bnez offset: imm[8|4:3] in 12:10, imm[7:6|2:1|5] in 6:2. */
static int64_t cb_imm(uint32_t r)
{
	uint32_t v = bits(r, 12, 12) << 8 | bits(r, 11, 10) << 3 |
		     bits(r, 6, 5) << 6 | bits(r, 4, 3) << 1 |
		     bits(r, 2, 2) << 5;

	return sext(v, 9);
}

/* Classifies a 16-bit encoding into `o` (len, raw, addr already set).
 * Returns 0, or LT_ERR_BAD_INSN for a reserved encoding. */
static int decode16(uint32_t r, int xlen, struct lt_insn *o)
{
	unsigned f3 = r >> 13;
	unsigned rd = bits(r, 11, 7);
	unsigned rs2 = bits(r, 6, 2);
	int64_t ci = sext(bits(r, 12, 12) << 5 | rs2, 6);

	switch ((r & 3) << 3 | f3) {
	case 000: /* c.addi4spn; all-zero is the defined illegal insn */
		if (bits(r, 12, 5) == 0)
			return LT_ERR_BAD_INSN;
		return 0;
	case 001: case 002: case 003: case 005: case 006: case 007:
		return 0; /* c.fld c.lw c.flw/c.ld c.fsd c.sw c.fsw/c.sd */
	case 004:
		return LT_ERR_BAD_INSN;
	case 010: case 012:
		return 0; /* c.addi (nop/hints), c.li (hint when rd=0) */
	case 011:
		if (xlen == 32) { /* c.jal */
			o->cls = LT_INSN_JUMP;
			o->link = LT_LINK_CALL;
			o->rd = 1;
			o->imm = cj_imm(r);
			o->target = wrap(o->addr + (uint64_t)o->imm, xlen);
			return 0;
		}
		return rd == 0 ? LT_ERR_BAD_INSN : 0; /* c.addiw */
	case 013: /* c.addi16sp / c.lui: zero immediate is reserved */
		return ci == 0 ? LT_ERR_BAD_INSN : 0;
	case 014:
		switch (bits(r, 11, 10)) {
		case 0: case 1: /* RV32 shamt[5] is for custom use: fine */
		case 2:
			return 0; /* c.srli c.srai c.andi */
		default:
			if (!bits(r, 12, 12))
				return 0; /* c.sub c.xor c.or c.and */
			/* c.subw c.addw on RV64; the rest is reserved */
			return xlen == 64 && bits(r, 6, 6) == 0 ? 0 :
								   LT_ERR_BAD_INSN;
		}
	case 015: /* c.j */
		o->cls = LT_INSN_JUMP;
		o->imm = cj_imm(r);
		o->target = wrap(o->addr + (uint64_t)o->imm, xlen);
		return 0;
	case 016: case 017: /* c.beqz c.bnez */
		o->cls = LT_INSN_BRANCH;
		o->rs1 = 8 + bits(r, 9, 7);
		o->imm = cb_imm(r);
		o->target = wrap(o->addr + (uint64_t)o->imm, xlen);
		return 0;
	case 020: /* c.slli (RV32 shamt[5]: custom use, objdump decodes it) */
	case 021: case 025: case 026: case 027:
		return 0; /* c.fldsp c.fsdsp c.swsp c.fswsp/c.sdsp */
	case 022:
		return rd == 0 ? LT_ERR_BAD_INSN : 0; /* c.lwsp */
	case 023: /* c.flwsp (RV32) / c.ldsp (RV64, rd=0 reserved) */
		return xlen == 64 && rd == 0 ? LT_ERR_BAD_INSN : 0;
	case 024:
		if (rs2 != 0)
			return 0; /* c.mv c.add */
		if (!bits(r, 12, 12)) { /* c.jr */
			if (rd == 0)
				return LT_ERR_BAD_INSN;
			o->cls = LT_INSN_IJUMP;
			o->rs1 = rd;
			o->link = jalr_link(0, rd);
			return 0;
		}
		if (rd == 0) { /* c.ebreak */
			o->cls = LT_INSN_TRAP;
			return 0;
		}
		o->cls = LT_INSN_IJUMP; /* c.jalr: jalr ra, 0(rs1) */
		o->rd = 1;
		o->rs1 = rd;
		o->link = jalr_link(1, rd);
		return 0;
	}
	return LT_ERR_BAD_INSN; /* not reached: the switch covers 5 bits */
}

/* SYSTEM with funct3 = 0: the privileged instructions. Anything we do not
 * know here is reserved: it would trap, and guessing "other" could hide a
 * trap return from the trace decoder. */
static int decode_priv(uint32_t r, struct lt_insn *o)
{
	switch (r) {
	case 0x00000073: /* ecall */
	case 0x00100073: /* ebreak */
		o->cls = LT_INSN_TRAP;
		return 0;
	case 0x00200073: /* uret */
	case 0x10200073: /* sret */
	case 0x20200073: /* hret (privileged spec 1.9.1) */
	case 0x30200073: /* mret */
	case 0x70200073: /* mnret (Smrnmi) */
		o->cls = LT_INSN_TRET;
		return 0;
	case 0x7b200073: /* dret: leaves debug mode, which is not traced */
	case 0x10500073: /* wfi */
	case 0x18000073: /* sfence.w.inval */
	case 0x18100073: /* sfence.inval.ir */
		return 0;
	}
	if (bits(r, 11, 7) != 0)
		return LT_ERR_BAD_INSN;
	if ((r & 0xfff07fff) == 0x10400073)
		return 0; /* sfence.vm (privileged spec 1.9.1) */
	switch (r >> 25) {
	case 0x09: /* sfence.vma */
	case 0x0b: /* sinval.vma */
	case 0x11: /* hfence.vvma */
	case 0x13: /* hinval.vvma */
	case 0x31: /* hfence.gvma */
	case 0x33: /* hinval.gvma */
		return 0;
	}
	return LT_ERR_BAD_INSN;
}

/* Classifies a 32-bit encoding into `o`. Returns 0 or LT_ERR_BAD_INSN. */
static int decode32(uint32_t r, int xlen, struct lt_insn *o)
{
	unsigned rd = bits(r, 11, 7);
	unsigned rs1 = bits(r, 19, 15);
	unsigned f3 = bits(r, 14, 12);

	switch (r & 0x7f) {
	case 0x63: /* beq bne - - blt bge bltu bgeu */
		if (f3 == 2 || f3 == 3)
			return LT_ERR_BAD_INSN;
		o->cls = LT_INSN_BRANCH;
		o->rs1 = rs1;
		o->imm = sext(bits(r, 31, 31) << 12 | bits(r, 7, 7) << 11 |
				      bits(r, 30, 25) << 5 | bits(r, 11, 8) << 1,
			      13);
		o->target = wrap(o->addr + (uint64_t)o->imm, xlen);
		return 0;
	case 0x6f: /* jal */
		o->cls = LT_INSN_JUMP;
		o->rd = rd;
		o->link = is_link(rd) ? LT_LINK_CALL : LT_LINK_NONE;
		o->imm = sext(bits(r, 31, 31) << 20 | bits(r, 19, 12) << 12 |
				      bits(r, 20, 20) << 11 | bits(r, 30, 21) << 1,
			      21);
		o->target = wrap(o->addr + (uint64_t)o->imm, xlen);
		return 0;
	case 0x67: /* jalr */
		if (f3 != 0)
			return LT_ERR_BAD_INSN;
		o->cls = LT_INSN_IJUMP;
		o->rd = rd;
		o->rs1 = rs1;
		o->link = jalr_link(rd, rs1);
		o->imm = sext(r >> 20, 12);
		return 0;
	case 0x73:
		return f3 == 0 ? decode_priv(r, o) : 0; /* csr*, hlv/hsv */
	case 0x6b: /* the one major opcode the base map reserves */
		return LT_ERR_BAD_INSN;
	}
	return 0;
}

/* Length of an encoding from its first parcel, as the spec's length
 * encoding (and objdump) count it: 2, 4, 6, 8, 10..22; reserved >= 192-bit
 * prefixes count as 2 so a walk moves on by one parcel. */
static unsigned parcel_len(uint32_t lo16)
{
	if ((lo16 & 0x03) != 0x03)
		return 2;
	if ((lo16 & 0x1c) != 0x1c)
		return 4;
	if ((lo16 & 0x3f) == 0x1f)
		return 6;
	if ((lo16 & 0x7f) == 0x3f)
		return 8;
	if ((lo16 & 0x7000) != 0x7000)
		return 10 + ((lo16 >> 11) & 0xe);
	return 2;
}

/* Contract in ltpipe/insn.h. */
int lt_insn_decode(const uint8_t *buf, size_t avail, uint64_t addr, int xlen,
		   struct lt_insn *out)
{
	uint32_t r;
	unsigned len;
	int err;

	memset(out, 0, sizeof(*out));
	out->addr = addr;
	out->cls = LT_INSN_INVALID; /* until proven otherwise */
	if (avail < 2)
		return LT_ERR_TRUNC;
	r = (uint32_t)buf[0] | (uint32_t)buf[1] << 8;
	len = parcel_len(r);
	out->raw = r;
	out->len = (uint8_t)len;
	if (len > 4) {
		/* Longer than anything we decode: reserved for us, but the
		 * length lets a linear walk step over it like objdump. */
		out->cls = LT_INSN_INVALID;
		return LT_ERR_BAD_INSN;
	}
	if (len == 4) {
		if (avail < 4)
			return LT_ERR_TRUNC; /* len says how many are needed */
		out->cls = LT_INSN_OTHER;
		r |= (uint32_t)buf[2] << 16 | (uint32_t)buf[3] << 24;
		out->raw = r;
		err = decode32(r, xlen, out);
	} else {
		out->cls = LT_INSN_OTHER;
		err = decode16(r, xlen, out);
	}
	if (err < 0) {
		uint8_t l = out->len;

		memset(out, 0, sizeof(*out));
		out->addr = addr;
		out->raw = r;
		out->len = l;
		out->cls = LT_INSN_INVALID;
		return err;
	}
	return (int)len;
}
