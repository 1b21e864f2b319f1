/* Subcommands of the ltpipe command (private to the executable). */
#ifndef LT_CLI_H
#define LT_CLI_H

#include <stdio.h>

#include "ltpipe/frontend.h"

/* `ltpipe decode ...`: returns the process exit status. */
int lt_cli_decode(int argc, char **argv);

/* Prints the end-of-decode summary (totals, then each kept error with its
 * trace offset) for the trace `what`. */
void lt_print_summary(FILE *f, const char *what,
                      const struct lt_decode_stats *st, double seconds);

#endif
