/* Packet parser vectors: every packet type of every variant, the worked
 * examples of LTRACE-FORMAT.md section 9, corrupt input, and the resumable
 * contract (each vector is fed whole, in two chunks at every split, in
 * three chunks at every pair of splits and one byte at a time, and must
 * give exactly the same packets and offsets every time). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/packet.h"

/* Marks an expected LT_ERR_BAD_PACKET in a list of expected packets. */
#define EV_ERR 0xEE

static int failures;

#define CHECK(cond, ...)                                                \
	do {                                                            \
		if (!(cond)) {                                          \
			failures++;                                     \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                   \
			fputc('\n', stderr);                            \
		}                                                       \
	} while (0)

/* Expected-packet builders. */
#define ERR(off) { .offset = (off), .type = EV_ERR, .size = 1 }
#define CP(off, t, v) \
	{ .offset = (off), .type = (t), .value = (v), .compressed = 1, .size = 1 }
#define FULL(off, t, v, sz) \
	{ .offset = (off), .type = (t), .value = (v), .size = (sz) }
#define UJ(off, x, dt, sz) \
	{ .offset = (off), .type = LT_PKT_UJ, .target = (x), .value = (dt), \
	  .size = (sz) }
/* tacit-2025 family sync: no prv/ctx/cfg */
#define SYNC25(off, tgt, t, sz) \
	{ .offset = (off), .type = LT_PKT_SYNC, .target = (tgt), .value = (t), \
	  .size = (sz) }
/* spike-2025-02 sync: br_mode as a cfg value (1024 entries) */
#define SYNCB(off, cf, tgt, t, sz) \
	{ .offset = (off), .type = LT_PKT_SYNC, .has_cfg = 1, .cfg = (cf), \
	  .target = (tgt), .value = (t), .size = (sz) }
/* spike-armed sync: ctx, from and from ^ xor */
#define SYNCA(off, st, cx, fa, tgt, t, sz) \
	{ .offset = (off), .type = LT_PKT_SYNC, .subtype = (st), .has_ctx = 1, \
	  .ctx = (cx), .has_from = 1, .from = (fa), .target = (tgt), \
	  .value = (t), .size = (sz) }
/* tacit sync with cfg */
#define SYNCC(off, st, to, fr, cx, cf, tgt, t, sz) \
	{ .offset = (off), .type = LT_PKT_SYNC, .subtype = (st), .has_prv = 1, \
	  .to_prv = (to), .from_prv = (fr), .has_ctx = 1, .ctx = (cx), \
	  .has_cfg = 1, .cfg = (cf), .target = (tgt), .value = (t), .size = (sz) }
/* tacit sync without cfg (tacit-oct2025 non-start) */
#define SYNCN(off, st, to, fr, cx, tgt, t, sz) \
	{ .offset = (off), .type = LT_PKT_SYNC, .subtype = (st), .has_prv = 1, \
	  .to_prv = (to), .from_prv = (fr), .has_ctx = 1, .ctx = (cx), \
	  .target = (tgt), .value = (t), .size = (sz) }
/* tacit trap, no ctx */
#define TRAPP(off, tt, to, fr, fa, x, dt, sz) \
	{ .offset = (off), .type = LT_PKT_TRAP, .subtype = (tt), .has_prv = 1, \
	  .to_prv = (to), .from_prv = (fr), .has_from = 1, .from = (fa), \
	  .target = (x), .value = (dt), .size = (sz) }
/* tacit trap with ctx (return to U) */
#define TRAPC(off, tt, to, fr, cx, fa, x, dt, sz) \
	{ .offset = (off), .type = LT_PKT_TRAP, .subtype = (tt), .has_prv = 1, \
	  .to_prv = (to), .from_prv = (fr), .has_ctx = 1, .ctx = (cx), \
	  .has_from = 1, .from = (fa), .target = (x), .value = (dt), \
	  .size = (sz) }
/* tacit-2025 family trap with from-address */
#define TRAP25(off, tt, fa, x, dt, sz) \
	{ .offset = (off), .type = LT_PKT_TRAP, .subtype = (tt), .has_from = 1, \
	  .from = (fa), .target = (x), .value = (dt), .size = (sz) }
/* spike-2025 trap: one address */
#define TRAPS(off, tt, x, dt, sz) \
	{ .offset = (off), .type = LT_PKT_TRAP, .subtype = (tt), .target = (x), \
	  .value = (dt), .size = (sz) }

enum { TB = LT_PKT_TB, NT = LT_PKT_NT, IJ = LT_PKT_IJ };
enum { EXC = LT_TRAP_EXCEPTION, INT = LT_TRAP_INTERRUPT, RET = LT_TRAP_RETURN };
enum { U = LT_PRV_U, S = LT_PRV_S, M = LT_PRV_M };

#define MAXEV 64

/* One test vector: bytes, the format to parse them with, and the result. */
struct vec {
	const char *name;         /* shown on failure */
	int fmt;                  /* lt_parser_init format */
	const char *hex;          /* input bytes, hex pairs, spaces ignored */
	struct lt_packet want[MAXEV]; /* expected packets / EV_ERR entries */
	int final_fmt;            /* p.format after the last byte */
	int pending;              /* bytes left in part[] at the end */
};

