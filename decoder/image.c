/* Program image loading and per-halfword pre-decoding (see image.h). */
#include "ltpipe/image.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltpipe/error.h"
#include "image_tables.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

/* Reads the whole file into memory (images are small next to traces, and
 * keeping the bytes lets every table point into one buffer). */
static int read_file(const char *path, void **data, size_t *size, char *err,
                     size_t errlen)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot open ELF: %s", path,
		         strerror(errno));
		return LT_ERR_IO;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return LT_ERR_IO;
	}
	size_t n = (size_t)st.st_size;
	uint8_t *buf = malloc(n ? n : 1);
	if (!buf) {
		close(fd);
		return LT_ERR_NOMEM;
	}
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r <= 0) {
			snprintf(err, errlen, "%s: read error at offset %zu: %s",
			         path, got, r < 0 ? strerror(errno) : "short file");
			free(buf);
			close(fd);
			return LT_ERR_IO;
		}
		got += (size_t)r;
	}
	close(fd);
	*data = buf;
	*size = n;
	return 0;
}

static int is_terminator(uint8_t cls)
{
	return cls == LT_INSN_BRANCH || cls == LT_INSN_JUMP ||
	       cls == LT_INSN_IJUMP || cls == LT_INSN_TRET ||
	       cls == LT_INSN_INVALID;
}

/* Decodes every halfword of r and fills the step tables backwards, so that
 * each entry is one lookup into the entry that follows its instruction. */
int lt_region_build_tables(struct lt_region *r, int xlen)
{
	size_t nhw = (size_t)(r->end - r->base) / 2;
	r->hw = calloc(nhw + 1, sizeof(*r->hw));
	r->info = calloc(nhw + 1, sizeof(*r->info));
	if (!r->hw || !r->info)
		return LT_ERR_NOMEM;
	r->info[nhw].cls = LT_INSN_INVALID;
	r->info[nhw].len = 2;
	r->hw[nhw].cf = (uint32_t)nhw;
	r->hw[nhw].n = 0;
	r->hw[nhw].cls = LT_INSN_INVALID;
	r->hw[nhw].len = 2;
	size_t size = (size_t)(r->end - r->base);
	for (size_t i = nhw; i-- > 0;) {
		struct lt_insn in;
		int rc = lt_insn_decode(r->bytes + 2 * i, size - 2 * i,
		                        r->base + 2 * i, xlen, &in);
		struct lt_hwinfo *inf = &r->info[i];
		if (rc < 0) {
			inf->cls = LT_INSN_INVALID;
			inf->len = 2;
		} else {
			inf->cls = in.cls;
			inf->len = in.len;
			inf->link = in.link;
			if (in.cls == LT_INSN_BRANCH || in.cls == LT_INSN_JUMP)
				inf->tgt = (int32_t)in.imm;
		}
		if (is_terminator(inf->cls)) {
			r->hw[i].cf = (uint32_t)i;
			r->hw[i].n = 1;
		} else {
			size_t j = i + inf->len / 2;
			if (j > nhw)
				j = nhw;
			r->hw[i].cf = r->hw[j].cf;
			r->hw[i].n = r->hw[j].n + 1;
		}
		const struct lt_hwinfo *end = &r->info[r->hw[i].cf];
		r->hw[i].tgt = end->tgt;
		r->hw[i].cls = end->cls;
		r->hw[i].len = end->len;
		r->hw[i].link = end->link;
	}
	return 0;
}

static int cmp_region(const void *a, const void *b)
{
	const struct lt_region *x = a, *y = b;
	return x->base < y->base ? -1 : x->base > y->base;
}

static void read_build_id(struct lt_image *img, Elf *elf)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)d->d_buf + noff, "GNU", 4) == 0) {
				img->build_id = malloc(nh.n_descsz);
				if (img->build_id) {
					memcpy(img->build_id,
					       (char *)d->d_buf + doff, nh.n_descsz);
					img->build_id_len = nh.n_descsz;
				}
				return;
			}
		}
	}
}

