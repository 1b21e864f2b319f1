#!/usr/bin/env python3
"""Bare-metal trap traces (ecall exceptions, timer interrupts, mret) from
qemu-system-riscv64 decode to exactly the executed pcs, in every format
variant and mode; the txt output carries one [exception] line per ecall and
one [interrupt] line per timer interrupt, each with its epc.

usage: check_baremetal.py LTPIPE BAREMETAL_DIR WORKDIR
"""
import os
import subprocess
import sys

CASES = [  # trace, truth, extra decode args
    ("bt.lt", "truth.pcs", []),
    ("bp.lt", "truth-bp.pcs", []),
    ("bt-tacit-oct2025.lt", "truth-bt-tacit-oct2025.pcs",
     ["--format", "tacit-oct2025"]),
    ("bt-tacit-2025.lt", "truth-bt-tacit-2025.pcs",
     ["--format", "tacit-2025"]),
    ("bt-tacit-2025-unshifted.lt", "truth-bt-tacit-2025-unshifted.pcs",
     ["--format", "tacit-2025-unshifted"]),
    ("bt-spike-2025.lt", "truth-bt-spike-2025.pcs",
     ["--format", "spike-2025"]),
    ("bp-spike-2025.lt", "truth-bp-spike-2025.pcs",
     ["--format", "spike-2025", "--mode", "bp"]),
    ("bt-spike-2025-02.lt", "truth-bt-spike-2025-02.pcs",
     ["--format", "spike-2025-02"]),
    # the sync's br_mode says BP: no --mode needed
    ("bp-spike-2025-02.lt", "truth-bp-spike-2025-02.pcs",
     ["--format", "spike-2025-02"]),
    # Spike 09418ad8: armed start sync, xor-before-from traps; its sync
    # says no mode
    ("bt-spike-armed.lt", "truth-bt-spike-armed.pcs",
     ["--format", "spike-armed"]),
    ("bp-spike-armed.lt", "truth-bp-spike-armed.pcs",
     ["--format", "spike-armed", "--mode", "bp"]),
    ("bt-periodic.lt", "truth-bt-periodic.pcs", []),
]


def main():
    ltpipe, d, work = sys.argv[1:4]
    elf = os.path.join(d, "prog.elf")
    fails = 0
    for trace, truth, extra in CASES:
        out = os.path.join(work, trace)
        os.makedirs(out, exist_ok=True)
        p = subprocess.run([ltpipe, "decode", "--elf", elf, "-o", out,
                            "-r", "txt"] + extra + [os.path.join(d, trace)],
                           capture_output=True, text=True)
        want = [int(l, 16) for l in open(os.path.join(d, truth))]
        got, exc, irq = [], 0, 0
        for line in open(os.path.join(out, "trace.txt")):
            if line.startswith("0x"):
                got.append(int(line[2:line.index(":")], 16))
            elif line.startswith("[exception"):
                exc += 1
            elif line.startswith("[interrupt"):
                irq += 1
        msg = ""
        if p.returncode != 0:
            msg = f"exit {p.returncode}: {p.stderr.strip()[-800:]}"
        elif got != want:
            i = next((k for k in range(min(len(got), len(want)))
                      if got[k] != want[k]), min(len(got), len(want)))
            msg = (f"{len(got)} decoded vs {len(want)} true pcs, first "
                   f"difference at #{i}")
        elif exc != 3 or irq != 8:
            msg = f"{exc} exceptions (want 3), {irq} interrupts (want 8: prog.c NTIMER)"
        print(("FAIL " if msg else "ok   ") + trace +
              (": " + msg if msg else f" ({len(want)} pcs, {exc} exceptions,"
               f" {irq} interrupts)"))
        fails += bool(msg)
    # A trace read as the wrong variant: its first sync's address is no
    # code, and the error says what to check.
    p = subprocess.run([ltpipe, "decode", "--elf", elf, "-o",
                        os.path.join(work, "wrongfmt"), "-r", "null",
                        os.path.join(d, "bt-spike-2025-02.lt")],
                       capture_output=True, text=True)
    msg = "" if (p.returncode == 3 and "offset 18: pc 0x" in p.stderr and
                 "wrong --format or --elf?" in p.stderr) else \
        f"exit {p.returncode}: {p.stderr.strip()[-400:]}"
    print(("FAIL " if msg else "ok   ") + "spike-2025-02 read as tacit" +
          (": " + msg if msg else " (first sync's address flagged)"))
    fails += bool(msg)
    print(f"{len(CASES) + 1 - fails} passed, {fails} failed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
