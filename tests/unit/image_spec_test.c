/* Image selectors "PROG[:prv=P,ctx=N]" (decoder/image_spec.c): every
 * accepted form with its exact result, and every malformed one refused. */
#include <stdio.h>
#include <string.h>

#include "ltpipe/frontend.h"

static int failures;

/* One case: spec, expected rc, path, prv, ctx. */
struct tcase {
	const char *spec;
	int rc;
	const char *path;
	int prv;
	long long ctx;
};

static const struct tcase cases[] = {
	{ "/abs/prog", 0, "/abs/prog", -1, -1 },
	{ "prog:prv=U", 0, "prog", 0, -1 },
	{ "prog:prv=S,ctx=7", 0, "prog", 1, 7 },
	{ "vmlinux:ctx=0x10,prv=M", 0, "vmlinux", 3, 16 },
	{ "/dir:with:colons/prog:prv=U", 0, "/dir:with:colons/prog", 0, -1 },
	{ "/dir:odd/prog", 0, "/dir:odd/prog", -1, -1 },  /* no selector */
	{ "prog:prv=X", -1, "", 0, 0 },
	{ "prog:prv=U,", -1, "", 0, 0 },
	{ "prog:ctx=-1", -1, "", 0, 0 },
	{ "prog:ctx=9z", -1, "", 0, 0 },
	{ "prog:prv=U,foo=1", -1, "", 0, 0 },
	{ ":prv=U", -1, "", 0, 0 },
	{ "", -1, "", 0, 0 },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *c = &cases[i];
		char path[64] = "";
		int prv = 99;
		int64_t ctx = 99;
		int rc = lt_image_spec_parse(c->spec, path, sizeof(path), &prv,
		                             &ctx);
		if (rc != c->rc || (rc == 0 && (strcmp(path, c->path) ||
		                                prv != c->prv || ctx != c->ctx))) {
			failures++;
			fprintf(stderr, "FAIL '%s': rc %d path '%s' prv %d ctx "
			        "%lld\n", c->spec, rc, path, prv, (long long)ctx);
		}
	}
	/* A path that does not fit is refused, not truncated. */
	char small[4];
	int prv;
	int64_t ctx;
	if (lt_image_spec_parse("/long/prog", small, sizeof(small), &prv,
	                        &ctx) != -1) {
		failures++;
		fprintf(stderr, "FAIL: long path accepted\n");
	}
	if (failures)
		return 1;
	printf("image_spec: all tests passed\n");
	return 0;
}
