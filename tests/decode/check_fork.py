#!/usr/bin/env python3
"""A program that forks, traced by the QEMU plugin (sinks/qemu/fork.c).
   check_fork.py LTPIPE PLUGIN.so LT_GCOV_DUMP FORKED.c EXECS.c OUTDIR

FORKED.c is built -O0 -static (check_threads.build) as the corpus builds its twins (plain with
-ftest-coverage, instrumented with -fprofile-arcs) and run under
qemu-riscv64 with the plugin (out=T.lt, truth=T.pcs) and QEMU's own log of
every executed pc (-singlestep -d exec,nochain), in the same run:
  - the child's trace and truth are its own files, T.lt.pidN and
    T.pcs.pidN, and the parent's have nothing of the child's;
  - each trace decodes to exactly its process's truth, exit 0; the child's
    starts at the instruction after the parent's fork ecall;
  - QEMU's log (both processes in one file, interleaved where they ran
    at once) holds exactly the two truths' pcs, each as often, and begins
    with the parent's pcs up to the fork;
  - decoding the parent's trace, then the child's with merge=1 (each
    process is a run, as each instrumented process merges its counters
    at exit) gives runs 2 and every counter of the instrumented run: the
    child counts only what it ran after the fork, `main` included, which
    its trace never entered (it begins inside fork).
EXECS.c forks a child that calls execve on a missing program (it fails,
the child goes on), works, then execs /bin/true, which replaces it (no
exit callback runs): the child's trace, written out at each execve (an
end sync at the failed one, a new segment after it), decodes to exactly
its truth, the parent's likewise,
zstd-compressed (out=T.lt.zst: a frame ended at each execve) as well.
At -O2 (check_o2) the child's main, resumed after the fork, is mapped with
one entry assumed, every other counter of the two runs equal.
"""
import collections
import glob
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "gcda"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_gcda import dump as gcda_dump  # noqa: E402

from check_threads import build, read_pcs, run, txt_pcs  # noqa: E402


def decode(ltpipe, elf, out, trace, recv):
    p = run([ltpipe, "decode", "-q", "--elf", elf, "-o", out, "-r", recv,
             trace], capture_output=True, text=True)
    assert p.returncode == 0, "decode %s: exit %d: %s" % (
        trace, p.returncode, p.stderr)


