#!/usr/bin/env python3
"""Checks one generated program's builds for scripts/gcda-hunt.sh.

  hunt_check.py LTPIPE LT_GCOV_DUMP MANIFEST WORKDIR

MANIFEST is the program's manifest.part written by tests/corpus/gen.sh
(one line per optimisation level, corpus.txt's format). Each build's bt
trace is decoded with `-r gcda` into WORKDIR/PROG-OPT and compared with
the instrumented twin's gcda through tests/gcda/check_gcda.py's functions.
Prints one line per finding:

  WRONG PROG OPT FUNCTION counter I: ours X twin Y   a counter the report
        claims (exact, or listed as determined) that differs: a defect
  O0DIFF PROG O0 FUNCTION counters [..] (STATUS)     -O0 counters that
        differ from the twin's; STATUS `unclaimed` when the report left
        them out of an inferred function's claims (a test gcc deleted in
        the plain build, check_gcda.py PARTIAL_O0, or a defect to look
        at), `claimed` otherwise (then WRONG lines follow too)
  FLOW PROG OPT FUNCTION: ...                         our counters are not
        flow-consistent (gcov would solve them wrong)
  FAIL PROG OPT: ...                                  ltpipe failed

and last one line `STATS PROG OPT claimed=C counters=N wrong=W` per build.
Exit status 0 when nothing but STATS was printed, else 1.
"""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import check_gcda as cg  # noqa: E402


def rows(manifest):
    out = []
    with open(manifest) as f:
        for line in f:
            p = line.split()
            if p and not line.startswith("#"):
                out.append(dict(prog=p[0], opt=p[1], dir=p[2], plain=p[3],
                                instr=p[4], bt=p[5], gcno=p[8].split(","),
                                gcda=p[9].split(",")))
    return out


CLAIM = re.compile(r"claim: \w+ (\S+) counter (\d+): ours (\S+), twin (\S+)")


def check(ltpipe, tool, row, work):
    """Prints the findings of one build; returns their number."""
    prog, opt = row["prog"], row["opt"]
    out = os.path.join(work, "%s-%s" % (prog, opt))
    shutil.rmtree(out, ignore_errors=True)
    try:
        cg.decode(ltpipe, row, out)
    except RuntimeError as e:
        print("FAIL %s %s: %s" % (prog, opt,
                                  (str(e).strip().splitlines() or ["?"])[-1]))
        return 1
    found = claimed = total = wrong = 0
    report = cg.report_claims(os.path.join(out, "gcda-report.txt"))
    for gcno, twin in zip(row["gcno"], row["gcda"]):
        ours = os.path.join(out, os.path.basename(gcno)[:-5] + ".gcda")
        _, _, tf = cg.dump(tool, twin)
        _, _, of = cg.dump(tool, ours)
        ga = cg.gcno_arcs(tool, gcno)
        ident_of = {v[0]: k for k, v in ga.items()}
        claims = report.get(gcno, [])
        for status, name, n, det, idx in claims:
            total += n
            claimed += n if status == "exact" else det
        for e in cg.claim_errors(claims, ident_of, of, tf):
            m = CLAIM.match(e)
            if m:
                print("WRONG %s %s %s counter %s: ours %s twin %s" %
                      ((prog, opt) + m.groups()))
            else:
                print("WRONG %s %s %s" % (prog, opt, e))
            wrong += 1
        by_name = {c[1]: c for c in claims}
        for ident, tv in tf.items():
            fname = ga.get(ident, ("?",))[0]
            ov = of.get(ident, [])
            if opt == "O0":
                diff = [i for i, (a, b) in enumerate(zip(ov, tv)) if a != b]
                if diff or len(ov) != len(tv):
                    c = by_name.get(fname)
                    unclaimed = (c is not None and c[0] == "inferred" and
                                 not set(diff) & set(c[4] or []))
                    print("O0DIFF %s %s %s counters %s (%s)" %
                          (prog, opt, fname, diff,
                           "unclaimed" if unclaimed else "claimed"))
                    found += 1
            if ident in ga:
                fe = cg.flow_errors(ga[ident][1], ov or [0] * len(tv))
                if fe:
                    print("FLOW %s %s %s: %s" % (prog, opt, fname,
                                                 ", ".join(fe[:3])))
                    found += 1
    print("STATS %s %s claimed=%d counters=%d wrong=%d" %
          (prog, opt, claimed, total, wrong))
    return found + wrong


def main():
    ltpipe, tool, manifest, work = sys.argv[1:5]
    bad = 0
    for row in rows(manifest):
        bad += check(ltpipe, tool, row, work)
    sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