/* The span of the executable PT_LOAD segments (the code as loaded). */
static void read_exec_span(struct lt_image *img, Elf *elf)
{
	size_t n = 0;
	if (elf_getphdrnum(elf, &n) != 0)
		return;
	img->exec_lo = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X))
			continue;
		if (ph.p_vaddr < img->exec_lo)
			img->exec_lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_filesz > img->exec_hi)
			img->exec_hi = ph.p_vaddr + ph.p_filesz;
	}
	if (img->exec_lo > img->exec_hi)
		img->exec_lo = img->exec_hi = 0;
}

int lt_image_ran_elsewhere(const struct lt_image *img, uint64_t start,
                           uint64_t end)
{
	for (size_t i = 0; end > start && i < img->nregions; i++)
		if (!img->regions[i].owned && (img->regions[i].base < start ||
		                               img->regions[i].end > end))
			return 1;
	return 0;
}

int lt_image_relocate(struct lt_image *img, uint64_t start, uint64_t end,
                      char *err, size_t errlen)
{
	img->bias = 0;
	if (start == img->exec_lo && end == img->exec_hi)
		return 0;
	uint64_t bias = start - img->exec_lo;
	if (!img->pie || img->exec_hi == img->exec_lo ||
	    end - start != img->exec_hi - img->exec_lo || (bias & 0xfff)) {
		snprintf(err, errlen, "%s ran with its code at 0x%" PRIx64
		         "-0x%" PRIx64 ", but its executable segments are "
		         "0x%" PRIx64 "-0x%" PRIx64 "%s", img->path, start, end,
		         img->exec_lo, img->exec_hi,
		         img->pie ? " (not the same code moved by whole pages: "
		                    "another program ran?)"
		                  : " and it is not position-independent: "
		                    "another program ran?");
		return LT_ERR_INVAL;
	}
	img->bias = bias;
	return 1;
}

static int load_sections(struct lt_image *img, Elf *elf, char *err,
                         size_t errlen)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
		snprintf(err, errlen, "%s: no section header string table",
		         img->path);
		return LT_ERR_BAD_ELF;
	}
	size_t cap = 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) ||
		    sh.sh_size < 2)
			continue;
		if (sh.sh_offset + sh.sh_size > img->elf_size) {
			snprintf(err, errlen,
			         "%s: section at file offset 0x%llx runs past the "
			         "end of the file",
			         img->path, (unsigned long long)sh.sh_offset);
			return LT_ERR_BAD_ELF;
		}
		if (sh.sh_size / 2 >= UINT32_MAX) {
			snprintf(err, errlen, "%s: executable section too large",
			         img->path);
			return LT_ERR_BAD_ELF;
		}
		if (img->nregions == cap) {
			cap = cap ? 2 * cap : 8;
			void *p = realloc(img->regions, cap * sizeof(*img->regions));
			if (!p)
				return LT_ERR_NOMEM;
			img->regions = p;
		}
		struct lt_region *r = &img->regions[img->nregions++];
		memset(r, 0, sizeof(*r));
		r->base = sh.sh_addr & ~(uint64_t)1;
		r->end = r->base + (sh.sh_size & ~(uint64_t)1);
		r->bytes = (const uint8_t *)img->elf_data + sh.sh_offset;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		snprintf(r->name, sizeof(r->name), "%s", name ? name : "?");
		int rc = lt_region_build_tables(r, img->xlen);
		if (rc < 0)
			return rc;
	}
	if (img->nregions == 0) {
		snprintf(err, errlen, "%s: no executable sections", img->path);
		return LT_ERR_BAD_ELF;
	}
	qsort(img->regions, img->nregions, sizeof(*img->regions), cmp_region);
	for (size_t i = 1; i < img->nregions; i++) {
		if (img->regions[i].base < img->regions[i - 1].end) {
			snprintf(err, errlen, "%s: executable sections %s and %s "
			         "overlap", img->path, img->regions[i - 1].name,
			         img->regions[i].name);
			return LT_ERR_BAD_ELF;
		}
	}
	return 0;
}

