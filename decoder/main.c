/* The ltpipe command: subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_serve.h"
#include "lt_config.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: ltpipe COMMAND [options]\n"
"\n"
"ltpipe decodes RISC-V L-trace (TACIT) instruction traces into profiles\n"
"and listings.\n"
"\n"
"commands:\n"
"  decode   decode a trace file (ltpipe decode --help)\n"
"  serve    decode traces streamed by simulators (ltpipe serve --help)\n"
"  send     stream a trace file to ltpipe serve (ltpipe send --help)\n"
"  help     this text\n"
"  version  print the version\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "decode"))
		return lt_cli_decode(argc - 1, argv + 1);
	if (!strcmp(cmd, "serve"))
		return lt_cli_serve(argc - 1, argv + 1);
	if (!strcmp(cmd, "send"))
		return lt_cli_send(argc - 1, argv + 1);
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("ltpipe %s\n", LT_VERSION);
		return 0;
	}
	fprintf(stderr, "ltpipe: unknown command '%s'\n", cmd);
	usage(stderr);
	return 1;
}
