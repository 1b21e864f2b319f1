/* A walk over the symbol tables of a program's ELF for the gcda rules
 * that need symbols the symbol table of lt_symtab leaves out (data
 * objects, aliases of one address): gcda_map.h, gm_elf_syms. */
#include <gelf.h>
#include <libelf.h>
#include <string.h>

#include "gcda_map.h"
#include "ltpipe/image.h"

uint64_t gm_elf_syms(const struct lt_image *img, gm_elf_sym_fn each,
                     void *user)
{
	if (!img->elf_data || img->elf_size < 4 ||
	    memcmp(img->elf_data, "\177ELF", 4) != 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *elf = elf_memory((char *)img->elf_data, img->elf_size);
	if (!elf)
		return 0;
	uint64_t found = 0;
	Elf_Scn *scn = NULL;
	while (!found && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t q = 0; q < n && !found; q++) {
			GElf_Sym sy;
			if (!gelf_getsym(d, (int)q, &sy))
				continue;
			const char *sn = elf_strptr(elf, sh.sh_link, sy.st_name);
			if (sn)
				found = each(user, sn, sy.st_value, sy.st_size,
				             GELF_ST_TYPE(sy.st_info));
		}
	}
	elf_end(elf);
	return found;
}
