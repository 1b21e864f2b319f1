#!/usr/bin/env python3
"""Corruption test: seeded random byte flips, deletions and insertions, one
mutation per decode, in BT and BP traces with periodic syncs.

Asserts for every mutated trace, decoded by the ASan+UBSan build:
  - no crash, no sanitizer report, no hang (timeout), exit status 0 or 3;
  - BT mode: every instruction decoded after the last resynchronisation
    ([lost] then a [start]/sync re-anchor) is exactly the tail of the true
    pc sequence, and the summary reports the loss (exit 3) when a [lost]
    line appears; an undetected mutation (exit 0) must still decode to
    exactly the truth unless it hit a branch outcome bit (then counted as
    'silent', which the format cannot detect: it has no checksum);
  - BP mode: the summary says the predictor state is unknowable after a
    loss.

usage: corrupt.py LTPIPE_ASAN PLUGIN ELF WORKDIR [RUNS]
"""
import os
import random
import subprocess
import sys


def run_plugin(plugin, elf, out, truth, args):
    cmd = ["qemu-riscv64", "-plugin",
           f"{plugin},out={out},truth={truth},{args}", elf]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                   env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})


def decode(ltpipe, elf, trace, outdir):
    os.makedirs(outdir, exist_ok=True)
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
    env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    p = subprocess.run([ltpipe, "decode", "--elf", elf, "-o", outdir,
                        "-r", "txt", trace], capture_output=True, text=True,
                       timeout=120, env=env)
    return p.returncode, p.stderr


def parse_txt(path):
    """Returns (all addresses, addresses after the last resync, saw_lost)."""
    addrs, tail, lost = [], None, False
    with open(path) as f:
        for line in f:
            if line.startswith("0x"):
                a = int(line[2:line.index(":")], 16)
                addrs.append(a)
                if tail is not None:
                    tail.append(a)
            elif line.startswith("[lost"):
                lost = True
                tail = None
            elif lost and (line.startswith("[start") or
                           line.startswith("[sync")):
                tail = []
    return addrs, tail, lost


def mutate(data, rng):
    data = bytearray(data)
    off = rng.randrange(len(data))
    kind = rng.choice(["flip", "delete", "insert"])
    if kind == "flip":
        data[off] ^= 1 << rng.randrange(8)
    elif kind == "delete":
        del data[off:off + rng.randint(1, 4)]
    else:
        data[off:off] = bytes(rng.randrange(256)
                              for _ in range(rng.randint(1, 4)))
    return bytes(data), f"{kind}@{off}"


def main():
    ltpipe, plugin, elf, work = sys.argv[1:5]
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 60
    os.makedirs(work, exist_ok=True)
    failures, stats = [], {"lost": 0, "silent": 0, "clean": 0}
    for mode in ("bt", "bp"):
        trace = os.path.join(work, f"{mode}.lt")
        truth_path = os.path.join(work, f"{mode}.pcs")
        run_plugin(plugin, elf, trace, truth_path,
                   f"mode={mode},periodic=500")
        truth = [int(l, 16) for l in open(truth_path)]
        data = open(trace, "rb").read()
        # The unmutated trace must decode exactly.
        rc, err = decode(ltpipe, elf, trace, os.path.join(work, "clean"))
        got, _, _ = parse_txt(os.path.join(work, "clean", "trace.txt"))
        if rc != 0 or got != truth:
            failures.append(f"{mode}: clean trace: rc {rc}, "
                            f"{len(got)} vs {len(truth)} pcs {err[-500:]}")
            continue
        rng = random.Random(1234 + (mode == "bp"))
        for i in range(runs):
            bad, what = mutate(data, rng)
            path = os.path.join(work, f"m-{mode}.lt")
            open(path, "wb").write(bad)
            out = os.path.join(work, f"m-{mode}")
            name = f"{mode} run {i} ({what})"
            try:
                rc, err = decode(ltpipe, elf, path, out)
            except subprocess.TimeoutExpired:
                failures.append(f"{name}: hang (timeout)")
                continue
            if rc not in (0, 3) or "Sanitizer" in err or "runtime error" in err:
                failures.append(f"{name}: exit {rc}: {err[-1500:]}")
                continue
            addrs, tail, lost = parse_txt(os.path.join(out, "trace.txt"))
            if lost and rc != 3:
                failures.append(f"{name}: [lost] in output but exit {rc}")
                continue
            if mode == "bp":
                if lost and "predictor state" not in err:
                    failures.append(f"{name}: BP loss not flagged")
                continue
            if tail is not None and tail and truth[-len(tail):] != tail:
                failures.append(f"{name}: blocks after the resync differ "
                                f"from the truth ({len(tail)} pcs)")
                continue
            if rc == 3:
                stats["lost"] += 1
            elif addrs == truth:
                stats["clean"] += 1
            else:
                stats["silent"] += 1
    for f in failures:
        print("FAIL", f)
    print(f"mutations: {stats['lost']} detected, {stats['clean']} harmless, "
          f"{stats['silent']} undetectable (branch outcome bits)")
    total = 2 * runs + 2
    print(f"{total - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
