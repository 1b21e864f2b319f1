#!/usr/bin/env python3
"""Does gcc give each condition block its true edge first, as the gcno
lists its arcs? (gcda_srcarms.c relies on it for `?:` conditions.)

  gcc-true-edge.py WORKDIR PROGDIR...

Compiles the .c files of each PROGDIR (a corpus program's directory, or
a hunt program's) at -O1 and -O2 as the instrumented twins are built
(tests/corpus/gen.sh: -g -fno-partial-inlining -fprofile-arcs), dumping
the CFG the profiling pass numbers the arcs of (-fdump-ipa-profile-
blocks-details, before instrumentation) and what the early tail-recursion
pass did (-fdump-tree-tailr1-details: a self-recursive function's call in
tail position made a loop, its edges rebuilt). Prints each block ending
in `if (...)` whose first successor edge is not the TRUE_VALUE one, and
the counts for the functions tailr1 changed and for the others.

2026-11-22, riscv64-linux-gnu-gcc 12.2, the 131 corpus programs and the
hunt programs of seeds 726, 879, 895, 952 and 956-1000: 42
functions tail-recursive (-O2 only), 160 condition blocks, all true edge
first; 33 of 12129 other condition blocks false edge first, all tests gcc
made itself (switch conversion's range checks, a switch of one or two
cases lowered to `if`, atomic compare-exchange loops, isfinite's range
test), none a `?:`'s."""
import glob
import os
import re
import subprocess
import sys

CC = os.environ.get("CC_RISCV", "riscv64-linux-gnu-gcc")


def compile_all(work, progdir, opt):
    progdir = os.path.abspath(progdir)
    out = os.path.join(work, os.path.basename(progdir) + "-" + opt)
    os.makedirs(out, exist_ok=True)
    for c in sorted(glob.glob(os.path.join(progdir, "*.c"))):
        subprocess.run([CC, "-" + opt, "-g", "-fno-partial-inlining",
                        "-fprofile-arcs", "-I" + progdir,
                        "-fdump-ipa-profile-blocks-details",
                        "-fdump-tree-tailr1-details", "-c", c,
                        "-o", os.devnull], cwd=out, check=False,
                       capture_output=True)
    return out


def tail_recursive(out):
    """(unit, function) pairs whose tail recursion tailr1 eliminated."""
    found = set()
    for f in glob.glob(os.path.join(out, "*.tailr1")):
        unit, fn = os.path.basename(f).split(".c.")[0], None
        for line in open(f, errors="replace"):
            m = re.match(r";; Function (\S+)", line)
            if m:
                fn = m.group(1)
            if "Eliminated tail recursion" in line:
                found.add((unit, fn))
    return found


def check(out, rec, tot, bad):
    for path in glob.glob(os.path.join(out, "*.profile")):
        unit, fn = os.path.basename(path).split(".c.")[0], None
        bb2 = cond = False
        test = ""
        for line in open(path, errors="replace"):
            m = re.match(r";; Function (\S+)", line)
            if m:
                fn, bb2 = m.group(1), False
            if line.startswith(";;   basic block 2,"):
                if bb2:
                    break  # the bodies again, instrumented
                bb2 = True
            if re.match(r"\s+if \(", line):
                cond, test = True, line.strip()
                continue
            m = re.match(r";;\s+succ:\s+\S+.*\((.*)\)", line)
            if m and cond:
                k = (unit, fn) in rec
                tot[k] += 1
                if "TRUE_VALUE" not in m.group(1):
                    bad[k] += 1
                    print("false edge first: %s %s %s%s" % (
                        os.path.basename(out), fn, test[:70],
                        " (tail-recursive)" if k else ""))
            if line.startswith(";;    succ:"):
                cond = False


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    work = os.path.abspath(sys.argv[1])
    tot, bad, nrec = [0, 0], [0, 0], 0
    for d in sys.argv[2:]:
        for opt in ("O1", "O2"):
            out = compile_all(work, d, opt)
            rec = tail_recursive(out)
            nrec += len(rec)
            check(out, rec, tot, bad)
    print("tail-recursive functions %d: %d condition blocks, %d false edge "
          "first" % (nrec, tot[1], bad[1]))
    print("other functions: %d condition blocks, %d false edge first"
          % (tot[0], bad[0]))
    sys.exit(1 if bad[1] else 0)


main()
