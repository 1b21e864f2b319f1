/* `ltpipe serve`: option parsing for the stream daemon (daemon.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_serve.h"
#include "daemon.h"
#include "ltpipe/proto.h"

static void serve_usage(FILE *f)
{
	fprintf(f,
"usage: ltpipe serve [--listen unix:PATH | tcp:HOST:PORT]... --out DIR\n"
"                    [--max-sessions N] [--elf PROG]... [--queue-kib N]\n"
"\n"
"Decodes traces streamed by sinks (simulators, the QEMU plugin, ltpipe\n"
"send) while they run; protocol: proto/PROTOCOL.md. Each session's outputs\n"
"go to DIR/<session>/, written when the session ends (marked incomplete\n"
"when the sink disconnects without an end frame). One log line per\n"
"session event on stderr. SIGINT/SIGTERM: stop accepting, flush every\n"
"session, exit 0.\n"
"\n"
"options:\n"
"  --listen unix:PATH     Unix socket (default: unix:ltpipe.sock)\n"
"  --listen tcp:HOST:PORT TCP; HOST empty means 127.0.0.1 (give 0.0.0.0\n"
"                         to accept other machines: there is no auth)\n"
"  -o, --out DIR          root of the session output directories\n"
"  --max-sessions N       concurrent sessions (default 64)\n"
"  --elf PROG             preload a program so sinks may name it by\n"
"                         build-id only (repeatable)\n"
"  --queue-kib N          per-session buffer; a full one stops reading\n"
"                         that sink (default 1024)\n"
"\n"
"exit status: 0 after SIGINT/SIGTERM; 1 usage error; 2 cannot listen,\n"
"create DIR or load an --elf.\n");
}

static int parse_num(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || !*s || *end || v == 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

int lt_cli_serve(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"listen", required_argument, 0, 'l'},
		{"out", required_argument, 0, 'o'},
		{"max-sessions", required_argument, 0, 'm'},
		{"elf", required_argument, 0, 'e'},
		{"queue-kib", required_argument, 0, 'k'},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	struct lt_daemon_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_sessions = 64;
	cfg.queue_bytes = 1u << 20;
	cfg.log = stderr;
	unsigned long v;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (cfg.nlisten == LT_DAEMON_MAX_LISTEN) {
				fprintf(stderr, "ltpipe serve: at most %d --listen\n",
				        LT_DAEMON_MAX_LISTEN);
				return 1;
			}
			cfg.listen[cfg.nlisten++] = optarg;
			break;
		case 'o':
			cfg.outdir = optarg;
			break;
		case 'm':
			if (parse_num(optarg, 4096, &v)) {
				fprintf(stderr, "ltpipe serve: --max-sessions must be "
				        "1..4096, not '%s'\n", optarg);
				return 1;
			}
			cfg.max_sessions = (unsigned)v;
			break;
		case 'e':
			if (cfg.nelf == LT_DAEMON_MAX_ELF) {
				fprintf(stderr, "ltpipe serve: at most %d --elf\n",
				        LT_DAEMON_MAX_ELF);
				return 1;
			}
			cfg.elf[cfg.nelf++] = optarg;
			break;
		case 'k':
			/* At least one maximal DATA frame's worth: not needed for
			 * correctness (frames are parsed in pieces) but it keeps
			 * the loop from stalling on every frame. */
			if (parse_num(optarg, 1u << 20, &v) || v < 64) {
				fprintf(stderr, "ltpipe serve: --queue-kib must be "
				        "64..1048576, not '%s'\n", optarg);
				return 1;
			}
			cfg.queue_bytes = (size_t)v << 10;
			break;
		case 'h':
			serve_usage(stdout);
			return 0;
		default:
			serve_usage(stderr);
			return 1;
		}
	}
	if (optind != argc || !cfg.outdir) {
		fprintf(stderr, "ltpipe serve: need --out DIR and no other "
		        "arguments (see ltpipe serve --help)\n");
		return 1;
	}
	return lt_daemon_run(&cfg);
}
