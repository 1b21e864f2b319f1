/* Unit test of lt_insn_decode / lt_insn_render on hand-picked encodings:
 * RV32/RV64 differences in the compressed space, RAS link hints, reserved
 * encodings, long-instruction prefixes and truncated buffers. Expected text
 * is what riscv64-linux-gnu-objdump 2.40 -M no-aliases prints. */
#include <stdio.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/insn.h"

/* One expectation. */
struct tcase {
	uint32_t raw;       /* encoding (2 or 4 bytes used, per len) */
	uint64_t addr;      /* address decoded at */
	int xlen;           /* 32 or 64 */
	int rc;             /* expected return: len or negative error */
	uint8_t len;        /* expected out.len */
	uint8_t cls;        /* expected class */
	uint8_t link;       /* expected link hint */
	uint8_t rd;         /* expected rd */
	uint8_t rs1;        /* expected rs1 */
	int64_t imm;        /* expected imm */
	uint64_t target;    /* expected target */
	const char *text;   /* expected rendering, or NULL to skip */
};

#define O LT_INSN_OTHER
#define B LT_INSN_BRANCH
#define J LT_INSN_JUMP
#define IJ LT_INSN_IJUMP
#define TR LT_INSN_TRET
#define TP LT_INSN_TRAP
#define INV LT_INSN_INVALID
#define BAD LT_ERR_BAD_INSN