def check_execs(ltpipe, plugin, src, out, env):
    """EXECS.c's traces (raw and zstd), each exact against its truth."""
    d = os.path.join(out, "plain")
    build(d, src, ["-ftest-coverage"], "execs")
    elf = os.path.join(d, "execs")
    for name in ("t.lt", "t.lt.zst"):
        t, tp = os.path.join(out, name), os.path.join(out, name + ".pcs")
        p = run(env + ["-plugin", "%s,out=%s,truth=%s" % (plugin, t, tp),
                       "./execs"], cwd=d, capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        assert p.stdout == "child 30\nparent 20 0\n", p.stdout
        zst = ".zst" if t.endswith(".zst") else ""
        stem = t[:len(t) - len(zst)]
        kids = [k for k in glob.glob(stem + ".pid*")
                if re.fullmatch(r".*\.pid\d+" + re.escape(zst), k)]
        assert len(kids) == 1, kids
        pid = re.search(r"\.pid(\d+)", kids[0]).group(1)
        for trace, truth in ((t, tp), (kids[0], tp + ".pid" + pid)):
            o = os.path.join(out, "txt-" + os.path.basename(trace))
            decode(ltpipe, elf, o, trace, "txt")
            got = txt_pcs(os.path.join(o, "trace.txt"))
            want = read_pcs(truth)
            assert got == want, "%s: %d decoded pcs vs %d true" % (
                trace, len(got), len(want))


def check_o2(ltpipe, plugin, tool, src, out, env):
    """FORKED.c at -O2 (work inlined into main): main in the child's trace
    was never entered, only resumed after the fork; it must not read as
    never run. Its counts are inferred with one entry assumed: with the
    parent's run merged, every counter equals the instrumented twin's but
    for the two arcs from main's entry to the fork call (gcc 12's layout:
    counters 0 and 1), one more each (the twin's child counts from the
    fork on: its counters are reset there)."""
    plain, instr = os.path.join(out, "plain"), os.path.join(out, "instr")
    build(plain, src, ["-ftest-coverage", "-O2"], "forked")
    build(instr, src, ["-fprofile-arcs", "-ftest-coverage", "-O2"],
          "forked")
    p = run(env + ["./forked"], cwd=instr, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    t = os.path.join(out, "t.lt")
    p = run(env + ["-plugin", "%s,out=%s" % (plugin, t), "./forked"],
            cwd=plain, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    kids = glob.glob(t + ".pid*")
    assert len(kids) == 1, kids
    elf, g = os.path.join(plain, "forked"), os.path.join(out, "gcda")
    o = os.path.join(out, "o")
    for trace, merge in ((t, "0"), (kids[0], "1")):
        decode(ltpipe, elf, o, trace,
               "gcda:gcno=%s,out=%s,merge=%s" % (plain, g, merge))
    with open(os.path.join(o, "gcda-report.txt")) as f:
        report = f.read()
    assert re.search(r"inferred main .*a trace began inside it", report), \
        report
    runs, _, ours = gcda_dump(tool, os.path.join(g, "forked.gcda"))
    truns, _, twin = gcda_dump(tool, os.path.join(instr, "forked.gcda"))
    assert (runs, truns) == (2, 2), (runs, truns)
    assert ours.keys() == twin.keys() and len(ours) == 1, (ours, twin)
    (ident,) = ours
    diff = [(i, a - b) for i, (a, b) in
            enumerate(zip(ours[ident], twin[ident])) if a != b]
    assert len(ours[ident]) == len(twin[ident]) and \
        diff == [(0, 1), (1, 1)], (ours, twin)


def main():
    ltpipe, plugin, tool = (os.path.abspath(a) for a in sys.argv[1:4])
    src = os.path.abspath(sys.argv[4])
    execs_src = os.path.abspath(sys.argv[5])
    out = os.path.abspath(sys.argv[6])
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    plain, instr = os.path.join(out, "plain"), os.path.join(out, "instr")
    build(plain, src, ["-ftest-coverage"], "forked")
    build(instr, src, ["-fprofile-arcs", "-ftest-coverage"], "forked")
    env = ["env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "qemu-riscv64",
           "-seed", "1"]
    p = run(env + ["./forked"], cwd=instr, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    want_out = p.stdout
    t, tp = os.path.join(out, "t.lt"), os.path.join(out, "t.pcs")
    log = os.path.join(out, "exec.log")
    p = run(env + ["-singlestep", "-d", "exec,nochain", "-D", log,
                   "-plugin", "%s,out=%s,truth=%s" % (plugin, t, tp),
                   "./forked"], cwd=plain, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout == want_out, (p.stdout, want_out)

    kids = glob.glob(t + ".pid*")
    assert len(kids) == 1 and re.fullmatch(r".*\.pid\d+", kids[0]), kids
    pid = kids[0].rsplit(".pid", 1)[1]
    kid_t, kid_tp = kids[0], tp + ".pid" + pid
    par, kid = read_pcs(tp), read_pcs(kid_tp)
    fork_at = next(i for i in range(len(par) - 1)
                   if par[i + 1] == kid[0] and par[i] + 4 == kid[0])
    elf = os.path.join(plain, "forked")
    for trace, truth, name in ((t, par, "parent"), (kid_t, kid, "child")):
        d = os.path.join(out, "txt-" + name)
        decode(ltpipe, elf, d, trace, "txt")
        got = txt_pcs(os.path.join(d, "trace.txt"))
        assert got == truth, "%s: %d decoded pcs vs %d true" % (
            name, len(got), len(truth))
    qlog = []
    with open(log) as f:
        for line in f:
            m = re.match(r"Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/", line)
            if m:
                qlog.append(int(m.group(1), 16))
    assert collections.Counter(qlog) == \
        collections.Counter(par) + collections.Counter(kid), \
        "QEMU's log is not the two truths' pcs"
    assert qlog[:fork_at + 1] == par[:fork_at + 1]

    g = os.path.join(out, "gcda")
    for trace, merge in ((t, "0"), (kid_t, "1")):
        decode(ltpipe, elf, os.path.join(out, "o"), trace,
               "gcda:gcno=%s,out=%s,merge=%s" % (plain, g, merge))
    runs, _, ours = gcda_dump(tool, os.path.join(g, "forked.gcda"))
    truns, _, twin = gcda_dump(tool, os.path.join(instr, "forked.gcda"))
    assert (runs, truns) == (2, 2), (runs, truns)
    assert len(ours) == len(twin) == 2
    assert ours == twin, (ours, twin)
    check_execs(ltpipe, plugin, execs_src, os.path.join(out, "execs"), env)
    check_o2(ltpipe, plugin, tool, src, os.path.join(out, "O2"), env)
    print("fork: parent %d pcs, child %d pcs, each decoded exactly; "
          "QEMU's log is their union; every counter of 2 runs equal"
          % (len(par), len(kid)))


if __name__ == "__main__":
    main()
