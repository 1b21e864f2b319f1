/* DWARF line programs decoded directly from .debug_line (rows for the
 * line map of dwarf_lines.c), and the header check of the DWARF 5 list
 * sections. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>

#include "dwarf_build.h"
#include "ltpipe/error.h"

/* ---- one unit's rows -------------------------------------------------- */

/* The rows are decoded here rather than read through libdwarf: libdwarf
 * 20210528 starts the DWARF 5 file register at 0 instead of 1 (DWARF 5
 * section 6.2.2), so rows before the first DW_LNS_set_file name the wrong
 * file (gcc 12 relies on the default when a unit's first code comes from
 * an included header). libdwarf still supplies the file names. */

/* A cursor over .debug_line bytes; `bad` is set on any overrun. */
struct lp_cur {
	const uint8_t *p;   /* next byte */
	const uint8_t *end; /* end of the current unit */
	int bad;            /* 1 once a read went past end */
};

/* Reads n (<= 8) little-endian bytes. */
static uint64_t lp_fixed(struct lp_cur *c, unsigned n)
{
	uint64_t v = 0;
	if ((size_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

/* Reads an unsigned LEB128 (bits past 64 are dropped). */
static uint64_t lp_uleb(struct lp_cur *c)
{
	uint64_t v = 0;
	unsigned shift = 0;
	while (c->p < c->end) {
		uint8_t byte = *c->p++;
		if (shift < 64)
			v |= (uint64_t)(byte & 0x7f) << shift;
		shift += 7;
		if (!(byte & 0x80))
			return v;
	}
	c->bad = 1;
	return v;
}

/* Reads a signed LEB128. */
static int64_t lp_sleb(struct lp_cur *c)
{
	uint64_t v = 0;
	unsigned shift = 0;
	while (c->p < c->end) {
		uint8_t byte = *c->p++;
		if (shift < 64)
			v |= (uint64_t)(byte & 0x7f) << shift;
		shift += 7;
		if (!(byte & 0x80)) {
			if (shift < 64 && (byte & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	c->bad = 1;
	return (int64_t)v;
}

/* Line-program header fields the state machine needs. */
struct lp_hdr {
	unsigned version;      /* 2..5 */
	uint8_t min_inst;      /* minimum_instruction_length */
	uint8_t max_ops;       /* maximum_operations_per_instruction */
	uint8_t def_stmt;      /* default_is_stmt */
	int8_t line_base;      /* line_base */
	uint8_t line_range;    /* line_range (non-zero) */
	uint8_t opcode_base;   /* opcode_base */
	const uint8_t *oplen;  /* standard_opcode_lengths[opcode_base - 1] */
};

/* State-machine registers (DWARF 5 section 6.2.2). */
struct lp_regs {
	uint64_t addr;      /* address */
	uint64_t op_index;  /* op_index (VLIW) */
	uint64_t file;      /* file */
	int64_t line;       /* line */
	uint64_t column;    /* column */
	uint64_t discr;     /* discriminator */
	int is_stmt;        /* is_stmt */
	int prologue_end;   /* prologue_end */
	int epilogue_begin; /* epilogue_begin */
};

/* Resets the registers to their initial values. */
static void lp_reset(struct lp_regs *r, const struct lp_hdr *h)
{
	memset(r, 0, sizeof(*r));
	r->file = 1;
	r->line = 1;
	r->is_stmt = h->def_stmt != 0;
}

/* Appends a row from the registers. Returns 0 or LT_ERR_NOMEM. */
static int lp_emit(struct lt_dwarf_build *b, const struct lp_regs *r,
                   int end_seq)
{
	struct lt_dwarf *d = b->d;
	if (d->nrows == b->row_cap) {
		size_t cap = b->row_cap ? b->row_cap * 2 : 4096;
		struct lt_line_row *n = realloc(d->row, cap * sizeof(*n));
		if (!n)
			return LT_ERR_NOMEM;
		d->row = n;
		b->row_cap = cap;
	}
	struct lt_line_row *w = &d->row[d->nrows++];
	w->addr = r->addr;
	w->file = lt_dwarf_unit_file(b, r->file);
	w->line = r->line < 0 || r->line > UINT32_MAX ? 0 : (uint32_t)r->line;
	w->column = r->column > UINT32_MAX ? 0 : (uint32_t)r->column;
	w->discriminator = r->discr > UINT32_MAX ? 0 : (uint32_t)r->discr;
	w->is_stmt = (uint8_t)r->is_stmt;
	w->end_seq = (uint8_t)end_seq;
	w->prologue_end = (uint8_t)r->prologue_end;
	w->epilogue_begin = (uint8_t)r->epilogue_begin;
	w->unit = (uint32_t)d->nunits;
	return 0;
}

/* Advances address/op_index by `adv` operations. */
static void lp_advance(struct lp_regs *r, const struct lp_hdr *h,
                       uint64_t adv)
{
	if (h->max_ops <= 1) {
		r->addr += h->min_inst * adv;
		return;
	}
	r->addr += h->min_inst * ((r->op_index + adv) / h->max_ops);
	r->op_index = (r->op_index + adv) % h->max_ops;
}

/* Parses the header of the line program at off in sec[0..size) into h
 * and c (positioned at the first opcode). Returns 0 or -1. */
static int lp_header(const uint8_t *sec, size_t size, uint64_t off,
                     struct lp_hdr *h, struct lp_cur *c)
{
	if (off >= size || size - off < 4)
		return -1;
	c->p = sec + off;
	c->end = sec + size;
	c->bad = 0;
	unsigned offsz = 4;
	uint64_t len = lp_fixed(c, 4);
	if (len == 0xffffffffu) {
		offsz = 8;
		len = lp_fixed(c, 8);
	}
	if (c->bad || len > (uint64_t)(c->end - c->p))
		return -1;
	c->end = c->p + len;
	h->version = (unsigned)lp_fixed(c, 2);
	if (h->version < 2 || h->version > 5)
		return -1;
	if (h->version >= 5)
		lp_fixed(c, 2); /* address_size, segment_selector_size */
	uint64_t hlen = lp_fixed(c, offsz);
	if (c->bad || hlen > (uint64_t)(c->end - c->p))
		return -1;
	const uint8_t *prog = c->p + hlen;
	h->min_inst = (uint8_t)lp_fixed(c, 1);
	h->max_ops = h->version >= 4 ? (uint8_t)lp_fixed(c, 1) : 1;
	h->def_stmt = (uint8_t)lp_fixed(c, 1);
	h->line_base = (int8_t)lp_fixed(c, 1);
	h->line_range = (uint8_t)lp_fixed(c, 1);
	h->opcode_base = (uint8_t)lp_fixed(c, 1);
	h->oplen = c->p;
	if (c->bad || h->line_range == 0 || h->opcode_base == 0 ||
	    (size_t)(prog - c->p) < (size_t)(h->opcode_base - 1))
		return -1;
	c->p = prog;
	return 0;
}

/* Contract in dwarf_build.h. */
int lt_dwarf_unit_rows(struct lt_dwarf_build *b, uint64_t off)
{
	struct lp_hdr h;
	struct lp_cur c;
	struct lp_regs r;
	if (!b->line_sec) {
		snprintf(b->err, b->errlen, "%s: no .debug_line section",
		         b->name);
		return LT_ERR_BAD_ELF;
	}
	if (lp_header(b->line_sec, b->line_size, off, &h, &c)) {
		snprintf(b->err, b->errlen,
		         "%s: .debug_line offset 0x%llx: bad line program "
		         "header", b->name, (unsigned long long)off);
		return LT_ERR_BAD_ELF;
	}
	lp_reset(&r, &h);
	while (c.p < c.end && !c.bad) {
		uint8_t op = *c.p++;
		int emit = 0, end_seq = 0;
		if (op >= h.opcode_base) {
			unsigned adj = op - h.opcode_base;
			lp_advance(&r, &h, adj / h.line_range);
			r.line += h.line_base + (int)(adj % h.line_range);
			emit = 1;
		} else if (op == 0) {
			uint64_t len = lp_uleb(&c);
			if (len == 0 || len > (uint64_t)(c.end - c.p)) {
				c.bad = 1;
				break;
			}
			const uint8_t *next = c.p + len;
			uint8_t sub = *c.p++;
			if (sub == DW_LNE_end_sequence) {
				emit = end_seq = 1;
			} else if (sub == DW_LNE_set_address) {
				r.addr = lp_fixed(&c, (unsigned)(len - 1 > 8 ?
				                                 8 : len - 1));
				r.op_index = 0;
			} else if (sub == DW_LNE_set_discriminator) {
				r.discr = lp_uleb(&c);
			}
			c.p = next;
		} else {
			switch (op) {
			case DW_LNS_copy:
				emit = 1;
				break;
			case DW_LNS_advance_pc:
				lp_advance(&r, &h, lp_uleb(&c));
				break;
			case DW_LNS_advance_line:
				r.line += lp_sleb(&c);
				break;
			case DW_LNS_set_file:
				r.file = lp_uleb(&c);
				break;
			case DW_LNS_set_column:
				r.column = lp_uleb(&c);
				break;
			case DW_LNS_negate_stmt:
				r.is_stmt = !r.is_stmt;
				break;
			case DW_LNS_set_basic_block:
				break;
			case DW_LNS_const_add_pc:
				lp_advance(&r, &h,
				           (255u - h.opcode_base) / h.line_range);
				break;
			case DW_LNS_fixed_advance_pc:
				r.addr += lp_fixed(&c, 2);
				r.op_index = 0;
				break;
			case DW_LNS_set_prologue_end:
				r.prologue_end = 1;
				break;
			case DW_LNS_set_epilogue_begin:
				r.epilogue_begin = 1;
				break;
			case DW_LNS_set_isa:
				lp_uleb(&c);
				break;
			default:
				/* Unknown standard opcode: skip its operands. */
				for (unsigned k = 0; k < h.oplen[op - 1]; k++)
					lp_uleb(&c);
				break;
			}
		}
		if (!emit)
			continue;
		if (lp_emit(b, &r, end_seq))
			{
			snprintf(b->err, b->errlen,
			         "%s: out of memory reading DWARF", b->name);
			return LT_ERR_NOMEM;
		}
		if (end_seq) {
			lp_reset(&r, &h);
		} else {
			r.discr = 0;
			r.prologue_end = 0;
			r.epilogue_begin = 0;
		}
	}
	if (c.bad) {
		snprintf(b->err, b->errlen,
		         "%s: .debug_line offset 0x%llx: line program runs "
		         "past its end", b->name, (unsigned long long)off);
		return LT_ERR_BAD_ELF;
	}
	return 0;
}

/* Contract in dwarf_build.h. */
int lt_dwarf_list_headers_ok(const uint8_t *p, size_t size, size_t *bad_off)
{
	size_t off = 0;
	while (off < size) {
		struct lp_cur c = { p + off, p + size, 0 };
		uint64_t len = lp_fixed(&c, 4);
		unsigned offsz = 4;
		if (len == 0xffffffffu) {
			len = lp_fixed(&c, 8);
			offsz = 8;
		}
		size_t hdr = (size_t)(c.p - (p + off));
		uint64_t ver = lp_fixed(&c, 2);
		uint64_t asz = lp_fixed(&c, 1);
		uint64_t seg = lp_fixed(&c, 1);
		uint64_t cnt = lp_fixed(&c, 4);
		if (c.bad || len > size - off - hdr || len < 8 || ver != 5 ||
		    (asz != 4 && asz != 8) || seg != 0 ||
		    cnt > (len - 8) / offsz) {
			*bad_off = off;
			return -1;
		}
		off += hdr + (size_t)len;
	}
	return 0;
}

