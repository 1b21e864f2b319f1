/* Subcommands of the ltpipe command (private to the executable). */
#ifndef LT_CLI_H
#define LT_CLI_H

#include <stdio.h>

#include "ltpipe/frontend.h"

/* `ltpipe decode ...`: returns the process exit status. */
int lt_cli_decode(int argc, char **argv);

/* Where the QEMU plugin's name for the trace of hart N (PATH.hartN, or
 * PATH-without-.zst.hartN.zst for a compressed PATH) has ".hartN": its
 * offset in path, with N in *hart; or 0 when path is no such name. */
size_t lt_cli_hart_suffix(const char *path, unsigned *hart);

/* Adds the code map `given` (NULL: TRACE.code when it exists, else for a
 * hart's trace PATH.hartN, PATH.code, the map the plugin writes once for
 * every hart; "none": none) to img, the session's user-mode image, and refuses a
 * position-independent program that ran elsewhere than its link address.
 * Returns 0 or an exit status (2), the reason printed on stderr. */
int lt_cli_load_codemap(struct lt_image *img, const char *given,
                        const char *trace_path, int quiet);

/* Prints the end-of-decode summary (totals, then each kept error with its
 * trace offset) for the trace `what`. */
void lt_print_summary(FILE *f, const char *what,
                      const struct lt_decode_stats *st, double seconds);

#endif