static const struct tcase cases[] = {
	/* c.jal (RV32) vs c.addiw (RV64) share funct3 001 of quadrant 1 */
	{0x2d85, 0x1000002c, 32, 2, 2, J, LT_LINK_CALL, 1, 0, 0x670, 0x1000069c,
	 "c.jal\t1000069c"},
	{0x2d85, 0x1000002c, 64, 2, 2, O, 0, 0, 0, 0, 0, "c.addiw\ts11,1"},
	{0x3001, 0x20, 32, 2, 2, J, LT_LINK_CALL, 1, 0, -2048, 0xfffff820,
	 "c.jal\tfffff820"},
	{0x2001, 0x20, 64, BAD, 2, INV, 0, 0, 0, 0, 0, ".2byte\t0x2001"},
	{0x2001, 0x20, 32, 2, 2, J, LT_LINK_CALL, 1, 0, 0, 0x20, "c.jal\t20"},
	/* c.j backwards, wrapping below zero at each width */
	{0xbfe5, 0x10, 64, 2, 2, J, 0, 0, 0, -8, 0x8, "c.j\t8"},
	{0xb7c5, 0x10, 64, 2, 2, J, 0, 0, 0, -32, 0xfffffffffffffff0ull,
	 "c.j\tfffffffffffffff0"},
	{0xb7c5, 0x10, 32, 2, 2, J, 0, 0, 0, -32, 0xfffffff0ull,
	 "c.j\tfffffff0"},
	/* c.flw/c.fsw/c.flwsp (RV32) vs c.ld/c.sd/c.ldsp (RV64) */
	{0x6398, 0, 32, 2, 2, O, 0, 0, 0, 0, 0, "c.flw\tfa4,0(a5)"},
	{0x6398, 0, 64, 2, 2, O, 0, 0, 0, 0, 0, "c.ld\ta4,0(a5)"},
	{0xe398, 0, 32, 2, 2, O, 0, 0, 0, 0, 0, "c.fsw\tfa4,0(a5)"},
	{0xe398, 0, 64, 2, 2, O, 0, 0, 0, 0, 0, "c.sd\ta4,0(a5)"},
	{0x60a2, 0, 64, 2, 2, O, 0, 0, 0, 0, 0, "c.ldsp\tra,8(sp)"},
	{0x60a2, 0, 32, 2, 2, O, 0, 0, 0, 0, 0, "c.flwsp\tft1,8(sp)"},
	{0x6002, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, NULL}, /* c.ldsp zero */
	{0x6002, 0, 32, 2, 2, O, 0, 0, 0, 0, 0, "c.flwsp\tft0,0(sp)"},
	/* c.subw/c.addw exist on RV64 only */
	{0x9c21, 0, 64, 2, 2, O, 0, 0, 0, 0, 0, "c.addw\ts0,s0"},
	{0x9c21, 0, 32, BAD, 2, INV, 0, 0, 0, 0, 0, ".2byte\t0x9c21"},
	{0x9c41, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, ".2byte\t0x9c41"},
	/* reserved compressed encodings */
	{0x0000, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, "c.unimp"},
	{0x0004, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, ".2byte\t0x4"},
	{0x4002, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, ".2byte\t0x4002"},
	{0x8002, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, ".2byte\t0x8002"},
	{0x6081, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, ".2byte\t0x6081"},
	{0x6101, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, ".2byte\t0x6101"},
	{0x8000, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, ".2byte\t0x8000"},
	/* legal oddities: c.nop is c.addi zero,0; shamt 0 is c.slli64 */
	{0x0001, 0, 64, 2, 2, O, 0, 0, 0, 0, 0, "c.addi\tzero,0"},
	{0x0082, 0, 64, 2, 2, O, 0, 0, 0, 0, 0, "c.slli64\tra"},
	{0x7139, 0, 64, 2, 2, O, 0, 0, 0, 0, 0, "c.addi16sp\tsp,-64"},
	{0x7ffd, 0, 64, 2, 2, O, 0, 0, 0, 0, 0, "c.lui\tt6,0xfffff"},
	/* compressed indirect jumps and their link hints */
	{0x8082, 0, 64, 2, 2, IJ, LT_LINK_RET, 0, 1, 0, 0, "c.jr\tra"},
	{0x8282, 0, 64, 2, 2, IJ, LT_LINK_RET, 0, 5, 0, 0, "c.jr\tt0"},
	{0x8782, 0, 64, 2, 2, IJ, LT_LINK_NONE, 0, 15, 0, 0, "c.jr\ta5"},
	{0x9782, 0, 64, 2, 2, IJ, LT_LINK_CALL, 1, 15, 0, 0, "c.jalr\ta5"},
	{0x9082, 0, 64, 2, 2, IJ, LT_LINK_CALL, 1, 1, 0, 0, "c.jalr\tra"},
	{0x9282, 0, 64, 2, 2, IJ, LT_LINK_CORO, 1, 5, 0, 0, "c.jalr\tt0"},
	{0x9002, 0, 64, 2, 2, TP, 0, 0, 0, 0, 0, "c.ebreak"},
	/* compressed branches */
	{0xc159, 0x100000a4, 32, 2, 2, B, 0, 0, 10, 0x86, 0x1000012a,
	 "c.beqz\ta0,1000012a"},
	{0xfef5, 0x1044e, 64, 2, 2, B, 0, 0, 13, -4, 0x1044a,
	 "c.bnez\ta3,1044a"},
	/* jalr: every row of the RAS hint table */
	{0x00078067, 0, 64, 4, 4, IJ, LT_LINK_NONE, 0, 15, 0, 0,
	 "jalr\tzero,0(a5)"},
	{0x00008067, 0, 64, 4, 4, IJ, LT_LINK_RET, 0, 1, 0, 0, "jalr\tzero,0(ra)"},
	{0x00028067, 0, 64, 4, 4, IJ, LT_LINK_RET, 0, 5, 0, 0, "jalr\tzero,0(t0)"},
	{0x000780e7, 0, 64, 4, 4, IJ, LT_LINK_CALL, 1, 15, 0, 0, "jalr\tra,0(a5)"},
	{0x000080e7, 0, 64, 4, 4, IJ, LT_LINK_CALL, 1, 1, 0, 0, "jalr\tra,0(ra)"},
	{0x000282e7, 0, 64, 4, 4, IJ, LT_LINK_CALL, 5, 5, 0, 0, "jalr\tt0,0(t0)"},
	{0x000280e7, 0, 64, 4, 4, IJ, LT_LINK_CORO, 1, 5, 0, 0, "jalr\tra,0(t0)"},
	{0x000082e7, 0, 64, 4, 4, IJ, LT_LINK_CORO, 5, 1, 0, 0, "jalr\tt0,0(ra)"},
	{0xff0300e7, 0, 32, 4, 4, IJ, LT_LINK_CALL, 1, 6, -16, 0,
	 "jalr\tra,-16(t1)"},
	{0x00009067, 0, 64, BAD, 4, INV, 0, 0, 0, 0, 0, ".4byte\t0x9067"},
	/* jal: link only for ra/t0 */
	{0x261000ef, 0x10000046, 32, 4, 4, J, LT_LINK_CALL, 1, 0, 0xa60,
	 0x10000aa6, "jal\tra,10000aa6"},
	{0x61c002ef, 0x10000014, 32, 4, 4, J, LT_LINK_CALL, 5, 0, 0x61c,
	 0x10000630, "jal\tt0,10000630"},
	{0x0040006f, 0x10000010, 32, 4, 4, J, 0, 0, 0, 4, 0x10000014,
	 "jal\tzero,10000014"},
	{0xff9ff06f, 0x1000, 64, 4, 4, J, 0, 0, 0, -8, 0xff8, "jal\tzero,ff8"},
	/* branches; funct3 2 and 3 are reserved */
	{0x02f70f63, 0x100000aa, 32, 4, 4, B, 0, 0, 14, 0x3e, 0x100000e8,
	 "beq\ta4,a5,100000e8"},
	{0xfe079ce3, 0x100, 64, 4, 4, B, 0, 0, 15, -8, 0xf8,
	 "bne\ta5,zero,f8"},
	{0x00002063, 0, 64, BAD, 4, INV, 0, 0, 0, 0, 0, ".4byte\t0x2063"},
	/* SYSTEM */
	{0x00000073, 0, 64, 4, 4, TP, 0, 0, 0, 0, 0, "ecall"},
	{0x00100073, 0, 64, 4, 4, TP, 0, 0, 0, 0, 0, "ebreak"},
	{0x30200073, 0, 64, 4, 4, TR, 0, 0, 0, 0, 0, "mret"},
	{0x10200073, 0, 32, 4, 4, TR, 0, 0, 0, 0, 0, "sret"},
	{0x00200073, 0, 64, 4, 4, TR, 0, 0, 0, 0, 0, "uret"},
	{0x10500073, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "wfi"},
	{0x00300073, 0, 64, BAD, 4, INV, 0, 0, 0, 0, 0, ".4byte\t0x300073"},
	{0x003027f3, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "csrrs\ta5,fcsr,zero"},
	{0xc0102573, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "csrrs\ta0,time,zero"},
	/* the reserved major opcode; unknown but well-formed words are OTHER */
	{0x0000006b, 0, 64, BAD, 4, INV, 0, 0, 0, 0, 0, ".4byte\t0x6b"},
	{0x00000057, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, ".4byte\t0x57"},
	/* longer-instruction prefixes: invalid, but their length is kept */
	{0x001f, 0, 64, BAD, 6, INV, 0, 0, 0, 0, 0, NULL},
	{0x003f, 0, 64, BAD, 8, INV, 0, 0, 0, 0, 0, NULL},
	{0x107f, 0, 64, BAD, 12, INV, 0, 0, 0, 0, 0, NULL},
	{0x707f, 0, 64, BAD, 2, INV, 0, 0, 0, 0, 0, NULL},
	/* text of a few common non-control instructions */
	{0x02f777d3, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "fadd.d\tfa5,fa4,fa5"},
	{0x02f707d3, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "fadd.d\tfa5,fa4,fa5,rne"},
	{0x0405b52f, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "amoadd.d.aq\ta0,zero,(a1)"},
	{0x1005a52f, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "lr.w\ta0,(a1)"},
	{0x0ff0000f, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "fence\tiorw,iorw"},
	{0x10003537, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "lui\ta0,0x10003"},
	{0x02051513, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "slli\ta0,a0,0x20"},
	{0xf0058593, 0, 64, 4, 4, O, 0, 0, 0, 0, 0, "addi\ta1,a1,-256"},
};

