/* Prints gcno and gcda files in a stable, line-oriented form for people and
 * for the tests (compared field by field against gcov-dump):
 *
 *   lt_gcov_dump FILE...
 *
 * The kind of each file is taken from its magic, not its name. Exits 1 on
 * the first file that does not parse, with the reader's message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/gcov.h"

static const char *const ctr_names[] = {
	"arcs", "interval", "pow2", "topn", "indirect_call", "average", "ior",
	"time_profiler", "conditions",
};

static void print_format(const struct lt_gcov_format *f)
{
	char v[5];
	for (int i = 0; i < 4; i++)
		v[i] = (char)(f->version >> (24 - 8 * i));
	v[4] = 0;
	printf("version %s gcc=%u.%u lengths=%s order=%s\n", v, f->major,
	       f->minor, f->byte_lengths ? "bytes" : "words",
	       f->big_endian ? "big" : "little");
}

static void print_flags(uint32_t flags)
{
	printf("0x%x(", flags);
	const char *sep = "";
	if (flags & LT_GCOV_ARC_ON_TREE) {
		printf("%stree", sep);
		sep = ",";
	}
	if (flags & LT_GCOV_ARC_FAKE) {
		printf("%sfake", sep);
		sep = ",";
	}
	if (flags & LT_GCOV_ARC_FALLTHROUGH)
		printf("%sfall", sep);
	printf(")");
}

static void dump_gcno(const struct lt_gcno *g)
{
	printf("gcno %s\n", g->path);
	print_format(&g->fmt);
	printf("stamp %u\nchecksum %u\ncwd %s\nhas_unexecuted_blocks %u\n",
	       g->stamp, g->checksum, g->cwd, g->has_unexecuted_blocks);
	printf("object_checksum %u\n", lt_gcno_object_checksum(g));
	for (uint32_t i = 0; i < g->n_fns; i++) {
		const struct lt_gcno_fn *f = &g->fns[i];
		printf("function %s ident=%u lineno_checksum=0x%08x "
		       "cfg_checksum=0x%08x artificial=%u source=%s "
		       "start=%u:%u end=%u:%u blocks=%u arcs=%u counters=%u "
		       "conds=%u\n",
		       f->name, f->ident, f->lineno_checksum, f->cfg_checksum,
		       f->artificial, f->source, f->start_line, f->start_col,
		       f->end_line, f->end_col, f->n_blocks, f->n_arcs,
		       f->n_counters, f->n_conds);
		for (uint32_t a = 0; a < f->n_arcs; a++) {
			const struct lt_gcno_arc *arc = &f->arcs[a];
			printf("  arc %u -> %u ", arc->src, arc->dst);
			print_flags(arc->flags);
			if (arc->counter != LT_GCNO_NO_COUNTER)
				printf(" counter=%u", arc->counter);
			printf("\n");
		}
		for (uint32_t b = 0; b < f->n_blocks; b++) {
			const struct lt_gcno_block *blk = &f->blocks[b];
			if (!blk->n_lines)
				continue;
			printf("  lines %u", b);
			for (uint32_t l = 0; l < blk->n_lines; l++)
				printf(" %s:%u", g->files[blk->lines[l].file],
				       blk->lines[l].line);
			printf("\n");
		}
		for (uint32_t c = 0; c < f->n_conds; c++)
			printf("  cond %u terms=%u\n", f->conds[c].block,
			       f->conds[c].n_terms);
	}
}

static void dump_gcda(const char *path, const struct lt_gcda *d)
{
	printf("gcda %s\n", path);
	print_format(&d->fmt);
	printf("stamp %u\nchecksum %u\n", d->stamp, d->checksum);
	if (d->has_summary)
		printf("summary runs=%u sum_max=%u\n", d->runs, d->sum_max);
	for (uint32_t i = 0; i < d->n_fns; i++) {
		const struct lt_gcda_fn *f = &d->fns[i];
		if (f->placeholder) {
			printf("function placeholder\n");
			continue;
		}
		printf("function ident=%u lineno_checksum=0x%08x "
		       "cfg_checksum=0x%08x\n",
		       f->ident, f->lineno_checksum, f->cfg_checksum);
		for (uint32_t k = 0; k < f->n_ctrs; k++) {
			const struct lt_gcda_ctr *c = &f->ctrs[k];
			if (c->kind < sizeof(ctr_names) / sizeof(*ctr_names))
				printf("  counters %s", ctr_names[c->kind]);
			else
				printf("  counters kind%u", c->kind);
			printf(" n=%u%s", c->n, c->all_zero ? " all-zero" : "");
			if (!c->all_zero) {
				printf(":");
				for (uint32_t v = 0; v < c->n; v++)
					printf(" %lld", (long long)
					       lt_gcda_ctr_value(c, v));
			}
			printf("\n");
		}
	}
}

static int dump_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char m[4] = { 0 };
	if (!fp) {
		perror(path);
		return 1;
	}
	size_t got = fread(m, 1, 4, fp);
	fclose(fp);
	char err[512];
	int is_gcda = got == 4 && (memcmp(m, "adcg", 4) == 0 ||
	                           memcmp(m, "gcda", 4) == 0);
	if (is_gcda) {
		struct lt_gcda *d;
		if (lt_gcda_read_file(path, &d, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		dump_gcda(path, d);
		lt_gcda_free(d);
		return 0;
	}
	struct lt_gcno *g;
	if (lt_gcno_read_file(path, &g, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	dump_gcno(g);
	lt_gcno_free(g);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE.gcno|FILE.gcda...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (dump_file(argv[i]))
			return 1;
	return 0;
}
