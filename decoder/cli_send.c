/* `ltpipe send`: streams a captured trace file to `ltpipe serve` through
 * the sink client library, as a simulator would. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_serve.h"
#include "ltpipe/error.h"
#include "sinks/client/ltpipe_sink.h"
#include "trace_input.h"

static void send_usage(FILE *f)
{
	fprintf(f,
"usage: ltpipe send --elf PROG[:prv=P,ctx=N] [options] TRACE\n"
"\n"
"Streams TRACE (a file, a .zst file, or '-' for standard input) to a\n"
"running `ltpipe serve`, which decodes it into DIR/<session>/, and prints\n"
"the daemon's summary.\n"
"\n"
"options:\n"
"  --to ADDR              unix:PATH (default unix:ltpipe.sock) or\n"
"                         tcp:HOST:PORT\n"
"  --session NAME         session name (default: TRACE's file name with\n"
"                         other characters than [A-Za-z0-9._-] as '_')\n"
"  --elf PROG[:prv=P,ctx=N]  program, as a path on the daemon's host;\n"
"                         repeatable (kernel, boot ROM...) as for ltpipe\n"
"                         decode, up to 8\n"
"  --build-id HEX         expected build-id of the first --elf (alone: a\n"
"                         program the daemon preloaded with --elf)\n"
"  --format, --mode, --bp-entries, --addr-bits, --hart, -r/--receiver\n"
"                         as for ltpipe decode\n"
"  --zstd[=LEVEL]         compress the stream (default level 3)\n"
"  --code FILE            send the code map FILE (as `ltpipe decode --code`:\n"
"                         code outside the program, where a PIE ran) ahead\n"
"                         of the trace; the daemon must know CODE frames\n"
"  -q, --quiet            no summary\n"
"\n"
"exit status: 0 decoded cleanly; 1 usage error; 2 unreadable trace or no\n"
"daemon; 3 decoded, but trace data was lost; 4 the daemon refused or\n"
"failed the session.\n");
}

/* Derives a session name from the trace path. */
static void default_name(const char *path, char *out, size_t cap)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	if (!strcmp(path, "-") || !*b)
		b = "stdin";
	size_t n = 0;
	for (; *b && n + 1 < cap; b++)
		out[n++] = (*b >= 'a' && *b <= 'z') || (*b >= 'A' && *b <= 'Z') ||
		           (*b >= '0' && *b <= '9') || *b == '.' || *b == '-' ||
		           *b == '_' ? *b : '_';
	out[n] = '\0';
	if (out[0] == '.')
		out[0] = '_';
	for (char *p = strstr(out, ".."); p; p = strstr(out, ".."))
		p[1] = '_';
}

static int parse_hex(const char *s, uint8_t *out, size_t *len)
{
	size_t n = strlen(s);
	if (n == 0 || n % 2 || n / 2 > LT_PROTO_MAX_BUILD_ID)
		return -1;
	for (size_t i = 0; i < n; i += 2) {
		unsigned v;
		if (sscanf(s + i, "%2x", &v) != 1)
			return -1;
		out[i / 2] = (uint8_t)v;
	}
	*len = n / 2;
	return 0;
}

static int parse_u(const char *s, unsigned long max, uint32_t *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || !*s || *end || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* Reads the code map file at path (its first line `ltpipe-code 1`) into
 * a malloc'd text of lines ready for lt_sink_code: runs longer than a
 * CODE frame are split into consecutive runs (the daemon joins them
 * again). Returns the text and *len, or NULL with the reason in err. */
static char *read_code_map(const char *path, size_t *len, char *err,
                           size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open code map: %s", path,
		         strerror(errno));
		return NULL;
	}
	char *line = NULL, *out = NULL;
	size_t lcap = 0, cap = 0, n = 0;
	ssize_t got;
	long lineno = 0;
	/* Hex digits of one piece: halfwords, well inside a frame. */
	const size_t piece = LT_PROTO_MAX_CODE / 2 & ~(size_t)3;
	while ((got = getline(&line, &lcap, f)) >= 0) {
		lineno++;
		if (lineno == 1) {
			if (strncmp(line, "ltpipe-code 1", 13) != 0 ||
			    (line[13] && line[13] != '\n' && line[13] != '\r')) {
				snprintf(err, errlen, "%s:1: not an ltpipe code map "
				         "(expected 'ltpipe-code 1')", path);
				goto fail;
			}
			continue;
		}
		char *sp = strchr(line, ' ');
		size_t pieces = (size_t)got / piece + 1;
		if (n + (size_t)got + pieces * 24 + 2 > cap) {
			size_t nc = cap ? cap : 65536;
			while (nc < n + (size_t)got + pieces * 24 + 2)
				nc *= 2;
			char *no = realloc(out, nc);
			if (!no) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			out = no;
			cap = nc;
		}
		if ((size_t)got <= piece || !sp || line[0] == '#') {
			/* The daemon checks the syntax (and names the line). */
			memcpy(out + n, line, (size_t)got);
			n += (size_t)got;
			if (line[got - 1] != '\n')
				out[n++] = '\n';
			continue;
		}
		uint64_t addr = strtoull(line, NULL, 16);
		const char *hex = sp + 1;
		size_t nhex = strcspn(hex, "\r\n");
		for (size_t k = 0; k < nhex; k += piece) {
			size_t m = nhex - k < piece ? nhex - k : piece;
			n += (size_t)sprintf(out + n, "%" PRIx64 " ",
			                     addr + k / 2);
			memcpy(out + n, hex + k, m);
			n += m;
			out[n++] = '\n';
		}
	}
	if (ferror(f) || lineno == 0) {
		snprintf(err, errlen, "%s: %s", path, lineno ? "read error" :
		         "empty file (expected 'ltpipe-code 1')");
		goto fail;
	}
	free(line);
	fclose(f);
	*len = n;
	return out ? out : strdup("");