static int check_case(const struct tcase *c)
{
	uint8_t b[4] = {(uint8_t)c->raw, (uint8_t)(c->raw >> 8),
			(uint8_t)(c->raw >> 16), (uint8_t)(c->raw >> 24)};
	size_t avail = (c->raw & 3) == 3 ? 4 : 2;
	struct lt_insn in;
	char text[96];
	int rc = lt_insn_decode(b, avail, c->addr, c->xlen, &in);
	int ok = rc == c->rc && in.len == c->len && in.cls == c->cls &&
		 in.link == c->link && in.rd == c->rd && in.rs1 == c->rs1 &&
		 in.imm == c->imm && in.target == c->target &&
		 in.addr == c->addr;

	if (ok && c->text) {
		lt_insn_render(&in, c->xlen, text, sizeof(text));
		ok = strcmp(text, c->text) == 0;
	}
	if (!ok) {
		lt_insn_render(&in, c->xlen, text, sizeof(text));
		printf("FAIL %#x rv%d @%#llx: rc %d len %u cls %u link %u rd %u "
		       "rs1 %u imm %lld target %#llx \"%s\"; want rc %d len %u "
		       "cls %u link %u rd %u rs1 %u imm %lld target %#llx "
		       "\"%s\"\n", c->raw, c->xlen, (unsigned long long)c->addr,
		       rc, in.len, in.cls, in.link, in.rd, in.rs1,
		       (long long)in.imm, (unsigned long long)in.target, text,
		       c->rc, c->len, c->cls, c->link, c->rd, c->rs1,
		       (long long)c->imm, (unsigned long long)c->target,
		       c->text ? c->text : "-");
	}
	return ok;
}

