/* `ltpipe decode`: the code map next to a trace, and where the program
 * ran: at its ELF's addresses, or (position-independent) moved. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ltpipe/image.h"

size_t lt_cli_hart_suffix(const char *path, unsigned *hart)
{
	size_t n = strlen(path);
	if (n > 4 && !strcmp(path + n - 4, ".zst"))
		n -= 4;
	size_t d = n;
	while (d > 0 && path[d - 1] >= '0' && path[d - 1] <= '9')
		d--;
	if (d == n || n - d > 5 || d < 6 || strncmp(path + d - 5, ".hart", 5))
		return 0;
	unsigned long v = strtoul(path + d, NULL, 10);
	if (v > 65535)
		return 0;
	*hart = (unsigned)v;
	return d - 5;
}

int lt_cli_load_codemap(struct lt_image *img, const char *given,
                        const char *trace_path, int quiet)
{
	char def[4096];
	const char *path = given;
	unsigned hart;
	size_t cut;
	if (!path && strcmp(trace_path, "-") != 0 &&
	    (size_t)snprintf(def, sizeof(def), "%s.code", trace_path) <
	    sizeof(def) && access(def, F_OK) == 0)
		path = def;
	/* A hart's trace: vCPU 0's name (with its .zst) + .code. */
	size_t n = strlen(trace_path);
	if (!path && (cut = lt_cli_hart_suffix(trace_path, &hart)) &&
	    (size_t)snprintf(def, sizeof(def), "%.*s%s.code", (int)cut,
	                     trace_path, n > 4 && !strcmp(trace_path + n - 4,
	                     ".zst") ? ".zst" : "") < sizeof(def) &&
	    access(def, F_OK) == 0)
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
	if (lt_image_ran_elsewhere(img, info.start_code, info.end_code)) {
		/* A PIE the loader placed elsewhere: decode with its
		 * addresses moved (events keep link addresses). */
		char err[512];
		if (lt_image_relocate(img, info.start_code, info.end_code, err,
		                      sizeof(err)) < 0) {
			fprintf(stderr, "ltpipe: %s: %s\n", path, err);
			return 2;
		}
		if (!quiet)
			fprintf(stderr, "ltpipe: %s ran at 0x%" PRIx64 " "
			        "(position-independent): trace addresses "
			        "translated to its link addresses (-0x%" PRIx64
			        ")\n", img->path, info.start_code, img->bias);
	}
	if (img->pie && !info.end_code)
		fprintf(stderr, "ltpipe: warning: %s is position-independent "
		        "(PIE) and no code map tells where it ran: its trace "
		        "matches it only if it ran at its link addresses\n",
		        img->path);
	return 0;
}
