/* Test helper: turns the executed-PC log of a trap-free user program
 * (`qemu-riscv64 -singlestep -d exec,nochain -D LOG prog`) into an L-trace
 * (tacit format, BT mode) through the encoder model.
 *
 *   pcs2trace PROG.elf LOG OUT.trace
 *
 * Each instruction's record type follows from its class and the next pc.
 * Time model, which test_stats.c relies on: the first instruction has time
 * 0, each next one adds 1, plus 3 more when control did not pass to the
 * sequential successor (a taken branch or a jump). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lt_encoder.h"
#include "ltpipe/image.h"
#include "ltpipe/insn.h"

#define TAKEN_EXTRA 3

/* Reads the pcs of the log's "Trace N: HOST [x/PC/...]" lines. */
static uint64_t *read_pcs(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 1024;
	uint64_t *pc = malloc(cap * sizeof(*pc));
	char line[512];
	*n = 0;
	while (pc && fgets(line, sizeof(line), f)) {
		const char *p = strncmp(line, "Trace ", 6) == 0 ? strchr(line, '[')
		                                               : NULL;
		p = p ? strchr(p, '/') : NULL;
		if (!p)
			continue;
		if (*n == cap) {
			uint64_t *q = realloc(pc, 2 * cap * sizeof(*pc));
			if (!q) {
				free(pc);
				pc = NULL;
				break;
			}
			pc = q;
			cap *= 2;
		}
		pc[(*n)++] = strtoull(p + 1, NULL, 16);
	}
	fclose(f);
	return pc;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: pcs2trace PROG.elf LOG OUT.trace\n");
		return 1;
	}
	char err[256];
	struct lt_image *img;
	if (lt_image_load(&img, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "pcs2trace: %s\n", err);
		return 1;
	}
	size_t n;
	uint64_t *pc = read_pcs(argv[2], &n);
	if (!pc || !n) {
		fprintf(stderr, "pcs2trace: %s: no pcs\n", argv[2]);
		return 1;
	}
	struct lt_encoder enc;
	struct lt_encoder_mem mem = {0};
	struct lt_encoder_config cfg = {LT_FMT_TACIT, LT_ENC_BT, 1024};
	if (lt_encoder_init(&enc, &cfg, lt_encoder_mem_write, &mem) < 0)
		return 1;
	uint64_t time = 0;
	for (size_t i = 0; i < n; i++) {
		struct lt_insn in;
		if (lt_image_insn(img, pc[i], &in) < 0) {
			fprintf(stderr, "pcs2trace: no instruction at 0x%" PRIx64 "\n",
			        pc[i]);
			return 1;
		}
		struct lt_ingress rec = {pc[i], time, 0, LT_IT_NOTHING, 0};
		int seq = i + 1 == n || pc[i + 1] == pc[i] + in.len;
		if (i + 1 < n) {
			if (in.cls == LT_INSN_BRANCH)
				rec.itype = seq ? LT_IT_BRANCH_NOT_TAKEN
				                : LT_IT_BRANCH_TAKEN;
			else if (in.cls == LT_INSN_JUMP)
				rec.itype = LT_IT_INF_JUMP;
			else if (in.cls == LT_INSN_IJUMP)
				rec.itype = LT_IT_UNINF_JUMP;
			else if (!seq) {
				fprintf(stderr, "pcs2trace: unexpected transfer at 0x%"
				        PRIx64 " (traps are not supported)\n", pc[i]);
				return 1;
			}
		}
		if (lt_encoder_push(&enc, &rec) < 0)
			return 1;
		time += 1 + (seq ? 0 : TAKEN_EXTRA);
	}
	if (lt_encoder_finish(&enc) < 0)
		return 1;
	FILE *out = fopen(argv[3], "wb");
	if (!out || fwrite(mem.data, 1, mem.len, out) != mem.len ||
	    fclose(out) != 0) {
		fprintf(stderr, "pcs2trace: cannot write %s\n", argv[3]);
		return 1;
	}
	lt_encoder_fini(&enc);
	free(mem.data);
	free(pc);
	lt_image_free(img);
	return 0;
}