/* Truncated buffers and render buffer limits. */
static int check_edges(void)
{
	static const uint8_t jal[4] = {0xef, 0x00, 0x10, 0x26};
	struct lt_insn in;
	char small[4];
	int fails = 0;

	if (lt_insn_decode(jal, 0, 0, 64, &in) != LT_ERR_TRUNC ||
	    in.cls != LT_INSN_INVALID)
		fails++, printf("FAIL: empty buffer\n");
	if (lt_insn_decode(jal, 1, 0, 64, &in) != LT_ERR_TRUNC)
		fails++, printf("FAIL: 1-byte buffer\n");
	if (lt_insn_decode(jal, 2, 0, 64, &in) != LT_ERR_TRUNC ||
	    in.len != 4 || in.cls != LT_INSN_INVALID)
		fails++, printf("FAIL: 32-bit insn in 2 bytes\n");
	if (lt_insn_decode(jal, 3, 0, 64, &in) != LT_ERR_TRUNC)
		fails++, printf("FAIL: 32-bit insn in 3 bytes\n");
	if (lt_insn_decode((const uint8_t *)"\x82\x80", 2, 0, 64, &in) != 2 ||
	    in.cls != LT_INSN_IJUMP)
		fails++, printf("FAIL: 16-bit insn in exactly 2 bytes\n");
	if (lt_insn_decode(jal, 4, 0, 64, &in) != 4 ||
	    lt_insn_render(&in, 64, small, sizeof(small)) != 3 ||
	    strcmp(small, "jal") != 0)
		fails++, printf("FAIL: render into 4 bytes\n");
	if (lt_insn_render(&in, 64, small, 0) != 0)
		fails++, printf("FAIL: render into 0 bytes\n");
	return fails;
}

int main(void)
{
	size_t i, n = sizeof(cases) / sizeof(cases[0]);
	int fails = 0;

	for (i = 0; i < n; i++)
		fails += !check_case(&cases[i]);
	fails += check_edges();
	printf("%zu cases + 7 edge checks, %d failures\n", n, fails);
	return fails != 0;
}
