/* The streaming subcommands of the ltpipe command (private). */
#ifndef LT_CLI_SERVE_H
#define LT_CLI_SERVE_H

/* `ltpipe serve ...`: runs the daemon; returns the exit status. */
int lt_cli_serve(int argc, char **argv);

/* `ltpipe send ...`: streams a trace file to a daemon; returns the exit
 * status. */
int lt_cli_send(int argc, char **argv);

#endif
