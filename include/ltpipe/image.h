/* Program image: the executable sections of a RISC-V ELF, pre-decoded once
 * into direct-indexed per-halfword tables so that stepping one basic block
 * is O(1). Immutable after load; shared read-only by every receiver and
 * session. A daemon session given code while it decodes (CODE frames)
 * uses its own copy of the struct, whose `added` regions grow. */
#ifndef LTPIPE_IMAGE_H
#define LTPIPE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "ltpipe/insn.h"

/* Per-halfword step entry: where the straight-line run starting at this
 * halfword ends, with the facts of the instruction ending it copied in so
 * that stepping a block touches one 16-byte entry. */
struct lt_hw {
	uint32_t cf;  /* halfword index of the block-ending instruction */
	uint32_t n;   /* instructions from here through that one, inclusive */
	int32_t tgt;  /* its direct target minus its address, else 0 */
	uint8_t cls;  /* its class (enum lt_insn_class) */
	uint8_t len;  /* its length */
	uint8_t link; /* its link-register use */
	uint8_t pad;  /* unused */
};

/* Per-halfword facts about the instruction that starts at that halfword. */
struct lt_hwinfo {
	int32_t tgt;  /* direct target minus address (branch, jal), else 0 */
	uint8_t cls;  /* enum lt_insn_class */
	uint8_t len;  /* 2 or 4 (2 for an invalid encoding) */
	uint8_t link; /* enum lt_insn_link */
	uint8_t pad;  /* unused */
};

/* One executable section. */
struct lt_region {
	uint64_t base;             /* address of the first byte */
	uint64_t end;              /* one past the last byte */
	const uint8_t *bytes;      /* section contents (end - base bytes) */
	struct lt_hw *hw;          /* (end-base)/2 + 1 step entries */
	struct lt_hwinfo *info;    /* (end-base)/2 + 1 insn entries; the last
	                              is an INVALID sentinel */
	char name[32];             /* section name, for messages */
	uint8_t *owned;            /* bytes this region owns (code map runs),
	                              freed with the image; NULL for ELF
	                              sections */
};

/* Code added to a session's copy of an image while its stream decodes
 * (the daemon's CODE frames): an immutable snapshot, replaced as a whole
 * by a newer one, so that receiver threads may look regions up while more
 * code arrives. Snapshots and their regions outlive the session's
 * decoding (the daemon frees them at the session's end). */
struct lt_added_code {
	size_t n;                         /* regions */
	const struct lt_region *const *v; /* sorted by base, disjoint */
};

/* A loaded program image. */
struct lt_image {
	char *path;                /* ELF path as given */
	int xlen;                  /* 32 or 64 */
	uint64_t entry;            /* ELF entry point */
	int pie;                   /* ELF type ET_DYN: position-independent,
	                              loaded wherever the loader chose */
	uint64_t exec_lo;          /* executable PT_LOAD segments: lowest
	                              link address */
	uint64_t exec_hi;          /* one past their highest file byte */
	uint64_t bias;             /* where a PIE ran minus its link
	                              address (0: ran where linked); the
	                              sections stay at link addresses and
	                              the frontend translates trace
	                              addresses inside [exec_lo, exec_hi) +
	                              bias, see lt_image_relocate */
	struct lt_region *regions; /* executable sections, sorted by base */
	size_t nregions;           /* number of regions */
	const struct lt_added_code *added; /* code added while decoding, or
	                              NULL; read and replaced with atomic
	                              acquire / release (lt_image_region) */
	uint8_t *build_id;         /* GNU build-id note bytes, or NULL */
	size_t build_id_len;       /* its length */
	void *elf_data;            /* the file contents (owned) */
	size_t elf_size;           /* its size */
};

/* Loads the executable sections of the RISC-V ELF at `path`.
 * Returns 0 and *out, or a negative lt_error with a one-line message naming
 * the file in err[errlen]. */
int lt_image_load(struct lt_image **out, const char *path, char *err,
                  size_t errlen);

/* Makes an image of one region holding `len` bytes of code at `base` (the
 * bytes are copied), for tests and fuzzing. Returns 0 or LT_ERR_NOMEM /
 * LT_ERR_INVAL. */
int lt_image_from_code(struct lt_image **out, uint64_t base,
                       const uint8_t *code, size_t len, int xlen);

/* What a code map file says besides its code. */
struct lt_codemap_info {
	uint64_t start_code;  /* the program's code as loaded: first byte */
	uint64_t end_code;    /* one past its last byte */
	uint64_t entry_code;  /* its entry point as loaded (0: not given) */
	size_t nruns;         /* code runs added to the image */
	size_t nskipped;      /* runs left out: inside the image's sections */
};

/* Adds the code runs of a code map file to img as regions: code that ran
 * outside the program's ELF (the kernel's signal-return trampoline, a
 * dynamically linked program's libraries), which the QEMU plugin writes
 * next to its trace (`TRACE.code`, see image_code.c for the format).
 * Runs overlapping the image's own sections are left out. Call before
 * the image is shared. Returns 0 and *info, or a negative lt_error with
 * a one-line message naming the file and line in err[errlen]. */
int lt_image_add_codemap(struct lt_image *img, const char *path,
                         struct lt_codemap_info *info, char *err,
                         size_t errlen);

/* 1 when a code map's `load` line [start, end) (end > start) leaves some
 * of the ELF's own sections outside it: the program ran elsewhere than
 * linked and needs lt_image_relocate. Regions added from code maps do
 * not count. */
int lt_image_ran_elsewhere(const struct lt_image *img, uint64_t start,
                           uint64_t end);

/* Records that the position-independent img ran with its executable
 * segments at [start, end) (the code map's `load` line): sets img->bias
 * when that is the ELF's executable span moved by a page multiple.
 * Returns 1 if relocated, 0 if it ran at its link addresses, or
 * LT_ERR_INVAL with the reason in err[errlen]. */
int lt_image_relocate(struct lt_image *img, uint64_t start, uint64_t end,
                      char *err, size_t errlen);

/* Frees an image loaded by lt_image_load (NULL is fine). */
void lt_image_free(struct lt_image *img);

/* Returns the region holding `addr` (among the sections, then the added
 * code), or NULL. O(log n) in regions. */
const struct lt_region *lt_image_region(const struct lt_image *img,
                                        uint64_t addr);

/* Decodes the single instruction at `addr` into *out. Returns its length,
 * LT_ERR_NO_MAP outside the image, LT_ERR_BAD_INSN for an invalid one. */
int lt_image_insn(const struct lt_image *img, uint64_t addr,
                  struct lt_insn *out);

/* Halfword index of addr in region r (addr must be inside r). */
static inline uint32_t lt_region_idx(const struct lt_region *r,
                                     uint64_t addr)
{
	return (uint32_t)((addr - r->base) >> 1);
}

#endif