fail:
	free(line);
	free(out);
	fclose(f);
	return NULL;
}

int lt_cli_send(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"to", required_argument, 0, 't'},
		{"session", required_argument, 0, 's'},
		{"elf", required_argument, 0, 'e'},
		{"build-id", required_argument, 0, 'B'},
		{"format", required_argument, 0, 'f'},
		{"mode", required_argument, 0, 'm'},
		{"bp-entries", required_argument, 0, 'b'},
		{"addr-bits", required_argument, 0, 'a'},
		{"hart", required_argument, 0, 'H'},
		{"receiver", required_argument, 0, 'r'},
		{"zstd", optional_argument, 0, 'z'},
		{"code", required_argument, 0, 'c'},
		{"quiet", no_argument, 0, 'q'},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	struct lt_sink_options o;
	memset(&o, 0, sizeof(o));
	const char *to = "unix:ltpipe.sock", *recv[LT_PROTO_MAX_RECV];
	const char *code_path = NULL;
	const char *elf_more[LT_PROTO_MAX_ELF - 1];
	uint8_t bid[LT_PROTO_MAX_BUILD_ID];
	char name[LT_PROTO_MAX_NAME + 1];
	int quiet = 0, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "r:qh", longopts, NULL)) != -1) {
		int bad = 0;
		switch (c) {
		case 't': to = optarg; break;
		case 's': o.session = optarg; break;
		case 'e':
			if (!o.elf) {
				o.elf = optarg;
			} else if (o.nelf_more == LT_PROTO_MAX_ELF - 1) {
				fprintf(stderr, "ltpipe send: at most %u --elf\n",
				        LT_PROTO_MAX_ELF);
				return 1;
			} else {
				elf_more[o.nelf_more++] = optarg;
			}
			break;
		case 'B':
			bad = parse_hex(optarg, bid, &o.build_id_len);
			o.build_id = bid;
			break;
		case 'f': o.format = optarg; break;
		case 'm': o.mode = optarg; break;
		case 'b': bad = parse_u(optarg, 1u << 30, &o.bp_entries); break;
		case 'a': bad = parse_u(optarg, 64, &o.addr_bits); break;
		case 'H': bad = parse_u(optarg, 65535, &o.hart); break;
		case 'r':
			if (o.nreceivers == LT_PROTO_MAX_RECV) {
				fprintf(stderr, "ltpipe send: at most %u receivers\n",
				        LT_PROTO_MAX_RECV);
				return 1;
			}
			recv[o.nreceivers++] = optarg;
			break;
		case 'z':
			o.zstd_level = 3;
			if (optarg) {
				uint32_t l;
				bad = parse_u(optarg, 22, &l) || l == 0;
				o.zstd_level = (int)l;
			}
			break;
		case 'q': quiet = 1; break;
		case 'c': code_path = optarg; break;
		case 'h':
			send_usage(stdout);
			return 0;
		default:
			send_usage(stderr);
			return 1;
		}
		if (bad) {
			fprintf(stderr, "ltpipe send: bad value '%s' for %s\n",
			        optarg, argv[optind - 1]);
			return 1;
		}
	}
	if (optind + 1 != argc || (!o.elf && !o.build_id_len)) {
		fprintf(stderr, "ltpipe send: need --elf PROG (or --build-id) and "
		        "exactly one TRACE (see ltpipe send --help)\n");
		return 1;
	}
	const char *path = argv[optind];
	if (!o.session) {
		default_name(path, name, sizeof(name));
		o.session = name;
	}
	o.receivers = recv;
	o.elf_more = elf_more;
	char err[LT_PROTO_MAX_MSG + 256];
	char *code = NULL;
	size_t code_len = 0;
	if (code_path) {
		code = read_code_map(code_path, &code_len, err, sizeof(err));
		if (!code) {
			fprintf(stderr, "ltpipe send: %s\n", err);
			return 2;
		}
		o.code_map = 1;
	}
	struct lt_input *in;
	if (lt_input_open(&in, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "ltpipe: %s\n", err);
		free(code);
		return 2;
	}
	struct lt_sink *s;
	if (lt_sink_open(&s, to, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "ltpipe send: %s\n", err);
		lt_input_close(in);
		free(code);
		return strstr(err, "daemon:") ? 4 : 2;
	}
	int rc = 0;
	/* The whole map first: it holds where the program ran, needed
	 * before the first trace byte. A failure shows at close. */
	if (code_len)
		lt_sink_code(s, code, code_len);
	free(code);
	for (;;) {
		const uint8_t *chunk;
		ssize_t n = lt_input_read(in, &chunk);
		if (n < 0) {
			fprintf(stderr, "ltpipe: %s\n", lt_input_error(in));
			rc = 2;
			break;
		}
		if (n == 0 || lt_sink_write(s, chunk, (size_t)n) < 0)
			break;
	}
	lt_input_close(in);
	if (rc) {
		lt_sink_abort(s);
		return rc;
	}
	struct lt_proto_summary sum;
	if (lt_sink_close(s, &sum, err, sizeof(err)) < 0) {
		fprintf(stderr, "ltpipe send: %s\n", err);
		return 4;
	}
	if (!quiet)
		fprintf(stderr, "ltpipe send: session %s: %" PRIu64 " bytes, %"
		        PRIu64 " packets, %" PRIu64 " blocks, %" PRIu64
		        " instructions, %" PRIu64 " errors\n", o.session, sum.bytes,
		        sum.packets, sum.blocks, sum.insns, sum.errors);
	return sum.errors ? 3 : 0;
}