/* clang-format off */
static const struct vec vecs[] = {
/* ---- section 9, example 1 ---- */
{ "ex1 tacit-2025", LT_FMT_TACIT_2025,
  "16 00 00 00 00 84 E4  14 15 07  0A 1A 81 DC  16 1A 00 00 00 84 4D 81",
  { SYNC25(0, 0x80000000, 100, 7), CP(7, TB, 5), CP(8, NT, 5), CP(9, IJ, 1),
    UJ(10, 0x134, 92, 4), SYNC25(14, 0x80000034, 205, 8) },
  LT_FMT_TACIT_2025, 0 },
{ "ex1 legacy column, auto", LT_FMT_AUTO,
  "16 00 00 00 00 84 E4  14 15 07  0A 1A 81 DC  16 1A 00 00 00 84 4D 81",
  { SYNC25(0, 0x80000000, 100, 7), CP(7, TB, 5), CP(8, NT, 5), CP(9, IJ, 1),
    UJ(10, 0x134, 92, 4), SYNC25(14, 0x80000034, 205, 8) },
  LT_FMT_TACIT_2025, 0 },
{ "ex1 legacy column, tacit-2025-unshifted", LT_FMT_TACIT_2025_UNSHIFTED,
  "16 00 00 00 00 84 E4  14 15 07  0A 1A 81 DC  16 1A 00 00 00 84 4D 81",
  { SYNC25(0, 0x80000000, 100, 7), CP(7, TB, 5), CP(8, NT, 5), CP(9, IJ, 1),
    UJ(10, 0x134, 92, 4), SYNC25(14, 0x80000034, 205, 8) },
  LT_FMT_TACIT_2025_UNSHIFTED, 0 },
{ "ex1 legacy column, spike-2025", LT_FMT_SPIKE_2025,
  "16 00 00 00 00 84 E4  14 15 07  0A 1A 81 DC  16 1A 00 00 00 84 4D 81",
  { SYNC25(0, 0x80000000, 100, 7), CP(7, TB, 5), CP(8, NT, 5), CP(9, IJ, 1),
    UJ(10, 0x134, 92, 4), SYNC25(14, 0x80000034, 205, 8) },
  LT_FMT_SPIKE_2025, 0 },
{ "ex1 tacit", LT_FMT_TACIT,
  "36 98 80 90 00 00 00 00 84 E4  14 15 07  0A 1A 81 DC"
  "76 98 80 90 1A 00 00 00 84 4D 81",
  { SYNCC(0, LT_SYNC_START, M, U, 0, 0x10, 0x80000000, 100, 10),
    CP(10, TB, 5), CP(11, NT, 5), CP(12, IJ, 1), UJ(13, 0x134, 92, 4),
    SYNCC(17, LT_SYNC_END, M, U, 0, 0x10, 0x80000034, 205, 11) },
  LT_FMT_TACIT, 0 },
{ "ex1 current column, auto", LT_FMT_AUTO,
  "36 98 80 90 00 00 00 00 84 E4  14 15 07  0A 1A 81 DC"
  "76 98 80 90 1A 00 00 00 84 4D 81",
  { SYNCC(0, LT_SYNC_START, M, U, 0, 0x10, 0x80000000, 100, 10),
    CP(10, TB, 5), CP(11, NT, 5), CP(12, IJ, 1), UJ(13, 0x134, 92, 4),
    SYNCC(17, LT_SYNC_END, M, U, 0, 0x10, 0x80000034, 205, 11) },
  LT_FMT_TACIT, 0 },
{ "ex1 tacit-oct2025 (end sync without cfg)", LT_FMT_TACIT_OCT2025,
  "36 98 80 90 00 00 00 00 84 E4  14 15 07  0A 1A 81 DC"
  "76 98 80 1A 00 00 00 84 4D 81",
  { SYNCC(0, LT_SYNC_START, M, U, 0, 0x10, 0x80000000, 100, 10),
    CP(10, TB, 5), CP(11, NT, 5), CP(12, IJ, 1), UJ(13, 0x134, 92, 4),
    SYNCN(17, LT_SYNC_END, M, U, 0, 0x80000034, 205, 10) },
  LT_FMT_TACIT_OCT2025, 0 },

/* ---- example 2: varint sizes and full fallback (same in every format) ---- */
{ "ex2 tacit", LT_FMT_TACIT, "02 C0  FC  06 2C 82  0E 00 00 81  02 BF",
  { FULL(0, TB, 64, 2), CP(2, TB, 63), FULL(3, NT, 300, 3),
    FULL(6, IJ, 16384, 4), FULL(10, TB, 63, 2) }, LT_FMT_TACIT, 0 },
{ "ex2 tacit-oct2025", LT_FMT_TACIT_OCT2025,
  "02 C0  FC  06 2C 82  0E 00 00 81  02 BF",
  { FULL(0, TB, 64, 2), CP(2, TB, 63), FULL(3, NT, 300, 3),
    FULL(6, IJ, 16384, 4), FULL(10, TB, 63, 2) }, LT_FMT_TACIT_OCT2025, 0 },
{ "ex2 tacit-2025", LT_FMT_TACIT_2025,
  "02 C0  FC  06 2C 82  0E 00 00 81  02 BF",
  { FULL(0, TB, 64, 2), CP(2, TB, 63), FULL(3, NT, 300, 3),
    FULL(6, IJ, 16384, 4), FULL(10, TB, 63, 2) }, LT_FMT_TACIT_2025, 0 },
{ "ex2 tacit-2025-unshifted", LT_FMT_TACIT_2025_UNSHIFTED,
  "02 C0  FC  06 2C 82  0E 00 00 81  02 BF",
  { FULL(0, TB, 64, 2), CP(2, TB, 63), FULL(3, NT, 300, 3),
    FULL(6, IJ, 16384, 4), FULL(10, TB, 63, 2) },
  LT_FMT_TACIT_2025_UNSHIFTED, 0 },
{ "ex2 spike-2025", LT_FMT_SPIKE_2025,
  "02 C0  FC  06 2C 82  0E 00 00 81  02 BF",
  { FULL(0, TB, 64, 2), CP(2, TB, 63), FULL(3, NT, 300, 3),
    FULL(6, IJ, 16384, 4), FULL(10, TB, 63, 2) }, LT_FMT_SPIKE_2025, 0 },
{ "ex2 auto stays unresolved without a sync", LT_FMT_AUTO,
  "02 C0  FC  06 2C 82  0E 00 00 81  02 BF",
  { FULL(0, TB, 64, 2), CP(2, TB, 63), FULL(3, NT, 300, 3),
    FULL(6, IJ, 16384, 4), FULL(10, TB, 63, 2) }, LT_FMT_AUTO, 0 },

/* ---- example 3: exception and mret in every variant ---- */
{ "ex3 tacit-2025-unshifted", LT_FMT_TACIT_2025_UNSHIFTED,
  "32 04 04 00 00 88 02 86 8F  92 10 08 00 00 88 0C 86 99",
  { TRAP25(0, EXC, 0x80000204, 0x604, 15, 9),
    TRAP25(9, RET, 0x80000410, 0x618, 25, 9) },
  LT_FMT_TACIT_2025_UNSHIFTED, 0 },
{ "ex3 tacit-2025", LT_FMT_TACIT_2025,
  "32 02 02 00 00 84 02 86 8F  92 08 04 00 00 84 0C 86 99",
  { TRAP25(0, EXC, 0x80000204, 0x604, 15, 9),
    TRAP25(9, RET, 0x80000410, 0x618, 25, 9) }, LT_FMT_TACIT_2025, 0 },
{ "ex3 tacit", LT_FMT_TACIT,
  "32 9B 02 02 00 00 84 02 86 8F  92 9B 08 04 00 00 84 0C 86 99"
  "92 83 85 08 04 00 00 84 0C 86 99",
  { TRAPP(0, EXC, M, M, 0x80000204, 0x604, 15, 10),
    TRAPP(10, RET, M, M, 0x80000410, 0x618, 25, 10),
    TRAPC(20, RET, U, M, 5, 0x80000410, 0x618, 25, 11) }, LT_FMT_TACIT, 0 },
{ "ex3 tacit-oct2025", LT_FMT_TACIT_OCT2025,
  "32 9B 02 02 00 00 84 02 86 8F  92 9B 08 04 00 00 84 0C 86 99"
  "92 83 85 08 04 00 00 84 0C 86 99",
  { TRAPP(0, EXC, M, M, 0x80000204, 0x604, 15, 10),
    TRAPP(10, RET, M, M, 0x80000410, 0x618, 25, 10),
    TRAPC(20, RET, U, M, 5, 0x80000410, 0x618, 25, 11) },
  LT_FMT_TACIT_OCT2025, 0 },
{ "ex3 spike-2025", LT_FMT_SPIKE_2025, "32 02 86 8F  92 0C 86 99",
  { TRAPS(0, EXC, 0x604, 15, 4), TRAPS(4, RET, 0x618, 25, 4) },
  LT_FMT_SPIKE_2025, 0 },

/* ---- example 4: BP mode ---- */
{ "ex4 tacit", LT_FMT_TACIT,
  "36 98 80 92 00 01 00 00 84 E4  09 08 08 19  0A 14 81 82",
  { SYNCC(0, LT_SYNC_START, M, U, 0, 0x12, 0x80000100, 100, 10),
    CP(10, NT, 2), CP(11, TB, 2), CP(12, TB, 2), CP(13, NT, 6),
    UJ(14, 0x128, 2, 4) }, LT_FMT_TACIT, 0 },
/* ---- example 5: parallel encoder ---- */
{ "ex5 tacit", LT_FMT_TACIT, "36 98 80 80 81 82  29 00 0A E0 82",
  { SYNCC(0, LT_SYNC_START, M, U, 0, 0, 2, 2, 6),
    CP(6, NT, 10), CP(7, TB, 0), UJ(8, 0xC0, 2, 3) }, LT_FMT_TACIT, 0 },

/* ---- varints ---- */
{ "varint 10 bytes, 64-bit max", LT_FMT_TACIT,
  "02 7F 7F 7F 7F 7F 7F 7F 7F 7F 81  06 80",
  { FULL(0, TB, UINT64_MAX, 11), FULL(11, NT, 0, 2) }, LT_FMT_TACIT, 0 },
{ "varint 10th byte: bits above 64 dropped", LT_FMT_TACIT_2025,
  "0E 00 00 00 00 00 00 00 00 00 FF",
  { FULL(0, IJ, 0x8000000000000000ull, 11) }, LT_FMT_TACIT_2025, 0 },
{ "UJ 64-bit xor, shifted", LT_FMT_SPIKE_2025,
  "0A 7F 7F 7F 7F 7F 7F 7F 7F FF 80",
  { UJ(0, 0xFFFFFFFFFFFFFFFEull, 0, 11) }, LT_FMT_SPIKE_2025, 0 },
{ "sync 64-bit target and time", LT_FMT_TACIT_2025,
  "16 7F 7F 7F 7F 7F 7F 7F 7F FF  7F 7F 7F 7F 7F 7F 7F 7F 7F 81",
  { SYNC25(0, 0xFFFFFFFFFFFFFFFEull, UINT64_MAX, 20) },
  LT_FMT_TACIT_2025, 0 },
{ "longest packet: trap, ret to U, 4 x 10-byte varints", LT_FMT_TACIT,
  "92 80  7F 7F 7F 7F 7F 7F 7F 7F 7F 81  7F 7F 7F 7F 7F 7F 7F 7F 7F 80"
  "00 00 00 00 00 00 00 00 00 81  7F 7F 7F 7F 7F 7F 7F 7F 7F 81",
  { TRAPC(0, RET, U, U, UINT64_MAX, 0xFFFFFFFFFFFFFFFEull, 0, UINT64_MAX,
	  42) }, LT_FMT_TACIT, 0 },

/* ---- trap layouts: prv, ctx only on return to U, from shifts ---- */
{ "tacit traps: ctx only for return to U", LT_FMT_TACIT,
  "32 80 81 82 83  52 83 81 82 83  92 8B 81 82 83  92 83 7F 7F 83 81 82 83",
  { TRAPP(0, EXC, U, U, 2, 4, 3, 5), TRAPP(5, INT, U, M, 2, 4, 3, 5),
    TRAPP(10, RET, S, M, 2, 4, 3, 5),
    TRAPC(15, RET, U, M, 0xFFFF, 2, 4, 3, 8) }, LT_FMT_TACIT, 0 },
{ "tacit-2025 trap from shifted", LT_FMT_TACIT_2025, "32 81 82 83  52 81 82 83",
  { TRAP25(0, EXC, 2, 4, 3, 4), TRAP25(4, INT, 2, 4, 3, 4) },
  LT_FMT_TACIT_2025, 0 },
{ "tacit-2025-unshifted trap from raw", LT_FMT_TACIT_2025_UNSHIFTED,
  "32 81 82 83  92 81 82 83",
  { TRAP25(0, EXC, 1, 4, 3, 4), TRAP25(4, RET, 1, 4, 3, 4) },
  LT_FMT_TACIT_2025_UNSHIFTED, 0 },
{ "spike-2025 trap has no from", LT_FMT_SPIKE_2025, "52 81 82",
  { TRAPS(0, INT, 2, 2, 3) }, LT_FMT_SPIKE_2025, 0 },
{ "spike-2025-02 sync: br_mode, target, time; trap as spike-2025",
  LT_FMT_SPIKE_2025_02, "16 80 81 82  52 81 82  16 82 84 85",
  { SYNCB(0, 0x10, 2, 2, 4), TRAPS(4, INT, 2, 2, 3),
    SYNCB(7, 0x12, 8, 5, 4) }, LT_FMT_SPIKE_2025_02, 0 },
{ "spike-2025-02 br_mode above 3 is corrupt", LT_FMT_SPIKE_2025_02,
  "16 84 81 82", { ERR(0), CP(1, TB, 33), CP(2, NT, 32), ERR(3) },
  LT_FMT_SPIKE_2025_02, 0 },
{ "spike-2025-02 sync cut after br_mode waits for more",
  LT_FMT_SPIKE_2025_02, "16 82 81", { { 0 } }, LT_FMT_SPIKE_2025_02, 3 },
{ "spike-armed: start 0 (ctx, xor, from, time), trap xor before from, end 7",
  LT_FMT_SPIKE_ARMED, "16 83 82 84 87  32 81 82 83  F6 83 80 85 89",
  { SYNCA(0, LT_SYNC_START, 3, 8, 12, 7, 5), TRAP25(5, EXC, 4, 2, 3, 4),
    SYNCA(9, LT_SYNC_END, 3, 10, 10, 9, 5) }, LT_FMT_SPIKE_ARMED, 0 },
{ "spike-armed: sync types 2, 3 (ctx enter/exit) and 4 are corrupt",
  LT_FMT_SPIKE_ARMED, "56 76 96 16 80 80 80 80",
  { ERR(0), ERR(1), ERR(2), SYNCA(3, LT_SYNC_START, 0, 0, 0, 0, 5) },
  LT_FMT_SPIKE_ARMED, 0 },
{ "spike-armed sync cut after the xor waits for more",
  LT_FMT_SPIKE_ARMED, "16 82 81", { { 0 } }, LT_FMT_SPIKE_ARMED, 3 },

/* ---- sync subtypes and cfg presence ---- */
{ "tacit: cfg in every sync subtype", LT_FMT_TACIT,
  "16 98 80 FF 81 82  36 98 80 90 81 82  56 98 80 90 81 82  76 98 85 90 81 82",
  { SYNCC(0, LT_SYNC_NONE, M, U, 0, 0x7F, 2, 2, 6),
    SYNCC(6, LT_SYNC_START, M, U, 0, 0x10, 2, 2, 6),
    SYNCC(12, LT_SYNC_PERIODIC, M, U, 0, 0x10, 2, 2, 6),
    SYNCC(18, LT_SYNC_END, M, U, 5, 0x10, 2, 2, 6) }, LT_FMT_TACIT, 0 },
{ "tacit-oct2025: cfg only in the start sync", LT_FMT_TACIT_OCT2025,
  "16 98 80 81 82  36 98 80 90 81 82  56 98 80 81 82  76 98 85 81 82",
  { SYNCN(0, LT_SYNC_NONE, M, U, 0, 2, 2, 5),
    SYNCC(5, LT_SYNC_START, M, U, 0, 0x10, 2, 2, 6),
    SYNCN(11, LT_SYNC_PERIODIC, M, U, 0, 2, 2, 5),
    SYNCN(16, LT_SYNC_END, M, U, 5, 2, 2, 5) }, LT_FMT_TACIT_OCT2025, 0 },

/* ---- auto ---- */
{ "auto: packets before the first sync, then 0x16", LT_FMT_AUTO,
  "14 16 81 82", { CP(0, TB, 5), SYNC25(1, 2, 2, 3) }, LT_FMT_TACIT_2025, 0 },
{ "auto: trap layout guessed before any sync", LT_FMT_AUTO,
  "32 9B 81 82 83  32 02 02 00 00 84 02 86 8F",
  { TRAPP(0, EXC, M, M, 2, 4, 3, 5),
    TRAP25(5, EXC, 0x80000204, 0x604, 15, 9) },
  LT_FMT_AUTO, 0 },
{ "auto: 0x36 with a bad prv byte does not resolve", LT_FMT_AUTO,
  "36 18 80 90 81 82",
  { ERR(0), CP(1, TB, 6), CP(2, TB, 32), CP(3, TB, 36), CP(4, NT, 32),
    ERR(5) }, LT_FMT_AUTO, 0 },
{ "auto: resolved tacit-2025 rejects 0x36", LT_FMT_AUTO,
  "16 81 82  36 98 80 90 81 82",
  { SYNC25(0, 2, 2, 3), ERR(3), CP(4, TB, 38), CP(5, TB, 32),
    CP(6, TB, 36), CP(7, NT, 32), ERR(8) }, LT_FMT_TACIT_2025, 0 },
{ "auto: resolved tacit reads 0x16 with prv", LT_FMT_AUTO,
  "36 98 80 90 81 82  16 98 80 90 81 82",
  { SYNCC(0, LT_SYNC_START, M, U, 0, 0x10, 2, 2, 6),
    SYNCC(6, LT_SYNC_NONE, M, U, 0, 0x10, 2, 2, 6) }, LT_FMT_TACIT, 0 },

/* ---- corrupt input: one byte consumed, parsing continues ---- */
{ "F=110, F=111", LT_FMT_TACIT, "1A 80 1E 80",
  { ERR(0), CP(1, TB, 32), ERR(2), CP(3, TB, 32) }, LT_FMT_TACIT, 0 },
{ "func3 != 0 on TB/NT/UJ/IJ", LT_FMT_TACIT_2025, "22 80 26 80 EA 80 2E 80",
  { ERR(0), CP(1, TB, 32), ERR(2), CP(3, TB, 32), ERR(4), CP(5, TB, 32),
    ERR(6), CP(7, TB, 32) }, LT_FMT_TACIT_2025, 0 },
{ "trap types 0, 3, 5, 6, 7", LT_FMT_SPIKE_2025, "12 72 B2 D2 F2 80",
  { ERR(0), ERR(1), ERR(2), ERR(3), ERR(4), CP(5, TB, 32) },
  LT_FMT_SPIKE_2025, 0 },
{ "tacit sync subtypes 4..7", LT_FMT_TACIT, "96 B6 D6 F6 80",
  { ERR(0), ERR(1), ERR(2), ERR(3), CP(4, TB, 32) }, LT_FMT_TACIT, 0 },
{ "tacit-2025: sync subtypes other than 0", LT_FMT_TACIT_2025_UNSHIFTED,
  "36 56 76 96 80",
  { ERR(0), ERR(1), ERR(2), ERR(3), CP(4, TB, 32) },
  LT_FMT_TACIT_2025_UNSHIFTED, 0 },
{ "bad prv byte in a trap", LT_FMT_TACIT, "14 32 40 80 15",
  { CP(0, TB, 5), ERR(1), CP(2, TB, 16), CP(3, TB, 32), CP(4, NT, 5) },
  LT_FMT_TACIT, 0 },
{ "bad prv byte 0xC0 in a sync", LT_FMT_TACIT_OCT2025, "76 C0 80",
  { ERR(0), CP(1, TB, 48), CP(2, TB, 32) }, LT_FMT_TACIT_OCT2025, 0 },
{ "cfg byte without its terminator bit", LT_FMT_TACIT, "36 98 80 10 81 82",
  { ERR(0), CP(1, TB, 38), CP(2, TB, 32), CP(3, TB, 4), CP(4, NT, 32),
    ERR(5) }, LT_FMT_TACIT, 0 },
{ "11-byte varint", LT_FMT_TACIT, "02 00 00 00 00 00 00 00 00 00 00 81",
  { ERR(0), CP(1, TB, 0), CP(2, TB, 0), CP(3, TB, 0), CP(4, TB, 0),
    CP(5, TB, 0), CP(6, TB, 0), CP(7, TB, 0), CP(8, TB, 0), CP(9, TB, 0),
    CP(10, TB, 0), CP(11, NT, 32) }, LT_FMT_TACIT, 0 },
{ "10 varint bytes without a last byte is corrupt at once", LT_FMT_TACIT,
  "0E 00 00 00 00 00 00 00 00 00 00",
  { ERR(0), CP(1, TB, 0), CP(2, TB, 0), CP(3, TB, 0), CP(4, TB, 0),
    CP(5, TB, 0), CP(6, TB, 0), CP(7, TB, 0), CP(8, TB, 0), CP(9, TB, 0),
    CP(10, TB, 0) }, LT_FMT_TACIT, 0 },
{ "over-long varint in a sync target", LT_FMT_TACIT_2025,
  "16 00 00 00 00 00 00 00 00 00 00 80 80",
  { ERR(0), CP(1, TB, 0), CP(2, TB, 0), CP(3, TB, 0), CP(4, TB, 0),
    CP(5, TB, 0), CP(6, TB, 0), CP(7, TB, 0), CP(8, TB, 0), CP(9, TB, 0),
    CP(10, TB, 0), CP(11, TB, 32), CP(12, TB, 32) }, LT_FMT_TACIT_2025, 0 },
{ "corrupt header inside a valid packet's bytes", LT_FMT_TACIT_2025,
  "0A 1E 1E 81 81",
  { UJ(0, 0x9E3C, 1, 5) }, LT_FMT_TACIT_2025, 0 },

/* ---- truncated at the end ---- */
{ "truncated UJ", LT_FMT_TACIT, "14 0A 1A", { CP(0, TB, 5) },
  LT_FMT_TACIT, 2 },
{ "truncated sync after a corrupt byte", LT_FMT_TACIT, "1A 36 98 80",
  { ERR(0) }, LT_FMT_TACIT, 3 },
{ "nine varint bytes, no last byte yet: not an error", LT_FMT_TACIT,
  "02 00 00 00 00 00 00 00 00 00", { { .size = 0 } }, LT_FMT_TACIT, 10 },
};
/* clang-format on */

