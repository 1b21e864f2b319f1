/* insn_dump: prints lt_insn_decode/lt_insn_render results for every
 * instruction of a RISC-V ELF's executable sections (or of a raw file), one
 * line each, walking the bytes the way objdump -d does: linearly from each
 * section start, restarting at every symbol. tests/insn/compare_objdump.py
 * checks the output against objdump.
 *
 * usage: insn_dump ELF
 *        insn_dump --raw FILE XLEN      (bytes at address 0, like -b binary)
 * line:  addr<TAB>len<TAB>class<TAB>target-or-"-"<TAB>link<TAB>text */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpipe/error.h"
#include "ltpipe/insn.h"

static const char *const cls_name[] = {
	"other", "branch", "jump", "ijump", "tret", "trap", "invalid",
};

static const char *const link_name[] = {"none", "call", "ret", "coro"};

/* Decodes and prints every instruction in [lo, hi) of `bytes` (which maps
 * address `base`), walking linearly from `lo`. */
static void walk(const uint8_t *bytes, uint64_t base, uint64_t lo, uint64_t hi,
		 uint64_t end, int xlen, FILE *out)
{
	uint64_t pc = lo;
	char text[128];

	while (pc < hi) {
		struct lt_insn in;
		int rc = lt_insn_decode(bytes + (pc - base), end - pc, pc, xlen,
					&in);

		if (rc == LT_ERR_TRUNC)
			in.len = (uint8_t)(end - pc); /* tail of the section */
		lt_insn_render(&in, xlen, text, sizeof(text));
		fprintf(out, "%llx\t%u\t%s\t", (unsigned long long)pc, in.len,
			cls_name[in.cls]);
		if (in.cls == LT_INSN_BRANCH || in.cls == LT_INSN_JUMP)
			fprintf(out, "%llx", (unsigned long long)in.target);
		else
			fputc('-', out);
		fprintf(out, "\t%s\t%s\n", link_name[in.link], text);
		pc += in.len ? in.len : 2;
	}
}

/* A walk restart point: a symbol's address, and whether objdump -d skips
 * the bytes from there (a data object placed in an executable section). */
struct start {
	uint64_t addr; /* symbol value */
	int data;      /* 1: only STT_OBJECT symbols here, 0: code */
};

static int cmp_start(const void *a, const void *b)
{
	uint64_t x = ((const struct start *)a)->addr;
	uint64_t y = ((const struct start *)b)->addr;

	return x < y ? -1 : x > y;
}

/* Dumps one executable section, restarting the walk at each symbol and
 * skipping data objects, as objdump -d does. */
static int dump_section(Elf *e, Elf_Scn *scn, size_t idx, int xlen, FILE *out)
{
	GElf_Shdr sh;
	Elf_Data *d;
	Elf_Scn *s = NULL;
	struct start *starts;
	size_t n = 0, cap = 1024, i;

	if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
		return 0;
	d = elf_getdata(scn, NULL);
	if (!d || d->d_size < sh.sh_size)
		return -1;
	starts = malloc(cap * sizeof(*starts));
	if (!starts)
		return -1;
	starts[n].addr = sh.sh_addr;
	starts[n++].data = 0;
	while ((s = elf_nextscn(e, s)) != NULL) {
		GElf_Shdr ssh;
		Elf_Data *sd;
		size_t k, cnt;

		if (!gelf_getshdr(s, &ssh) || ssh.sh_type != SHT_SYMTAB)
			continue;
		sd = elf_getdata(s, NULL);
		cnt = ssh.sh_entsize ? ssh.sh_size / ssh.sh_entsize : 0;
		for (k = 1; sd && k < cnt; k++) {
			GElf_Sym sym;
			const char *nm;

			if (!gelf_getsym(sd, (int)k, &sym) || sym.st_shndx != idx)
				continue;
			if (GELF_ST_TYPE(sym.st_info) == STT_SECTION ||
			    GELF_ST_TYPE(sym.st_info) == STT_FILE)
				continue;
			nm = elf_strptr(e, ssh.sh_link, sym.st_name);
			if (!nm || !*nm)
				continue;
			if (sym.st_value < sh.sh_addr ||
			    sym.st_value >= sh.sh_addr + sh.sh_size)
				continue;
			if (n == cap) {
				struct start *t = realloc(starts, 2 * cap * sizeof(*t));

				if (!t) {
					free(starts);
					return -1;
				}
				starts = t;
				cap *= 2;
			}
			starts[n].addr = sym.st_value;
			starts[n++].data = GELF_ST_TYPE(sym.st_info) == STT_OBJECT;
		}
	}
	qsort(starts, n, sizeof(*starts), cmp_start);
	for (i = 0; i < n; i++) {
		uint64_t hi = sh.sh_addr + sh.sh_size;
		size_t j = i + 1;
		int data = starts[i].data;

		if (i > 0 && starts[i].addr == starts[i - 1].addr)
			continue;
		while (j < n && starts[j].addr == starts[i].addr)
			data &= starts[j++].data;
		if (j < n)
			hi = starts[j].addr;
		if (data)
			continue;
		walk(d->d_buf, sh.sh_addr, starts[i].addr, hi, sh.sh_addr + sh.sh_size,
		     xlen, out);
	}
	free(starts);
	return 0;
}

static int dump_elf(const char *path, FILE *out)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	int xlen, rc = 0;

	if (fd < 0) {
		perror(path);
		return 1;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || !gelf_getehdr(e, &eh) || eh.e_machine != EM_RISCV) {
		fprintf(stderr, "%s: not a RISC-V ELF\n", path);
		close(fd);
		return 1;
	}
	xlen = gelf_getclass(e) == ELFCLASS32 ? 32 : 64;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		if (dump_section(e, scn, elf_ndxscn(scn), xlen, out) < 0) {
			fprintf(stderr, "%s: cannot read section %zu\n", path,
				elf_ndxscn(scn));
			rc = 1;
		}
	}
	elf_end(e);
	close(fd);
	return rc;
}

static int dump_raw(const char *path, int xlen, FILE *out)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *b;
	long sz;

	if (!fp) {
		perror(path);
		return 1;
	}
	fseek(fp, 0, SEEK_END);
	sz = ftell(fp);
	rewind(fp);
	b = malloc(sz > 0 ? (size_t)sz : 1);
	if (!b || fread(b, 1, (size_t)sz, fp) != (size_t)sz) {
		fprintf(stderr, "%s: read failed\n", path);
		fclose(fp);
		free(b);
		return 1;
	}
	fclose(fp);
	walk(b, 0, 0, (uint64_t)sz, (uint64_t)sz, xlen, out);
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2)
		return dump_elf(argv[1], stdout);
	if (argc == 4 && strcmp(argv[1], "--raw") == 0)
		return dump_raw(argv[2], atoi(argv[3]), stdout);
	fprintf(stderr, "usage: %s ELF | --raw FILE XLEN\n", argv[0]);
	return 2;
}
