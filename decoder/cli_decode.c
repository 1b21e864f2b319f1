/* `ltpipe decode`: batch-decode a trace file into receivers. */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ltpipe/error.h"
#include "ltpipe/session.h"
#include "trace_input.h"

#define MAX_ELFS 16

static void decode_usage(FILE *f)
{
	fprintf(f,
"usage: ltpipe decode --elf PROG[:prv=P,ctx=N] [options] TRACE...\n"
"\n"
"Decodes an L-trace (TACIT) file into the chosen receivers' outputs.\n"
"TRACE is a file, a zstd-compressed file (detected by its magic), or '-'\n"
"for standard input. Several TRACEs are the traces of one run's harts\n"
"(threads), e.g. the QEMU plugin's T.lt T.lt.hart1 ...: decoded one after\n"
"the other into the same receivers, so that a profile counts every\n"
"hart's work. A TRACE named *.hartN or *.hartN.zst is hart N; any other\n"
"is hart --hart plus its position among the TRACEs (0 for the first).\n"
"\n"
"options:\n"
"  --elf PROG[:prv=P,ctx=N]  program image (RISC-V ELF); repeatable: a\n"
"                         kernel or boot ROM plus programs, chosen by the\n"
"                         trace's privilege (P = U, S, M) and context id\n"
"  --code FILE            code that ran outside the ELF (signal trampoline,\n"
"                         shared libraries), as the QEMU plugin writes it;\n"
"                         default TRACE.code (of the first TRACE) when it\n"
"                         exists, 'none' for none\n"
"  --format VARIANT       tacit (default), tacit-oct2025, tacit-2025,\n"
"                         tacit-2025-unshifted, spike-2025,\n"
"                         spike-2025-02, spike-armed, or auto\n"
"  --mode bt|bp           branch-target or branch-prediction mode (default:\n"
"                         from the sync's cfg byte; bt for 2025 formats)\n"
"  --bp-entries N         predictor entries (default: from the cfg byte as\n"
"                         64 << k, else 1024)\n"
"  --addr-bits N          address width: 64 (default), 40 for Rocket Sv39,\n"
"                         32 for RV32\n"
"  --hart N               hart id stamped on the events (default 0; see\n"
"                         above for several TRACEs)\n"
"  -o, --out DIR          output directory (default: ltpipe-out)\n"
"  -r, --receiver NAME[:key=val,...]  add a receiver (repeatable; default\n"
"                         txt); NAME may be a path to a plugin .so\n"
"  -q, --quiet            no summary on stderr\n"
"\n"
"receivers:\n");
	for (const struct lt_receiver_ops *const *r = lt_receiver_list(); *r; r++)
		fprintf(f, "  %-6s %s\n", (*r)->name, (*r)->help);
	fprintf(f,
"\n"
"exit status: 0 decoded cleanly; 1 usage error; 2 unreadable trace or\n"
"program file; 3 decoded, but trace data was lost (corrupt or truncated\n"
"input, or packets that do not fit the program: see the summary); 4 an\n"
"output could not be written.\n");
}

