#!/usr/bin/env python3
"""gcda receiver in a session with several images.

  check_gcda_multi.py LTPIPE LT_GCOV_DUMP CORPUS_DIR WORKDIR [PROG...]

For every corpus program P at -O0 and -O2, decodes P's BT trace (user
mode) once with `--elf P` alone and once with an unrelated corpus program
O of the same level given FIRST under a selector the trace never matches:
`--elf O:prv=M --elf P:prv=U`. Both programs are linked at the same
addresses and share function names (main, libc), so mapping P's gcno onto
image 0 gives wrong (all-zero) counters. Asserts:
  - P's gcda files are byte-identical to the single-ELF ones;
  - P's ELF copied to another directory and decoded without gcno=
    finds P's gcno files in its units' DW_AT_comp_dir and writes the same
    gcda files (out=DIR/sub, created);
  - when O's gcno files are listed but O's ELF is not given, they are
    skipped with a message naming each (none of their source files is in
    P's DWARF) and P's gcda files are identical;
  - when O's gcno files are listed too (and their names do not collide
    with P's), each is written with every counter zero (O never ran) and
    the same functions as O's gcno, and P's gcda files are still identical.
O is the next program of the manifest; programs with a main.c also get
another such program as O (same relative source name and function main,
different full path).
"""
import os
import re
import shutil
import subprocess
import sys

from check_gcda import manifest  # the corpus manifest's rows


def decode(ltpipe, elfs, gcnos, bt, out):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    cmd = [ltpipe, "decode"]
    for e in elfs:
        cmd += ["--elf", e]
    cmd += ["-o", out, "-r", "gcda:gcno=%s,out=%s" % (":".join(gcnos), out),
            bt]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("ltpipe %s failed: %s" % (" ".join(cmd),
                                                     r.stderr))
    return r.stderr


def gcda_of(out, gcno):
    return os.path.join(out, os.path.basename(gcno)[:-5] + ".gcda")


def read(path):
    """The file's bytes, or None when it was not written."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def zero_gcda(tool, path, gcno):
    """'' if the gcda at path has gcno's functions, every counter zero."""
    want = set(int(m) for m in re.findall(
        r"function \S+ ident=(\d+)",
        subprocess.run([tool, gcno], check=True, capture_output=True,
                       text=True).stdout))
    out = subprocess.run([tool, path], check=True, capture_output=True,
                         text=True).stdout
    got = set(int(m) for m in re.findall(r"function ident=(\d+)", out))
    if got != want:
        return "functions %s, want %s" % (sorted(got), sorted(want))
    for m in re.finditer(r"counters arcs n=(\d+):?(.*)", out):
        if any(v != "0" for v in m.group(2).split() if v.isdigit()):
            return "nonzero counters: " + m.group(2)[:80]
    return ""


def main():
    ltpipe, tool, corpus, work = sys.argv[1:5]
    only = set(sys.argv[5:])
    rows = manifest(corpus)
    fails = checks = 0
    for opt in ("O0", "O2"):
        lv = [r for r in rows if r["opt"] == opt]
        mains = [r for r in lv if any(os.path.basename(g) == "main.gcno"
                                      for g in r["gcno"])]
        for i, row in enumerate(lv):
            if only and row["prog"] not in only:
                continue
            others = [lv[(i + 1) % len(lv)]]
            if row in mains and len(mains) > 1:
                others.append(mains[(mains.index(row) + 1) % len(mains)])
            base = os.path.join(work, "%s-%s" % (row["prog"], opt))
            one = base + "-single"
            decode(ltpipe, [row["plain"]], row["gcno"], row["bt"], one)
            want = {g: read(gcda_of(one, g)) for g in row["gcno"]}
            if None in want.values():
                raise RuntimeError("single-ELF decode of %s wrote no gcda"
                                   % base)
            # The ELF copied away from its build, no gcno= given: the
            # gcno files are found in its units' compilation directory.
            away = base + "-away"
            shutil.rmtree(away, ignore_errors=True)
            os.makedirs(away)
            elf = os.path.join(away, os.path.basename(row["plain"]))
            shutil.copy(row["plain"], elf)
            out = os.path.join(away, "out", "sub")
            cmd = [ltpipe, "decode", "--elf", elf, "-o", away, "-r",
                   "gcda:out=" + out, row["bt"]]
            r = subprocess.run(cmd, capture_output=True, text=True)
            bad = [] if r.returncode == 0 else ["exit %d: %s" % (
                r.returncode, r.stderr.strip())]
            bad += [os.path.basename(g) + ": differs from single-ELF"
                    for g in row["gcno"] if read(gcda_of(out, g)) != want[g]]
            checks += 1
            print("%-4s %s-%s copied away, gcno from DW_AT_comp_dir" % (
                "FAIL" if bad else "ok", row["prog"], opt))
            for b in bad:
                print("     " + b)
            fails += bool(bad)
            for o in others:
                elfs = [o["plain"] + ":prv=M", row["plain"] + ":prv=U"]
                names = set(os.path.basename(g) for g in row["gcno"])
                cases = [("", row["gcno"])]
                if not names & set(os.path.basename(g) for g in o["gcno"]):
                    cases.append(("+gcno", row["gcno"] + o["gcno"]))
                for tag, gcnos in cases:
                    out = "%s-with-%s%s" % (base, o["prog"], tag)
                    decode(ltpipe, elfs, gcnos, row["bt"], out)
                    bad = [os.path.basename(g) for g in row["gcno"]
                           if read(gcda_of(out, g)) != want[g]]
                    if bad:
                        bad = ["differs from single-ELF: " + ", ".join(bad)]
                    for g in gcnos[len(row["gcno"]):]:
                        if read(gcda_of(out, g)) is None:
                            bad.append(os.path.basename(g) + ": not written")
                            continue
                        e = zero_gcda(tool, gcda_of(out, g), g)
                        if e:
                            bad.append("%s: %s" % (os.path.basename(g), e))
                    checks += 1
                    name = "%s-%s with %s first%s" % (row["prog"], opt,
                                                      o["prog"], tag)
                    print("%-4s %s" % ("FAIL" if bad else "ok", name))
                    for b in bad:
                        print("     " + b)
                    fails += bool(bad)
                # O's gcno next to P's, O's ELF not given: O's gcno is
                # not part of the program (P's main must not take it).
                if len(cases) < 2:
                    continue
                out = "%s-unrelated-%s" % (base, o["prog"])
                err = decode(ltpipe, [row["plain"]], cases[1][1], row["bt"],
                             out)
                bad = [os.path.basename(g) + ": differs from single-ELF"
                       for g in row["gcno"]
                       if read(gcda_of(out, g)) != want[g]]
                for g in o["gcno"]:
                    if read(gcda_of(out, g)) is not None:
                        bad.append(os.path.basename(g) + ": written")
                    if "%s: not part of the traced program" % g not in err:
                        bad.append(os.path.basename(g) + ": no skip message")
                checks += 1
                print("%-4s %s-%s with %s's gcno, not its ELF" % (
                    "FAIL" if bad else "ok", row["prog"], opt, o["prog"]))
                for b in bad:
                    print("     " + b)
                fails += bool(bad)
    print("%d checks, %d failed" % (checks, fails))
    return 1 if fails or not checks else 0


if __name__ == "__main__":
    sys.exit(main())