int lt_image_load(struct lt_image **out, const char *path, char *err,
                  size_t errlen)
{
	*out = NULL;
	struct lt_image *img = calloc(1, sizeof(*img));
	if (!img)
		return LT_ERR_NOMEM;
	img->path = strdup(path);
	int rc = read_file(path, &img->elf_data, &img->elf_size, err, errlen);
	if (rc < 0) {
		lt_image_free(img);
		return rc;
	}
	elf_version(EV_CURRENT);
	Elf *elf = elf_memory(img->elf_data, img->elf_size);
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		snprintf(err, errlen, "%s: not an ELF file", path);
		rc = LT_ERR_BAD_ELF;
		goto fail;
	}
	if (eh.e_machine != EM_RISCV) {
		snprintf(err, errlen, "%s: not a RISC-V ELF (e_machine %u)",
		         path, (unsigned)eh.e_machine);
		rc = LT_ERR_BAD_ELF;
		goto fail;
	}
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB) {
		snprintf(err, errlen, "%s: big-endian RISC-V ELF not supported",
		         path);
		rc = LT_ERR_BAD_ELF;
		goto fail;
	}
	img->xlen = gelf_getclass(elf) == ELFCLASS32 ? 32 : 64;
	img->entry = eh.e_entry;
	img->pie = eh.e_type == ET_DYN;
	rc = load_sections(img, elf, err, errlen);
	if (rc < 0)
		goto fail;
	read_build_id(img, elf);
	read_exec_span(img, elf);
	elf_end(elf);
	*out = img;
	return 0;
fail:
	if (rc == LT_ERR_NOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	if (elf)
		elf_end(elf);
	lt_image_free(img);
	return rc;
}

int lt_image_from_code(struct lt_image **out, uint64_t base,
                       const uint8_t *code, size_t len, int xlen)
{
	*out = NULL;
	if (len < 2 || (base & 1) || (xlen != 32 && xlen != 64))
		return LT_ERR_INVAL;
	struct lt_image *img = calloc(1, sizeof(*img));
	if (!img)
		return LT_ERR_NOMEM;
	img->path = strdup("(code)");
	img->xlen = xlen;
	img->entry = base;
	img->elf_data = malloc(len);
	img->regions = calloc(1, sizeof(*img->regions));
	if (!img->path || !img->elf_data || !img->regions) {
		lt_image_free(img);
		return LT_ERR_NOMEM;
	}
	memcpy(img->elf_data, code, len);
	img->elf_size = len;
	img->nregions = 1;
	struct lt_region *r = &img->regions[0];
	r->base = base;
	r->end = base + (len & ~(size_t)1);
	r->bytes = img->elf_data;
	snprintf(r->name, sizeof(r->name), "code");
	if (lt_region_build_tables(r, xlen) < 0) {
		lt_image_free(img);
		return LT_ERR_NOMEM;
	}
	*out = img;
	return 0;
}

void lt_image_free(struct lt_image *img)
{
	if (!img)
		return;
	for (size_t i = 0; i < img->nregions; i++) {
		free(img->regions[i].hw);
		free(img->regions[i].info);
		free(img->regions[i].owned);
	}
	free(img->regions);
	free(img->build_id);
	free(img->elf_data);
	free(img->path);
	free(img);
}

/* The region of the added snapshot a holding addr, or NULL. */
static const struct lt_region *added_region(const struct lt_added_code *a,
                                            uint64_t addr)
{
	size_t lo = 0, hi = a->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct lt_region *r = a->v[mid];
		if (addr < r->base)
			hi = mid;
		else if (addr >= r->end)
			lo = mid + 1;
		else
			return r;
	}
	return NULL;
}

const struct lt_region *lt_image_region(const struct lt_image *img,
                                        uint64_t addr)
{
	size_t lo = 0, hi = img->nregions;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct lt_region *r = &img->regions[mid];
		if (addr < r->base)
			hi = mid;
		else if (addr >= r->end)
			lo = mid + 1;
		else
			return r;
	}
	/* Acquire: pairs with the release that published the snapshot, so
	 * a receiver thread sees the regions' contents complete. */
	const struct lt_added_code *a = __atomic_load_n(&img->added,
	                                                __ATOMIC_ACQUIRE);
	return a ? added_region(a, addr) : NULL;
}

int lt_image_insn(const struct lt_image *img, uint64_t addr,
                  struct lt_insn *out)
{
	const struct lt_region *r = lt_image_region(img, addr);
	if (!r)
		return LT_ERR_NO_MAP;
	return lt_insn_decode(r->bytes + (addr - r->base),
	                      (size_t)(r->end - addr), addr, img->xlen, out);
}
