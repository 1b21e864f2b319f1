/* `ltpipe decode`: the code map next to a trace, and the check that a
 * position-independent program ran where its ELF says. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ltpipe/image.h"

int lt_cli_load_codemap(struct lt_image *img, const char *given,
                        const char *trace_path, int quiet)
{
	char def[4096];
	const char *path = given;
	if (!path && strcmp(trace_path, "-") != 0 &&
	    (size_t)snprintf(def, sizeof(def), "%s.code", trace_path) <
	    sizeof(def) && access(def, F_OK) == 0)
		path = def;
	struct lt_codemap_info info = {0};
	if (path && strcmp(path, "none") != 0) {
		char err[512];
		if (lt_image_add_codemap(img, path, &info, err,
		                         sizeof(err)) < 0) {
			fprintf(stderr, "ltpipe: %s\n", err);
			return 2;
		}
		if (!quiet)
			fprintf(stderr, "ltpipe: %s: %zu runs of code outside "
			        "%s\n", path, info.nruns, img->path);
	}
	/* The ELF's own sections must lie where the program ran. */
	int elsewhere = 0;
	for (size_t i = 0; info.end_code > info.start_code &&
	                   i < img->nregions; i++)
		if (!img->regions[i].owned &&
		    (img->regions[i].base < info.start_code ||
		     img->regions[i].end > info.end_code))
			elsewhere = 1;
	if (elsewhere) {
		fprintf(stderr, "ltpipe: %s ran with its code at 0x%" PRIx64
		        "-0x%" PRIx64 ", not at the ELF's addresses%s: trace "
		        "addresses are matched to the ELF's own, so link the "
		        "program with -static or -no-pie (or give the ELF that "
		        "ran)\n", img->path, info.start_code, info.end_code,
		        img->pie ? " (it is position-independent, PIE)" : "");
		return 2;
	}
	if (img->pie && !info.end_code)
		fprintf(stderr, "ltpipe: warning: %s is position-independent "
		        "(PIE): its trace matches it only if it ran at its link "
		        "addresses; link it with -static or -no-pie\n",
		        img->path);
	return 0;
}
