/* Two ELF facts the afdo receiver needs that the image does not keep:
 * the first loadable segment's address (autofdo's text addresses are
 * relative to it) and the major version of the gcc that built the program
 * (which .afdo version it will read). Read from the file bytes held by the
 * image, little-endian ELF32/ELF64 only (RISC-V). */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "afdo_elf.h"

/* Reads a little-endian unsigned of n bytes at p. */
static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int afdo_first_load(const struct lt_image *img, uint64_t *vaddr)
{
	const uint8_t *e = img->elf_data;
	size_t size = img->elf_size;
	if (!e || size < EI_NIDENT || memcmp(e, ELFMAG, SELFMAG) != 0 ||
	    e[EI_DATA] != ELFDATA2LSB)
		return -1;
	int is64 = e[EI_CLASS] == ELFCLASS64;
	size_t ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (size < ehsize)
		return -1;
	uint64_t phoff = is64 ? le(e + offsetof(Elf64_Ehdr, e_phoff), 8)
	                      : le(e + offsetof(Elf32_Ehdr, e_phoff), 4);
	uint64_t phentsize = is64 ? le(e + offsetof(Elf64_Ehdr, e_phentsize), 2)
	                          : le(e + offsetof(Elf32_Ehdr, e_phentsize), 2);
	uint64_t phnum = is64 ? le(e + offsetof(Elf64_Ehdr, e_phnum), 2)
	                      : le(e + offsetof(Elf32_Ehdr, e_phnum), 2);
	size_t need = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	if (phentsize < need)
		return -1;
	for (uint64_t i = 0; i < phnum; i++) {
		uint64_t at = phoff + i * phentsize;
		if (at > size || size - at < need)
			return -1;
		const uint8_t *ph = e + at;
		uint32_t type = (uint32_t)le(ph, 4);
		if (type != PT_LOAD)
			continue;
		*vaddr = is64 ? le(ph + offsetof(Elf64_Phdr, p_vaddr), 8)
		              : le(ph + offsetof(Elf32_Phdr, p_vaddr), 4);
		return 0;
	}
	return -1;
}

int afdo_gcc_major(const struct lt_image *img)
{
	static const char tag[] = "GCC: (";
	const char *p = img->elf_data;
	size_t size = img->elf_size;
	if (!p)
		return 0;
	const char *end = p + size;
	while ((p = memmem(p, (size_t)(end - p), tag, sizeof(tag) - 1))) {
		/* "GCC: (Debian 12.2.0-13) 12.2.0": the version follows ") ". */
		const char *q = p + sizeof(tag) - 1;
		while (q < end && *q && *q != ')')
			q++;
		if (q + 2 < end && q[0] == ')' && q[1] == ' ' &&
		    q[2] >= '1' && q[2] <= '9') {
			int major = 0;
			for (q += 2; q < end && *q >= '0' && *q <= '9'; q++)
				major = major * 10 + (*q - '0');
			if (major > 0 && major < 1000)
				return major;
		}
		p += sizeof(tag) - 1;
	}
	return 0;
}
