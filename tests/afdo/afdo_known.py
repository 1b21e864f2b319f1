"""Per-program choices of the afdo gcc check (check_afdo.py): lines and
entries known to show gcc 12's reading rather than our counts."""

# Per program, a hot line (function, source line) whose count the gcc
# check looks for in -fdump-ipa-afdo: loop-body lines, not inlined, that
# are one straight run of machine code (the test checks that too).
# Programs without an entry get one picked from the truth (hot_line).
KNOWN_LINES = {
    # armjump has no plain line to compare: hot_line's pick, walk:41
    # (`} else if (b > 3u) {`, 287), shares its GIMPLE block with nothing
    # hotter, but gcc's propagation raises that block to 300, its
    # predecessor's; main's loop body is no single run (walk's call and
    # next()'s inlined code scheduled into it), and walk:46 runs part of
    # its code on the path jump threading made. Only its entry count is
    # compared.
    "armjump": None,
    "avltree": ("insert", 108),
    "bits": ("main", 85),
    "branchy": ("is_even", 55),
    # hot_line's pick, main:52 (60), shares its GIMPLE block with the join
    # of inlined m1's two returns, which gcc's propagation sets to the sum
    # of the arms: 27 + 37, where m1's `return x ^ q;` (line 24) reads 37,
    # the count of an instruction of that line the machine code runs on
    # more paths than the return's 33. The init loop's body is safe.
    "deadcopy": ("main", 49),
    "errpath": ("process", 127),
    "hdrinline": ("consume", 7),
    "fsm": ("main", 125),
    # hot_line's pick, main:46 (`g_arr[i] = rnd();`, 1280 in the truth),
    # shows 1360 in gcc's dump, 80 more: once per run of the outer loop's
    # body (not analysed further: found when the program was added);
    # walk's do-while body line `i++;` is one run.
    "foldcall": ("walk", 30),
    "funcptr": ("op_sub", 7),
    # gcc 12 leaves the recursive strong() unannotated (its dump shows
    # guessed counts whatever the line counts), so the hottest line,
    # strong:111, cannot be compared: scc's loop body instead.
    "graphs": ("scc", 145),
    "jumptable": ("run", 21),
    "libcalls": ("parse", 12),
    # hot_line's pick, find3:75 (`if (v[i] < 0)`, 5806), is alone in its
    # block, but the next line's `++steps` runs speculated above the
    # loop's exit test (half its pcs run 5818, the upper median), and
    # gcc's propagation raises line 75's block to its successor's 5818.
    "loopmix": ("grid_scan", 94),
    # passtest has no plain line to compare: hot_line's pick, run:58
    # (`total += r->from;`, 1565 in the truth), is alone in its GIMPLE
    # block, which gcc's dump shows at 3828, above its successor's 2000
    # (not analysed: found when the program was added); main's loop body
    # lines are no single runs (rnd's inlined code scheduled into them).
    # Only its entry count is compared.
    "passtest": None,
    "loops": ("main", 30),
    "multitu": ("poly_area2", 53),
    "qsort_cmp": ("by_key", 28),
    # hot_line's pick, words:23 (the two-line loop condition's first line,
    # 6336), is two GIMPLE blocks (reassoc's merged range tests: 4048 and
    # 2456 in gcc's dump); the loop body `s++` is one run.
    "rangeline": ("words", 25),
    "recursion": ("insert", 31),
    # The hottest line, crc8:66, is a rotated loop's `for` header: its
    # GIMPLE header block counts entries and iterations together.
    "ringbuf": ("crc8", 65),
    "samename": ("right_run", 19),
    # hot_line's own pick, wrap_sum:190 (`if (i < step)`, 1400), shares
    # its block only with line 189 (1400), but gcc's propagation raises
    # that block to 1402 to match its successor, the latch holding the
    # `for` header's increment, whose line 188 reads 1402 (header, test
    # and increment share the line). The do-while body's line is safe.
    "sched": ("wrap_sum", 195),
    # selpolar has no plain line to compare: hot_line's pick, rel:51
    # (`return x ^ q;`, 621), has pcs only on the else arm's way (the then
    # arm's value folded into a bare return with the closing brace's
    # line) while its GIMPLE statement sits in the join block (2400); f's
    # loop body is inlined helpers' code, and main:75 is no single run
    # (scheduled into line 74's). Only its entry count is compared.
    "selpolar": None,
    "setjmp": ("primary", 38),
    # softfloat has no plain line to compare: its straight runs are main's
    # ACCUM macro line 130 (a do-while with a break, whose blocks gcc's
    # propagation raises), line 120 (`usum += ui;`, 50 machine runs of
    # 100 source ones: gcc if-converted `d < 0 ? 0 : d` into it) and 109
    # (no block). Only its entry count is compared (as for compact code).
    "softfloat": None,
    # hot_line's pick, wrap_greedy:35, is a `for (;;)` with three breaks
    # on one line, whose blocks gcc's propagation raises.
    "textwrap": ("wrap_greedy", 39),
    "sorts": ("check", 96),
    "strings": ("main", 103),
}

# Per program, the function whose entry count the gcc check compares when
# the one with most calls cannot show it: a statement of an arm of the
# entry block's condition that the machine code runs speculated, above
# the branch, counts every call, and gcc's propagation sums the arms.
KNOWN_ENTRIES = {
    # flattened (1500 calls): inlined step_b's `return x - 100;` is
    # computed before the `x > 100` branch (1500, not 1197), so gcc's
    # entry block reads 1500 + 303.
    "clones": "fast_path",
    # spec (1057 calls): the `c == '\0'` arm's `f[0]` load and `'['`
    # (lines 22 and 23) run above the `c == '\0'` branch, on every call,
    # so gcc's entry block reads 1057 + 1057.
    "constcopy": "walk",
}