/* Parses hex pairs into out; returns the byte count. */
static size_t unhex(const char *s, uint8_t *out)
{
	size_t n = 0;

	while (*s) {
		unsigned v;

		if (*s == ' ') {
			s++;
			continue;
		}
		if (sscanf(s, "%2x", &v) != 1) {
			fprintf(stderr, "bad hex in vector: %s\n", s);
			exit(2);
		}
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

/* Collected parser output for one run. */
struct run {
	struct lt_packet ev[4096]; /* packets; errors have type EV_ERR */
	size_t n;                  /* entries used */
	int format;                /* parser format at the end */
	int pending;               /* lt_parser_pending at the end */
	unsigned part_len;         /* bytes in part[] at the end */
	uint64_t offset;           /* p.offset at the end */
};

/* Feeds `data` to a fresh parser in chunks ending at cuts[0..ncuts) (each
 * chunk copied to its own exact-size buffer, so a read past a chunk shows
 * under ASan) and records every result. Checks the per-call contract:
 * 0 only with *pos == len, 1 and errors always advance *pos. */
static void run_split(int fmt, const uint8_t *data, size_t len,
		      const size_t *cuts, size_t ncuts, struct run *out)
{
	struct lt_parser p;
	size_t start = 0, c;

	lt_parser_init(&p, fmt);
	out->n = 0;
	for (c = 0; c <= ncuts; c++) {
		size_t end = c < ncuts ? cuts[c] : len, clen = end - start;
		uint8_t *chunk = malloc(clen ? clen : 1);
		size_t pos = 0;

		memcpy(chunk, data + start, clen);
		for (;;) {
			struct lt_packet pkt;
			size_t before = pos;
			int r = lt_parser_next(&p, chunk, clen, &pos, &pkt);

			if (r == 0) {
				CHECK(pos == clen, "returned 0 with pos %zu < %zu",
				      pos, clen);
				break;
			}
			CHECK(r == 1 || r == LT_ERR_BAD_PACKET, "bad return %d", r);
			CHECK(pos >= before && pos <= clen, "pos went from %zu to %zu",
			      before, pos);
			if (r == LT_ERR_BAD_PACKET)
				pkt.type = EV_ERR;
			if (out->n < sizeof(out->ev) / sizeof(out->ev[0]))
				out->ev[out->n++] = pkt;
		}
		free(chunk);
		start = end;
	}
	out->format = p.format;
	out->pending = lt_parser_pending(&p);
	out->part_len = p.part_len;
	out->offset = p.offset;
}

/* Describes one packet for failure messages. */
static void show(const char *tag, const struct lt_packet *k)
{
	fprintf(stderr,
		"  %s: off=%llu type=%u sub=%u size=%u comp=%u prv=%u/%u/%u "
		"ctx=%u:%llx cfg=%u:%x from=%u:%llx target=%llx value=%llx\n",
		tag, (unsigned long long)k->offset, k->type, k->subtype, k->size,
		k->compressed, k->has_prv, k->to_prv, k->from_prv, k->has_ctx,
		(unsigned long long)k->ctx, k->has_cfg, k->cfg, k->has_from,
		(unsigned long long)k->from, (unsigned long long)k->target,
		(unsigned long long)k->value);
}

/* 1 if two packets agree in every field the contract defines. */
static int same(const struct lt_packet *a, const struct lt_packet *b)
{
	if (a->type == EV_ERR || b->type == EV_ERR)
		return a->type == b->type && a->offset == b->offset;
	return a->offset == b->offset && a->type == b->type &&
	       a->subtype == b->subtype && a->size == b->size &&
	       a->compressed == b->compressed && a->has_prv == b->has_prv &&
	       a->from_prv == b->from_prv && a->to_prv == b->to_prv &&
	       a->has_ctx == b->has_ctx && a->has_cfg == b->has_cfg &&
	       a->has_from == b->has_from && a->cfg == b->cfg &&
	       a->ctx == b->ctx && a->value == b->value && a->from == b->from &&
	       a->target == b->target;
}

/* Compares a run with a vector's expectation; `how` names the split. */
static void expect(const struct vec *v, const struct run *r, size_t len,
		   const char *how)
{
	size_t nwant = 0, i;

	while (nwant < MAXEV && v->want[nwant].size != 0)
		nwant++;
	if (r->n != nwant) {
		CHECK(0, "%s [%s]: %zu packets, want %zu", v->name, how, r->n,
		      nwant);
		for (i = 0; i < r->n; i++)
			show("got", &r->ev[i]);
		return;
	}
	for (i = 0; i < nwant; i++) {
		if (!same(&r->ev[i], &v->want[i])) {
			CHECK(0, "%s [%s]: packet %zu differs", v->name, how, i);
			show("got ", &r->ev[i]);
			show("want", &v->want[i]);
		}
	}
	CHECK(r->format == v->final_fmt, "%s [%s]: format %d, want %d",
	      v->name, how, r->format, v->final_fmt);
	CHECK(r->part_len == (unsigned)v->pending, "%s [%s]: %u pending, want %d",
	      v->name, how, r->part_len, v->pending);
	CHECK(r->pending == (v->pending != 0), "%s [%s]: lt_parser_pending",
	      v->name, how);
	CHECK(r->offset + r->part_len == len, "%s [%s]: offset %llu + %u != %zu",
	      v->name, how, (unsigned long long)r->offset, r->part_len, len);
}

static struct run g_run;

/* Runs one vector whole, at every split into 2 and 3 chunks, and one byte
 * at a time. Returns the number of runs. */
static unsigned test_vector(const struct vec *v)
{
	uint8_t data[256];
	size_t len = unhex(v->hex, data), cuts[256], i, j;
	char how[64];
	unsigned runs = 0;

	run_split(v->fmt, data, len, NULL, 0, &g_run);
	expect(v, &g_run, len, "whole");
	runs++;
	for (i = 0; i <= len; i++) {
		cuts[0] = i;
		run_split(v->fmt, data, len, cuts, 1, &g_run);
		snprintf(how, sizeof(how), "split at %zu", i);
		expect(v, &g_run, len, how);
		runs++;
		for (j = i; j <= len; j++) {
			cuts[1] = j;
			run_split(v->fmt, data, len, cuts, 2, &g_run);
			snprintf(how, sizeof(how), "split at %zu, %zu", i, j);
			expect(v, &g_run, len, how);
			runs++;
		}
	}
	for (i = 0; i < len; i++)
		cuts[i] = i + 1;
	run_split(v->fmt, data, len, cuts, len ? len - 1 : 0, &g_run);
	expect(v, &g_run, len, "byte at a time");
	return runs + 1;
}

/* Writes v as the inverted-flag varint of section 2; returns its length. */
static size_t put_varint(uint8_t *b, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = v & 0x7f;
		v >>= 7;
	}
	b[n++] = (uint8_t)(v | 0x80);
	return n;
}

/* Every varint length 1..10 at its smallest and largest value, in a full
 * NT packet and as a sync target, each at every split. */
static void test_varint_lengths(void)
{
	int k, which;

	for (k = 1; k <= 10; k++) {
		for (which = 0; which < 2; which++) {
			uint64_t lo = k == 1 ? 0 : 1ull << (7 * (k - 1));
			uint64_t hi = k == 10 ? UINT64_MAX : (1ull << (7 * k)) - 1;
			uint64_t val = which ? hi : lo;
			struct vec v = { .name = "varint length", .fmt = LT_FMT_TACIT };
			uint8_t b[64];
			char hex[200];
			size_t n = 0, i, vl;

			b[n++] = 0x06;
			vl = put_varint(b + n, val);
			CHECK(vl == (size_t)k, "encoder: %llx in %zu bytes, want %d",
			      (unsigned long long)val, vl, k);
			n += vl;
			b[n++] = 0x36;
			b[n++] = 0x9B;
			b[n++] = 0x80;
			b[n++] = 0x80;
			n += put_varint(b + n, val);
			n += put_varint(b + n, val);
			for (i = 0; i < n; i++)
				sprintf(hex + 2 * i, "%02X", b[i]);
			v.hex = hex;
			v.want[0] = (struct lt_packet)FULL(0, NT, val, 1 + k);
			v.want[1] = (struct lt_packet)SYNCC(
				1 + k, LT_SYNC_START, M, M, 0, 0, val << 1, val,
				4 + 2 * k);
			v.final_fmt = LT_FMT_TACIT;
			test_vector(&v);
		}
	}
}

/* Random streams (deterministic PRNG), biased towards full headers, parsed
 * whole and in random chunks: the results must be identical, every byte
 * accounted for (packet sizes + one per error + pending bytes = length). */
static void test_random_streams(void)
{
	static uint8_t data[20000];
	static struct run whole;
	uint64_t s = 0x9e3779b97f4a7c15ull;
	int fmt, round;

	for (fmt = 0; fmt <= LT_FMT_COUNT; fmt++) {
		int f = fmt == LT_FMT_COUNT ? LT_FMT_AUTO : fmt;

		for (round = 0; round < 8; round++) {
			size_t len = 1000 + round * 300, i, ncuts = 0, acc = 0;
			static size_t cuts[20000];

			for (i = 0; i < len; i++) {
				s ^= s << 13, s ^= s >> 7, s ^= s << 17;
				data[i] = (uint8_t)(s >> 24);
				if ((s & 7) < 3)
					data[i] = (data[i] & 0xe0) | 0x12 | (s & 0x4);
			}
			run_split(f, data, len, NULL, 0, &whole);
			for (i = 0; i < whole.n; i++) {
				CHECK(whole.ev[i].offset == acc,
				      "random: offset %llu, want %zu",
				      (unsigned long long)whole.ev[i].offset, acc);
				acc += whole.ev[i].size;
			}
			CHECK(acc + whole.part_len == len, "random: %zu + %u != %zu",
			      acc, whole.part_len, len);
			for (i = 0; i < len; i++) {
				s ^= s << 13, s ^= s >> 7, s ^= s << 17;
				if (s % (1 + round * 7) == 0)
					cuts[ncuts++] = i;
			}
			run_split(f, data, len, cuts, ncuts, &g_run);
			CHECK(g_run.n == whole.n && g_run.format == whole.format &&
			      g_run.part_len == whole.part_len,
			      "random fmt %d round %d: split run differs", f, round);
			for (i = 0; i < whole.n && i < g_run.n; i++)
				if (!same(&g_run.ev[i], &whole.ev[i])) {
					CHECK(0, "random: packet %zu differs", i);
					break;
				}
		}
	}
}

/* The --format names, both directions, and lt_errstr. */
static void test_names(void)
{
	static const char *const names[] = { "tacit", "tacit-oct2025",
					     "tacit-2025", "tacit-2025-unshifted",
					     "spike-2025", "spike-2025-02",
					     "spike-armed" };
	int i;

	for (i = 0; i < LT_FMT_COUNT; i++) {
		CHECK(lt_format_parse(names[i]) == i, "parse %s", names[i]);
		CHECK(strcmp(lt_format_name(i), names[i]) == 0, "name %d", i);
	}
	CHECK(lt_format_parse("auto") == LT_FMT_AUTO, "parse auto");
	CHECK(strcmp(lt_format_name(LT_FMT_AUTO), "auto") == 0, "name auto");
	CHECK(lt_format_parse("tacit2025") == LT_ERR_BAD_FORMAT, "bad name");
	CHECK(lt_format_parse("") == LT_ERR_BAD_FORMAT, "empty name");
	CHECK(lt_format_parse(NULL) == LT_ERR_BAD_FORMAT, "NULL name");
	CHECK(strcmp(lt_format_name(LT_FMT_COUNT), "?") == 0, "name COUNT");
	CHECK(strcmp(lt_format_name(-1), "?") == 0, "name -1");
	CHECK(strcmp(lt_errstr(LT_OK), "success") == 0, "errstr ok");
	CHECK(strcmp(lt_errstr(LT_ERR_BAD_PACKET), "corrupt trace packet") == 0,
	      "errstr bad packet");
	for (i = LT_ERR_ZSTD; i < 0; i++)
		CHECK(strcmp(lt_errstr(i), "unknown error") != 0, "errstr %d", i);
	CHECK(strcmp(lt_errstr(LT_ERR_ZSTD - 1), "unknown error") == 0,
	      "errstr out of range");
	CHECK(strcmp(lt_errstr(1), "unknown error") == 0, "errstr 1");
}

int main(void)
{
	size_t i;
	unsigned runs = 0;

	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++)
		runs += test_vector(&vecs[i]);
	test_varint_lengths();
	test_random_streams();
	test_names();
	if (failures) {
		fprintf(stderr, "%d failures\n", failures);
		return 1;
	}
	printf("ok: %zu vectors, %u runs\n", sizeof(vecs) / sizeof(vecs[0]), runs);
	return 0;
}