static int parse_uint(const char *s, unsigned long long max,
                      unsigned long long *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || !*s || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The hart of the trace at `path`, the pos-th of several: N for a name
 * ending in ".hartN" or ".hartN.zst" (the QEMU plugin's names), else
 * base + pos. */
static unsigned trace_hart(const char *path, unsigned base, unsigned pos)
{
	unsigned hart;
	return lt_cli_hart_suffix(path, &hart) ? hart : base + pos;
}

/* Feeds the trace at `path` to s (with a progress line on a terminal
 * unless quiet). Returns 0, or 1 after a read error (reported). */
static int feed_trace(struct lt_session *s, struct lt_input *in,
                      const char *path, int quiet)
{
	int progress = isatty(2) && strcmp(path, "-") != 0 && !quiet;
	uint64_t total = lt_input_size(in);
	double t0 = now_s(), last = t0;
	int ioerr = 0;
	for (;;) {
		const uint8_t *chunk;
		ssize_t n = lt_input_read(in, &chunk);
		if (n < 0) {
			fprintf(stderr, "ltpipe: %s\n", lt_input_error(in));
			ioerr = 1;
			break;
		}
		if (n == 0)
			break;
		if (lt_session_feed(s, chunk, (size_t)n) < 0)
			break;
		if (progress) {
			double t = now_s();
			if (t - last > 0.5) {
				last = t;
				uint64_t done = lt_input_consumed(in);
				fprintf(stderr, "\rltpipe: %" PRIu64 " / %" PRIu64
				        " MiB (%d%%)", done >> 20, total >> 20,
				        total ? (int)(100 * done / total) : 0);
			}
		}
	}
	if (progress && last != t0)
		fprintf(stderr, "\r\033[K");
	return ioerr;
}

int lt_cli_decode(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"elf", required_argument, 0, 'e'},
		{"code", required_argument, 0, 'c'},
		{"format", required_argument, 0, 'f'},
		{"mode", required_argument, 0, 'm'},
		{"bp-entries", required_argument, 0, 'b'},
		{"addr-bits", required_argument, 0, 'a'},
		{"hart", required_argument, 0, 'H'},
		{"out", required_argument, 0, 'o'},
		{"receiver", required_argument, 0, 'r'},
		{"quiet", no_argument, 0, 'q'},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	struct lt_session_config sc;
	memset(&sc, 0, sizeof(sc));
	sc.fe.format = LT_FMT_TACIT;
	sc.fe.mode = LT_MODE_AUTO;
	sc.fe.addr_bits = 64;
	sc.outdir = "ltpipe-out";
	sc.name = "decode";
	char *elf_specs[MAX_ELFS];
	size_t nelf = 0;
	const char *code_path = NULL;
	int quiet = 0, c;
	unsigned long long v;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:r:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			code_path = optarg;
			break;
		case 'e':
			if (nelf == MAX_ELFS) {
				fprintf(stderr, "ltpipe decode: at most %d --elf\n",
				        MAX_ELFS);
				return 1;
			}
			elf_specs[nelf++] = optarg;
			break;
		case 'f':
			sc.fe.format = lt_format_parse(optarg);
			if (sc.fe.format < 0) {
				fprintf(stderr, "ltpipe decode: unknown --format "
				        "'%s' (see --help)\n", optarg);
				return 1;
			}
			break;
		case 'm':
			if (!strcmp(optarg, "bt"))
				sc.fe.mode = LT_MODE_BT;
			else if (!strcmp(optarg, "bp"))
				sc.fe.mode = LT_MODE_BP;
			else {
				fprintf(stderr, "ltpipe decode: --mode must be bt or "
				        "bp, not '%s'\n", optarg);
				return 1;
			}
			break;
		case 'b':
			if (parse_uint(optarg, 1u << 24, &v) || v < 1 ||
			    (v & (v - 1))) {
				fprintf(stderr, "ltpipe decode: --bp-entries must be "
				        "a power of two, not '%s'\n", optarg);
				return 1;
			}
			sc.fe.bp_entries = (uint32_t)v;
			break;
		case 'a':
			if (parse_uint(optarg, 64, &v) || v < 16) {
				fprintf(stderr, "ltpipe decode: --addr-bits must be "
				        "16..64, not '%s'\n", optarg);
				return 1;
			}
			sc.fe.addr_bits = (unsigned)v;
			break;
		case 'H':
			if (parse_uint(optarg, 65535, &v)) {
				fprintf(stderr, "ltpipe decode: bad --hart '%s'\n",
				        optarg);
				return 1;
			}
			sc.fe.hart = (uint16_t)v;
			break;
		case 'o':
			if (!strcmp(optarg, "-")) {
				fprintf(stderr, "ltpipe decode: -o takes a directory; "
				        "for standard output give one receiver "
				        "path=- (e.g. -r txt:path=-)\n");
				return 1;
			}
			sc.outdir = optarg;
			break;
		case 'r':
			if (sc.nrecv == LT_MAX_RECEIVERS) {
				fprintf(stderr, "ltpipe decode: at most %d receivers\n",
				        LT_MAX_RECEIVERS);
				return 1;
			}
			sc.recv[sc.nrecv++] = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			decode_usage(stdout);
			return 0;
		default:
			decode_usage(stderr);
			return 1;
		}
	}
	if (optind >= argc || nelf == 0) {
		fprintf(stderr, "ltpipe decode: need --elf PROG and a TRACE (see "
		        "ltpipe decode --help)\n");
		return 1;
	}
	const char *trace_path = argv[optind];
	int ntraces = argc - optind;
	unsigned hart0 = sc.fe.hart;
	for (int i = 1; i < ntraces; i++)
		if (!strcmp(argv[optind + i], "-")) {
			fprintf(stderr, "ltpipe decode: standard input ('-') can "
			        "only be the first TRACE\n");
			return 1;
		}
	if (sc.nrecv == 0)
		sc.recv[sc.nrecv++] = "txt";

	/* Load images. */
	struct lt_image_sel sel[MAX_ELFS];
	struct lt_image_set set = {sel, 0};
	struct lt_image *user_img = NULL, *first_img = NULL;
	char err[512];
	int rc = 0;
	for (size_t i = 0; i < nelf; i++) {
		char path[PATH_MAX];
		if (lt_image_spec_parse(elf_specs[i], path, sizeof(path),
		                        &sel[i].prv, &sel[i].ctx)) {
			fprintf(stderr, "ltpipe decode: bad --elf selector in '%s' "
			        "(expected PROG:prv=U|S|M,ctx=N)\n", elf_specs[i]);
			rc = 1;
			goto out;
		}
		struct lt_image *img;
		if (lt_image_load(&img, path, err, sizeof(err)) < 0) {
			fprintf(stderr, "ltpipe: %s\n", err);
			rc = 2;
			goto out;
		}
		sel[i].img = img;
		set.n++;
		if (!first_img)
			first_img = img;
		/* The code map goes to the first user-mode image. */
		if (!user_img && (sel[i].prv < 0 || sel[i].prv == LT_PRV_U))
			user_img = img;
	}
	if (!user_img)
		user_img = first_img;
	rc = lt_cli_load_codemap(user_img, code_path, trace_path, quiet);
	if (rc)
		goto out;
	sc.images = &set;

	/* Every trace is opened first: an unreadable one decodes nothing. */
	struct lt_input **ins = calloc((size_t)ntraces, sizeof(*ins));
	if (!ins) {
		fprintf(stderr, "ltpipe: out of memory\n");
		rc = 2;
		goto out;
	}
	for (int i = 0; i < ntraces; i++)
		if (lt_input_open(&ins[i], argv[optind + i], err,
		                  sizeof(err)) < 0) {
			fprintf(stderr, "ltpipe: %s\n", err);
			rc = 2;
			goto close_in;
		}
	sc.fe.hart = (uint16_t)trace_hart(trace_path, hart0, 0);
	if (mkdir(sc.outdir, 0755) != 0 &&
	    errno != EEXIST) {
		fprintf(stderr, "ltpipe: %s: cannot create output directory: %s\n",
		        sc.outdir, strerror(errno));
		rc = 4;
		goto close_in;
	}
	int code;
	struct lt_session *s = lt_session_open(&sc, &code, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "ltpipe: %s\n", err);
		rc = code == LT_ERR_IO ? 4 : 1;
		goto close_in;
	}
	int ioerr = 0, lost = 0;
	struct lt_decode_stats st;
	double t0 = now_s();
	const char *path = trace_path;
	for (int i = 0; i < ntraces; i++) {
		path = argv[optind + i];
		if (i) {
			unsigned h = trace_hart(path, hart0, (unsigned)i);
			if (lt_session_next(s, (uint16_t)h, &st, err,
			                    sizeof(err)) == LT_ERR_NOMEM) {
				fprintf(stderr, "ltpipe: %s\n", err);
				ioerr = 1;
				break;
			}
			lost |= st.errors != 0;
			if (!quiet)
				lt_print_summary(stderr, argv[optind + i - 1], &st,
				                 now_s() - t0);
			t0 = now_s();
		}
		ioerr |= feed_trace(s, ins[i], path, quiet);
		lt_input_close(ins[i]);
		ins[i] = NULL;
		if (ioerr)
			break;
	}
	rc = lt_session_close(s, ioerr, &st, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ltpipe: %s\n", err);
		rc = 4;
		goto close_in;
	}
	lost |= st.errors != 0;
	if (!quiet)
		lt_print_summary(stderr, path, &st, now_s() - t0);
	rc = ioerr ? 2 : (lost ? 3 : 0);
	if (!quiet)
		fprintf(stderr, "ltpipe: outputs in %s/\n", sc.outdir);
close_in:
	for (int i = 0; i < ntraces; i++)
		if (ins[i])
			lt_input_close(ins[i]);
	free(ins);
out:
	for (size_t i = 0; i < set.n; i++)
		lt_image_free((struct lt_image *)sel[i].img);
	return rc;
}
