/* objdump-style (-M no-aliases, binutils 2.40) text for RV32/RV64 GC.
 * Called once per output line by the txt receiver, so it formats by hand
 * into a stack buffer: no stdio, no allocation. Anything outside the known
 * set prints as objdump prints undecodable words (".4byte\t0x...") so the
 * text never claims more than it knows. */
#include "ltpipe/insn.h"

#include <string.h>

/* Line under construction; long enough for any line we produce. */
struct line {
	char *p;       /* next free character */
	char buf[96];  /* the text; never written past 80 characters */
};

static const char *const xname[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const fname[32] = {
	"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
	"fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
	"fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
	"fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

/* Rounding modes as objdump names them; 5 and 6 are reserved. */
static const char *const rmname[8] = {
	"rne", "rtz", "rdn", "rup", "rmm", "unknown", "unknown", "dyn",
};

/* fence predecessor/successor sets, bit order i o r w. */
static const char *const iorw[16] = {
	"unknown", "w", "r", "rw", "o", "ow", "or", "orw",
	"i", "iw", "ir", "irw", "io", "iow", "ior", "iorw",
};

/* Extracts raw[hi:lo]. */
static inline uint32_t bits(uint32_t raw, unsigned hi, unsigned lo)
{
	return (raw >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* Sign-extends the low `bits_` bits of `v`. */
static inline int64_t sext(uint64_t v, unsigned bits_)
{
	uint64_t m = 1ull << (bits_ - 1);

	v &= (1ull << bits_) - 1;
	return (int64_t)((v ^ m) - m);
}

/* Appends a string; the caller keeps within the line buffer. */
static inline void put(struct line *l, const char *s)
{
	while (*s)
		*l->p++ = *s++;
}

/* Appends one character. */
static inline void putc_(struct line *l, char c)
{
	*l->p++ = c;
}

/* Unsigned hex without prefix or padding, as objdump prints addresses. */
static void put_hex(struct line *l, uint64_t v)
{
	char tmp[16];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (n)
		*l->p++ = tmp[--n];
}

/* "0x" + hex, as objdump prints immediates it shows in hex. */
static void put_0x(struct line *l, uint64_t v)
{
	put(l, "0x");
	put_hex(l, v);
}

/* Signed decimal, as objdump prints most immediates. */
static void put_dec(struct line *l, int64_t v)
{
	char tmp[20];
	int n = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	if (v < 0)
		*l->p++ = '-';
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n)
		*l->p++ = tmp[--n];
}

/* Mnemonic and the tab objdump puts before operands. */
static inline void op(struct line *l, const char *m)
{
	put(l, m);
	putc_(l, '\t');
}

/* Integer register by ABI name. */
static inline void x(struct line *l, unsigned r)
{
	put(l, xname[r & 31]);
}

/* Floating-point register by ABI name. */
static inline void f(struct line *l, unsigned r)
{
	put(l, fname[r & 31]);
}

/* Operand separator (objdump puts no space after it). */
static inline void comma(struct line *l)
{
	putc_(l, ',');
}

/* "imm(base)" memory operand. */
static void mem(struct line *l, int64_t imm, unsigned base)
{
	put_dec(l, imm);
	putc_(l, '(');
	x(l, base);
	putc_(l, ')');
}

/* CSR names as objdump 2.40 prints them with its default privileged spec
 * (1.12); numbered families are in `ranges`. Sorted by number. */
static const struct csr_ent {
	uint16_t num;      /* CSR address */
	const char *name;  /* objdump's name for it */
} csr_tab[] = {
		{0x001, "fflags"}, {0x002, "frm"}, {0x003, "fcsr"},
		{0x008, "vstart"}, {0x009, "vxsat"}, {0x00a, "vxrm"},
		{0x00f, "vcsr"}, {0x015, "seed"}, {0x100, "sstatus"},
		{0x104, "sie"}, {0x105, "stvec"}, {0x106, "scounteren"},
		{0x10a, "senvcfg"}, {0x10c, "sstateen0"}, {0x10d, "sstateen1"},
		{0x10e, "sstateen2"}, {0x10f, "sstateen3"}, {0x114, "sieh"},
		{0x140, "sscratch"}, {0x141, "sepc"}, {0x142, "scause"},
		{0x143, "stval"}, {0x144, "sip"}, {0x14d, "stimecmp"},
		{0x150, "siselect"}, {0x151, "sireg"}, {0x154, "siph"},
		{0x15c, "stopei"}, {0x15d, "stimecmph"}, {0x180, "satp"},
		{0x200, "vsstatus"}, {0x204, "vsie"}, {0x205, "vstvec"},
		{0x214, "vsieh"}, {0x240, "vsscratch"}, {0x241, "vsepc"},
		{0x242, "vscause"}, {0x243, "vstval"}, {0x244, "vsip"},
		{0x24d, "vstimecmp"}, {0x250, "vsiselect"}, {0x251, "vsireg"},
		{0x254, "vsiph"}, {0x25c, "vstopei"}, {0x25d, "vstimecmph"},
		{0x280, "vsatp"}, {0x300, "mstatus"}, {0x301, "misa"},
		{0x302, "medeleg"}, {0x303, "mideleg"}, {0x304, "mie"},
		{0x305, "mtvec"}, {0x306, "mcounteren"}, {0x308, "mvien"},
		{0x309, "mvip"}, {0x30a, "menvcfg"}, {0x30c, "mstateen0"},
		{0x30d, "mstateen1"}, {0x30e, "mstateen2"},
		{0x30f, "mstateen3"}, {0x310, "mstatush"}, {0x313, "midelegh"},
		{0x314, "mieh"}, {0x318, "mvienh"}, {0x319, "mviph"},
		{0x31a, "menvcfgh"}, {0x31c, "mstateen0h"},
		{0x31d, "mstateen1h"}, {0x31e, "mstateen2h"},
		{0x31f, "mstateen3h"}, {0x320, "mcountinhibit"},
		{0x340, "mscratch"}, {0x341, "mepc"}, {0x342, "mcause"},
		{0x343, "mtval"}, {0x344, "mip"}, {0x34a, "mtinst"},
		{0x34b, "mtval2"}, {0x350, "miselect"}, {0x351, "mireg"},
		{0x354, "miph"}, {0x35c, "mtopei"}, {0x5a8, "scontext"},
		{0x600, "hstatus"}, {0x602, "hedeleg"}, {0x603, "hideleg"},
		{0x604, "hie"}, {0x605, "htimedelta"}, {0x606, "hcounteren"},
		{0x607, "hgeie"}, {0x608, "hvien"}, {0x609, "hvictl"},
		{0x60a, "henvcfg"}, {0x60c, "hstateen0"}, {0x60d, "hstateen1"},
		{0x60e, "hstateen2"}, {0x60f, "hstateen3"},
		{0x613, "hidelegh"}, {0x615, "htimedeltah"}, {0x618, "hvienh"},
		{0x61a, "henvcfgh"}, {0x61c, "hstateen0h"},
		{0x61d, "hstateen1h"}, {0x61e, "hstateen2h"},
		{0x61f, "hstateen3h"}, {0x643, "htval"}, {0x644, "hip"},
		{0x645, "hvip"}, {0x646, "hviprio1"}, {0x647, "hviprio2"},
		{0x64a, "htinst"}, {0x655, "hviph"}, {0x656, "hviprio1h"},
		{0x657, "hviprio2h"}, {0x680, "hgatp"}, {0x6a8, "hcontext"},
		{0x747, "mseccfg"}, {0x757, "mseccfgh"}, {0x7a0, "tselect"},
		{0x7a1, "tdata1"}, {0x7a2, "tdata2"}, {0x7a3, "tdata3"},
		{0x7a4, "tinfo"}, {0x7a5, "tcontrol"}, {0x7a8, "mcontext"},
		{0x7aa, "mscontext"}, {0x7b0, "dcsr"}, {0x7b1, "dpc"},
		{0x7b2, "dscratch0"}, {0x7b3, "dscratch1"}, {0xb00, "mcycle"},
		{0xb02, "minstret"}, {0xb80, "mcycleh"}, {0xb82, "minstreth"},
		{0xc00, "cycle"}, {0xc01, "time"}, {0xc02, "instret"},
		{0xc20, "vl"}, {0xc21, "vtype"}, {0xc22, "vlenb"},
		{0xc80, "cycleh"}, {0xc81, "timeh"}, {0xc82, "instreth"},
		{0xda0, "scountovf"}, {0xdb0, "stopi"}, {0xe12, "hgeip"},
		{0xeb0, "vstopi"}, {0xf11, "mvendorid"}, {0xf12, "marchid"},
		{0xf13, "mimpid"}, {0xf14, "mhartid"}, {0xf15, "mconfigptr"},
		{0xfb0, "mtopi"},
};

/* Families "stem<k>[h]" at base + (k - first) for k in first..last. */
static const struct csr_range {
	uint16_t base;     /* CSR address of index `first` */
	uint8_t first;     /* first index */
	uint8_t last;      /* last index */
	uint8_t high;      /* 1: RV32 upper half, name ends in 'h' */
	const char *stem;  /* name before the index */
} csr_ranges[] = {
	{0x323, 3, 31, 0, "mhpmevent"}, {0x3a0, 0, 15, 0, "pmpcfg"},
	{0x3b0, 0, 63, 0, "pmpaddr"}, {0x723, 3, 31, 1, "mhpmevent"},
	{0xb03, 3, 31, 0, "mhpmcounter"}, {0xb83, 3, 31, 1, "mhpmcounter"},
	{0xc03, 3, 31, 0, "hpmcounter"}, {0xc83, 3, 31, 1, "hpmcounter"},
};

/* Returns the name of CSR `c`, built in `tmp` for numbered families, or
 * NULL if objdump has none (it then prints the number). */
static const char *csr_name(unsigned c, char *tmp)
{
	size_t lo = 0, hi = sizeof(csr_tab) / sizeof(csr_tab[0]), i;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (csr_tab[mid].num == c)
			return csr_tab[mid].name;
		if (csr_tab[mid].num < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = 0; i < sizeof(csr_ranges) / sizeof(csr_ranges[0]); i++) {
		const struct csr_range *g = &csr_ranges[i];
		unsigned k = c - g->base + g->first;
		const char *s = g->stem;
		char *p = tmp;

		if (c < g->base || k > g->last)
			continue;
		while (*s)
			*p++ = *s++;
		if (k >= 10)
			*p++ = (char)('0' + k / 10);
		*p++ = (char)('0' + k % 10);
		if (g->high)
			*p++ = 'h';
		*p = 0;
		return tmp;
	}
	return NULL;
}

/* CSR operand: its name, or its number in hex. */
static void csr(struct line *l, unsigned c)
{
	char tmp[24];
	const char *n = csr_name(c, tmp);

	if (n)
		put(l, n);
	else
		put_0x(l, c);
}

/* ",rm" unless dynamic, as objdump omits the default. */
static void rm(struct line *l, unsigned m)
{
	if (m != 7) {
		comma(l);
		put(l, rmname[m]);
	}
}

/* Renders a 16-bit encoding. Returns 0 if it is not one we know. */
static int render16(struct line *l, const struct lt_insn *in, int xlen)
{
	uint32_t r = in->raw & 0xffff;
	unsigned rd = bits(r, 11, 7), rs2 = bits(r, 6, 2);
	unsigned rdp = 8 + bits(r, 4, 2), rs1p = 8 + bits(r, 9, 7);
	int64_t ci = sext(bits(r, 12, 12) << 5 | rs2, 6);
	unsigned sh = bits(r, 12, 12) << 5 | rs2;
	/* c.lw/c.sw offset, c.ld/c.sd/c.fld/c.fsd offset */
	unsigned ow = bits(r, 12, 10) << 3 | bits(r, 6, 6) << 2 |
		      bits(r, 5, 5) << 6;
	unsigned od = bits(r, 12, 10) << 3 | bits(r, 6, 5) << 6;

	if (r == 0) {
		put(l, "c.unimp"); /* the defined illegal instruction */
		return 1;
	}
	if (in->cls == LT_INSN_INVALID)
		return 0;
	switch ((r & 3) << 3 | r >> 13) {
	case 000:
		op(l, "c.addi4spn");
		x(l, rdp);
		put(l, ",sp,");
		put_dec(l, bits(r, 12, 11) << 4 | bits(r, 10, 7) << 6 |
				   bits(r, 6, 6) << 2 | bits(r, 5, 5) << 3);
		return 1;
	case 001: op(l, "c.fld"); f(l, rdp); comma(l); mem(l, od, rs1p); return 1;
	case 002: op(l, "c.lw"); x(l, rdp); comma(l); mem(l, ow, rs1p); return 1;
	case 003:
		if (xlen == 32) {
			op(l, "c.flw"); f(l, rdp); comma(l); mem(l, ow, rs1p);
		} else {
			op(l, "c.ld"); x(l, rdp); comma(l); mem(l, od, rs1p);
		}
		return 1;
	case 005: op(l, "c.fsd"); f(l, rdp); comma(l); mem(l, od, rs1p); return 1;
	case 006: op(l, "c.sw"); x(l, rdp); comma(l); mem(l, ow, rs1p); return 1;
	case 007:
		if (xlen == 32) {
			op(l, "c.fsw"); f(l, rdp); comma(l); mem(l, ow, rs1p);
		} else {
			op(l, "c.sd"); x(l, rdp); comma(l); mem(l, od, rs1p);
		}
		return 1;
	case 010: op(l, "c.addi"); x(l, rd); comma(l); put_dec(l, ci); return 1;
	case 011:
		if (xlen == 32) {
			op(l, "c.jal");
			put_hex(l, in->target);
		} else {
			op(l, "c.addiw"); x(l, rd); comma(l); put_dec(l, ci);
		}
		return 1;
	case 012: op(l, "c.li"); x(l, rd); comma(l); put_dec(l, ci); return 1;
	case 013:
		if (rd == 2) {
			op(l, "c.addi16sp");
			put(l, "sp,");
			put_dec(l, sext(bits(r, 12, 12) << 9 | bits(r, 6, 6) << 4 |
						bits(r, 5, 5) << 6 | bits(r, 4, 3) << 7 |
						bits(r, 2, 2) << 5, 10));
		} else {
			op(l, "c.lui"); x(l, rd); comma(l);
			put_0x(l, (uint64_t)ci & 0xfffff);
		}
		return 1;
	case 014:
		switch (bits(r, 11, 10)) {
		case 0: case 1:
			if (sh == 0) {
				op(l, bits(r, 10, 10) ? "c.srai64" : "c.srli64");
				x(l, rs1p);
				return 1;
			}
			op(l, bits(r, 10, 10) ? "c.srai" : "c.srli");
			x(l, rs1p); comma(l); put_0x(l, sh);
			return 1;
		case 2:
			op(l, "c.andi"); x(l, rs1p); comma(l); put_dec(l, ci);
			return 1;
		}
		{
			static const char *const m[8] = {
				"c.sub", "c.xor", "c.or", "c.and",
				"c.subw", "c.addw", NULL, NULL,
			};
			op(l, m[bits(r, 12, 12) << 2 | bits(r, 6, 5)]);
			x(l, rs1p); comma(l); x(l, 8 + bits(r, 4, 2));
		}
		return 1;
	case 015: op(l, "c.j"); put_hex(l, in->target); return 1;
	case 016: case 017:
		op(l, (r >> 13) == 6 ? "c.beqz" : "c.bnez");
		x(l, rs1p); comma(l); put_hex(l, in->target);
		return 1;
	case 020:
		if (sh == 0) {
			op(l, "c.slli64"); x(l, rd);
			return 1;
		}
		op(l, "c.slli"); x(l, rd); comma(l); put_0x(l, sh);
		return 1;
	case 021: case 022: case 023: {
		unsigned w = bits(r, 12, 12) << 5 | bits(r, 6, 4) << 2 |
			     bits(r, 3, 2) << 6;
		unsigned d = bits(r, 12, 12) << 5 | bits(r, 6, 5) << 3 |
			     bits(r, 4, 2) << 6;
		unsigned k = r >> 13;

		if (k == 1) {
			op(l, "c.fldsp"); f(l, rd); comma(l); mem(l, d, 2);
		} else if (k == 2) {
			op(l, "c.lwsp"); x(l, rd); comma(l); mem(l, w, 2);
		} else if (xlen == 32) {
			op(l, "c.flwsp"); f(l, rd); comma(l); mem(l, w, 2);
		} else {
			op(l, "c.ldsp"); x(l, rd); comma(l); mem(l, d, 2);
		}
		return 1;
	}
	case 024:
		if (!bits(r, 12, 12)) {
			if (rs2 == 0) {
				op(l, "c.jr"); x(l, rd);
			} else {
				op(l, "c.mv"); x(l, rd); comma(l); x(l, rs2);
			}
		} else if (rs2 == 0) {
			if (rd == 0) {
				put(l, "c.ebreak");
			} else {
				op(l, "c.jalr"); x(l, rd);
			}
		} else {
			op(l, "c.add"); x(l, rd); comma(l); x(l, rs2);
		}
		return 1;
	case 025: case 026: case 027: {
		unsigned w = bits(r, 12, 9) << 2 | bits(r, 8, 7) << 6;
		unsigned d = bits(r, 12, 10) << 3 | bits(r, 9, 7) << 6;
		unsigned k = r >> 13;

		if (k == 5) {
			op(l, "c.fsdsp"); f(l, rs2); comma(l); mem(l, d, 2);
		} else if (k == 6) {
			op(l, "c.swsp"); x(l, rs2); comma(l); mem(l, w, 2);
		} else if (xlen == 32) {
			op(l, "c.fswsp"); f(l, rs2); comma(l); mem(l, w, 2);
		} else {
			op(l, "c.sdsp"); x(l, rs2); comma(l); mem(l, d, 2);
		}
		return 1;
	}
	}
	return 0;
}

/* rd,rs1,rs2 with the register files picked by the caller. */
static void r3(struct line *l, const char *m, unsigned a, unsigned b,
	       unsigned c, int fa, int fb, int fc)
{
	op(l, m);
	if (fa) f(l, a); else x(l, a);
	comma(l);
	if (fb) f(l, b); else x(l, b);
	comma(l);
	if (fc) f(l, c); else x(l, c);
}

/* rd,rs1 with the register files picked by the caller. */
static void r2(struct line *l, const char *m, unsigned a, unsigned b, int fa,
	       int fb)
{
	op(l, m);
	if (fa) f(l, a); else x(l, a);
	comma(l);
	if (fb) f(l, b); else x(l, b);
}

/* OP-FP (0x53). Returns 0 for encodings objdump would not name. */
static int render_fp(struct line *l, uint32_t r, int xlen)
{
	unsigned rd = bits(r, 11, 7), rs1 = bits(r, 19, 15);
	unsigned rs2 = bits(r, 24, 20), m = bits(r, 14, 12);
	unsigned f7 = r >> 25, fmt = f7 & 3;
	int dbl = fmt == 1;
	static const char *const arith[2][4] = {
		{"fadd.s", "fsub.s", "fmul.s", "fdiv.s"},
		{"fadd.d", "fsub.d", "fmul.d", "fdiv.d"},
	};

	if (fmt > 1)
		return 0; /* Q and H are not in RV64GC */
	switch (f7 >> 2) {
	case 0: case 1: case 2: case 3:
		r3(l, arith[dbl][f7 >> 2], rd, rs1, rs2, 1, 1, 1);
		rm(l, m);
		return 1;
	case 0x0b: /* fsqrt */
		if (rs2 != 0)
			return 0;
		r2(l, dbl ? "fsqrt.d" : "fsqrt.s", rd, rs1, 1, 1);
		rm(l, m);
		return 1;
	case 0x04: {
		static const char *const s[2][3] = {
			{"fsgnj.s", "fsgnjn.s", "fsgnjx.s"},
			{"fsgnj.d", "fsgnjn.d", "fsgnjx.d"},
		};
		if (m > 2)
			return 0;
		r3(l, s[dbl][m], rd, rs1, rs2, 1, 1, 1);
		return 1;
	}
	case 0x05:
		if (m > 1)
			return 0;
		r3(l, m ? (dbl ? "fmax.d" : "fmax.s") : (dbl ? "fmin.d" : "fmin.s"),
		   rd, rs1, rs2, 1, 1, 1);
		return 1;
	case 0x08: /* fcvt.s.d (fmt 0, rs2 1), fcvt.d.s (fmt 1, rs2 0) */
		if (rs2 != (unsigned)!dbl || (dbl && m != 0))
			return 0; /* float -> double is exact: rm = 0, unprinted */
		r2(l, dbl ? "fcvt.d.s" : "fcvt.s.d", rd, rs1, 1, 1);
		if (!dbl)
			rm(l, m);
		return 1;
	case 0x14: {
		static const char *const c[2][3] = {
			{"fle.s", "flt.s", "feq.s"},
			{"fle.d", "flt.d", "feq.d"},
		};
		if (m > 2)
			return 0;
		r3(l, c[dbl][m], rd, rs1, rs2, 0, 1, 1);
		return 1;
	}
	case 0x18: case 0x1a: { /* fcvt.{w,wu,l,lu}.fmt, fcvt.fmt.{...} */
		static const char *const toint[2][4] = {
			{"fcvt.w.s", "fcvt.wu.s", "fcvt.l.s", "fcvt.lu.s"},
			{"fcvt.w.d", "fcvt.wu.d", "fcvt.l.d", "fcvt.lu.d"},
		};
		static const char *const fromint[2][4] = {
			{"fcvt.s.w", "fcvt.s.wu", "fcvt.s.l", "fcvt.s.lu"},
			{"fcvt.d.w", "fcvt.d.wu", "fcvt.d.l", "fcvt.d.lu"},
		};
		int to = (f7 >> 2) == 0x18;

		if (rs2 > 3 || (rs2 > 1 && xlen == 32))
			return 0;
		if (to) {
			r2(l, toint[dbl][rs2], rd, rs1, 0, 1);
		} else if (dbl && rs2 < 2) {
			/* int32 -> double is exact: objdump wants rm = 0 */
			if (m != 0)
				return 0;
			r2(l, fromint[dbl][rs2], rd, rs1, 1, 0);
			return 1;
		} else {
			r2(l, fromint[dbl][rs2], rd, rs1, 1, 0);
		}
		rm(l, m);
		return 1;
	}
	case 0x1c: /* fmv.x.w / fmv.x.d (m 0), fclass (m 1) */
		if (rs2 != 0 || m > 1 || (dbl && m == 0 && xlen == 32))
			return 0;
		r2(l, m ? (dbl ? "fclass.d" : "fclass.s") :
			  (dbl ? "fmv.x.d" : "fmv.x.w"), rd, rs1, 0, 1);
		return 1;
	case 0x1e:
		if (rs2 != 0 || m != 0 || (dbl && xlen == 32))
			return 0;
		r2(l, dbl ? "fmv.d.x" : "fmv.w.x", rd, rs1, 1, 0);
		return 1;
	}
	return 0;
}

/* AMO (0x2f): lr/sc/amo*.{w,d}{,.aq,.rl,.aqrl}. */
static int render_amo(struct line *l, uint32_t r, int xlen)
{
	static const char *const names[32] = {
		[0x00] = "amoadd", [0x01] = "amoswap", [0x02] = "lr",
		[0x03] = "sc", [0x04] = "amoxor", [0x08] = "amoor",
		[0x0c] = "amoand", [0x10] = "amomin", [0x14] = "amomax",
		[0x18] = "amominu", [0x1c] = "amomaxu",
	};
	static const char *const ord[4] = {"", ".rl", ".aq", ".aqrl"};
	unsigned f5 = r >> 27, w = bits(r, 14, 12);
	unsigned rs2 = bits(r, 24, 20);
	char m[24], *p = m;
	const char *s;

	if (!names[f5] || (w != 2 && w != 3) || (w == 3 && xlen == 32) ||
	    (f5 == 2 && rs2 != 0))
		return 0;
	for (s = names[f5]; *s;)
		*p++ = *s++;
	for (s = w == 2 ? ".w" : ".d"; *s;)
		*p++ = *s++;
	for (s = ord[bits(r, 26, 25)]; *s;)
		*p++ = *s++;
	*p = 0;
	op(l, m);
	x(l, bits(r, 11, 7));
	comma(l);
	if (f5 != 2) {
		x(l, rs2);
		comma(l);
	}
	putc_(l, '(');
	x(l, bits(r, 19, 15));
	putc_(l, ')');
	return 1;
}

/* SYSTEM (0x73). */
static int render_sys(struct line *l, uint32_t r)
{
	static const char *const cs[8] = {
		NULL, "csrrw", "csrrs", "csrrc", NULL, "csrrwi", "csrrsi", "csrrci",
	};
	unsigned m = bits(r, 14, 12);

	if (m == 0) {
		switch (r) {
		case 0x00000073: put(l, "ecall"); return 1;
		case 0x00100073: put(l, "ebreak"); return 1;
		case 0x00200073: put(l, "uret"); return 1;
		case 0x10200073: put(l, "sret"); return 1;
		case 0x20200073: put(l, "hret"); return 1;
		case 0x30200073: put(l, "mret"); return 1;
		case 0x7b200073: put(l, "dret"); return 1;
		case 0x10500073: put(l, "wfi"); return 1;
		}
		if ((r & 0xfff07fff) == 0x10400073) { /* priv 1.9.1 */
			if (bits(r, 19, 15)) {
				op(l, "sfence.vm");
				x(l, bits(r, 19, 15));
			} else {
				put(l, "sfence.vm");
			}
			return 1;
		}
		if ((r & 0xfe007fff) == 0x12000073) {
			op(l, "sfence.vma");
			x(l, bits(r, 19, 15));
			comma(l);
			x(l, bits(r, 24, 20));
			return 1;
		}
		return 0;
	}
	if (!cs[m])
		return 0;
	op(l, cs[m]);
	x(l, bits(r, 11, 7));
	comma(l);
	csr(l, r >> 20);
	comma(l);
	if (m & 4)
		put_dec(l, bits(r, 19, 15));
	else
		x(l, bits(r, 19, 15));
	return 1;
}

/* Renders a 32-bit encoding. Returns 0 if it is not one we know. */
static int render32(struct line *l, const struct lt_insn *in, int xlen)
{
	uint32_t r = in->raw;
	unsigned rd = bits(r, 11, 7), rs1 = bits(r, 19, 15);
	unsigned rs2 = bits(r, 24, 20), f3 = bits(r, 14, 12), f7 = r >> 25;
	int64_t ii = sext(r >> 20, 12);
	int64_t si = sext(f7 << 5 | rd, 12);
	int rv64 = xlen == 64;

	if (in->cls == LT_INSN_INVALID)
		return 0;
	switch (r & 0x7f) {
	case 0x37: case 0x17:
		op(l, (r & 0x7f) == 0x37 ? "lui" : "auipc");
		x(l, rd);
		comma(l);
		put_0x(l, r >> 12);
		return 1;
	case 0x6f:
		op(l, "jal");
		x(l, rd);
		comma(l);
		put_hex(l, in->target);
		return 1;
	case 0x67:
		op(l, "jalr");
		x(l, rd);
		comma(l);
		mem(l, ii, rs1);
		return 1;
	case 0x63: {
		static const char *const b[8] = {
			"beq", "bne", NULL, NULL, "blt", "bge", "bltu", "bgeu",
		};
		op(l, b[f3]);
		x(l, rs1);
		comma(l);
		x(l, rs2);
		comma(l);
		put_hex(l, in->target);
		return 1;
	}
	case 0x03: {
		static const char *const ld[8] = {
			"lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", NULL,
		};
		if (!ld[f3] || (!rv64 && (f3 == 3 || f3 == 6)))
			return 0;
		op(l, ld[f3]);
		x(l, rd);
		comma(l);
		mem(l, ii, rs1);
		return 1;
	}
	case 0x23: {
		static const char *const st[4] = {"sb", "sh", "sw", "sd"};
		if (f3 > 3 || (!rv64 && f3 == 3))
			return 0;
		op(l, st[f3]);
		x(l, rs2);
		comma(l);
		mem(l, si, rs1);
		return 1;
	}
	case 0x07: case 0x27:
		if (f3 != 2 && f3 != 3)
			return 0;
		if ((r & 0x7f) == 0x07) {
			op(l, f3 == 2 ? "flw" : "fld");
			f(l, rd);
			comma(l);
			mem(l, ii, rs1);
		} else {
			op(l, f3 == 2 ? "fsw" : "fsd");
			f(l, rs2);
			comma(l);
			mem(l, si, rs1);
		}
		return 1;
	case 0x13: {
		static const char *const im[8] = {
			"addi", "slli", "slti", "sltiu", "xori", "srli", "ori", "andi",
		};
		const char *m = im[f3];
		unsigned sh = bits(r, 25, 20);

		if (f3 == 1 || f3 == 5) {
			/* objdump accepts a 6-bit shamt on RV32 as well */
			if (f3 == 5 && f7 >> 1 == 0x10)
				m = "srai";
			else if (f7 >> 1 != 0)
				return 0;
			op(l, m);
			x(l, rd);
			comma(l);
			x(l, rs1);
			comma(l);
			put_0x(l, sh);
			return 1;
		}
		op(l, m);
		x(l, rd);
		comma(l);
		x(l, rs1);
		comma(l);
		put_dec(l, ii);
		return 1;
	}
	case 0x1b:
		if (!rv64)
			return 0;
		if (f3 == 0) {
			op(l, "addiw");
			x(l, rd);
			comma(l);
			x(l, rs1);
			comma(l);
			put_dec(l, ii);
			return 1;
		}
		if (f3 == 1 && f7 == 0)
			op(l, "slliw");
		else if (f3 == 5 && f7 == 0)
			op(l, "srliw");
		else if (f3 == 5 && f7 == 0x20)
			op(l, "sraiw");
		else
			return 0;
		x(l, rd);
		comma(l);
		x(l, rs1);
		comma(l);
		put_0x(l, rs2);
		return 1;
	case 0x33: {
		static const char *const base[8] = {
			"add", "sll", "slt", "sltu", "xor", "srl", "or", "and",
		};
		static const char *const mul[8] = {
			"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
		};
		const char *m;

		if (f7 == 0)
			m = base[f3];
		else if (f7 == 1)
			m = mul[f3];
		else if (f7 == 0x20 && f3 == 0)
			m = "sub";
		else if (f7 == 0x20 && f3 == 5)
			m = "sra";
		else
			return 0;
		r3(l, m, rd, rs1, rs2, 0, 0, 0);
		return 1;
	}
	case 0x3b: {
		const char *m = NULL;

		if (!rv64)
			return 0;
		if (f7 == 0)
			m = f3 == 0 ? "addw" : f3 == 1 ? "sllw" : f3 == 5 ? "srlw" : NULL;
		else if (f7 == 0x20)
			m = f3 == 0 ? "subw" : f3 == 5 ? "sraw" : NULL;
		else if (f7 == 1)
			m = f3 == 0 ? "mulw" : f3 == 4 ? "divw" : f3 == 5 ? "divuw" :
			    f3 == 6 ? "remw" : f3 == 7 ? "remuw" : NULL;
		if (!m)
			return 0;
		r3(l, m, rd, rs1, rs2, 0, 0, 0);
		return 1;
	}
	case 0x0f:
		if (r == 0x0000100f) {
			put(l, "fence.i");
			return 1;
		}
		if (r == 0x8330000f) {
			put(l, "fence.tso");
			return 1;
		}
		if ((r & 0xf00fff80) != 0)
			return 0; /* fm, rs1, funct3, rd must be zero */
		op(l, "fence");
		put(l, iorw[bits(r, 27, 24)]);
		comma(l);
		put(l, iorw[bits(r, 23, 20)]);
		return 1;
	case 0x2f:
		return render_amo(l, r, xlen);
	case 0x53:
		return render_fp(l, r, xlen);
	case 0x43: case 0x47: case 0x4b: case 0x4f: {
		static const char *const fm[2][4] = {
			{"fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s"},
			{"fmadd.d", "fmsub.d", "fnmsub.d", "fnmadd.d"},
		};
		unsigned fmt = bits(r, 26, 25);

		if (fmt > 1)
			return 0;
		r3(l, fm[fmt][bits(r, 3, 2)], rd, rs1, rs2, 1, 1, 1);
		comma(l);
		f(l, r >> 27);
		rm(l, f3);
		return 1;
	}
	case 0x73:
		return render_sys(l, r);
	}
	return 0;
}

/* Contract in ltpipe/insn.h. */
size_t lt_insn_render(const struct lt_insn *in, int xlen, char *buf,
		      size_t size)
{
	struct line l;
	size_t n;
	int ok;

	l.p = l.buf;
	if (in->len == 2)
		ok = render16(&l, in, xlen);
	else if (in->len == 4)
		ok = render32(&l, in, xlen);
	else
		ok = 0;
	if (!ok) {
		l.p = l.buf;
		put(&l, in->len == 2 || in->len > 4 ? ".2byte\t" : ".4byte\t");
		put_0x(&l, in->len == 4 ? in->raw : (in->raw & 0xffff));
	}
	n = (size_t)(l.p - l.buf);
	if (size == 0)
		return 0;
	if (n >= size)
		n = size - 1;
	memcpy(buf, l.buf, n);
	buf[n] = 0;
	return n;
}
