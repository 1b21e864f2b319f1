#!/usr/bin/env python3
"""Multi-threaded programs: one trace per hart (vCPU).
   check_threads.py LTPIPE PLUGIN.so LT_GCOV_DUMP THREADS.c OUTDIR

THREADS.c runs two threads at once, joins them, then a third, which
qemu-user gives a freed vCPU index. Built -O0 -static -pthread as the
corpus builds its twins: a plain one (-ftest-coverage) and an
instrumented one (-fprofile-arcs -fprofile-update=atomic, the counters
every thread adds to). Run under qemu-riscv64 with the plugin
(out=T.lt, truth=) and QEMU's own log of every executed pc with its vCPU
(-singlestep -d exec,nochain), in the same run:
  - one trace per vCPU that ran (T.lt, T.lt.hart1, T.lt.hart2), no
    untraced-vCPU warning; 4 segments in all (one per thread), 2 of them
    in the reused vCPU's trace, each opened by its own start sync;
  - each trace alone decodes to exactly the pcs QEMU logged for its vCPU
    (and the plugin's truth file for it), exit 0;
  - the traces decoded together (hart from the .hartN name): the txt is
    the three decodes one after the other, each start marked with its
    hart, the gcda equals the instrumented twin's, every counter of
    every function (from vCPU 0's trace alone it does not: the threads'
    functions never ran there), and the AutoFDO counts are the sums of
    the three traces' own;
  - stats of the traces together count every hart's instructions;
  - vcpus=0 traces the main thread only and warns that vCPU 1 ran;
  - with sock= (ltpipe serve), one session per vCPU (NAME, NAME-hart1,
    NAME-hart2) whose events carry the hart, each decoding to its vCPU's
    truth; with recv=gcda:merge=1 the three sessions, ending together,
    merge into the one gcda next to the gcno: every counter equal to the
    traces decoded together (and so to the twin), runs 1 (the hart
    sessions count no run), sum_max the sum of each hart's largest
    counter, no lock file left.
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "daemon"))
from lt_proto import Daemon  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "gcda"))
from check_gcda import dump as gcda_dump  # noqa: E402

TIMEOUT = 300
CC = os.environ.get("CC_RISCV", "riscv64-linux-gnu-gcc")
GCOV_FLAGS = ["-g", "-O0", "-static", "-pthread"]


def run(cmd, **kw):
    return subprocess.run(cmd, timeout=TIMEOUT, **kw)


def qemu(cwd, opts, extra=(), out="run.out"):
    """Runs ./threads as the corpus runs its programs (clean environment,
    stdout a file); returns its stderr."""
    p = run(["env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "qemu-riscv64",
             "-seed", "1"] + list(extra) + ["-plugin", opts, "./threads"],
            cwd=cwd, stdout=open(os.path.join(cwd, out), "w"),
            stderr=subprocess.PIPE, text=True)
    assert p.returncode == 0, "qemu: exit %d: %s" % (p.returncode, p.stderr)
    return p.stderr


def read_pcs(path):
    with open(path) as f:
        return [int(x, 16) for x in f.read().split()]


def qemu_log_pcs(path):
    """{vcpu: [pc...]} from a -d exec,nochain -singlestep log."""
    per = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"Trace (\d+): \S+ \[[0-9a-f]+/([0-9a-f]+)/", line)
            if m:
                per.setdefault(int(m.group(1)), []).append(
                    int(m.group(2), 16))
    return per


def decode(ltpipe, elf, out, traces, recv):
    args = [ltpipe, "decode", "-q", "--elf", elf, "-o", out]
    for r in recv:
        args += ["-r", r]
    p = run(args + traces, capture_output=True, text=True)
    assert p.returncode == 0, "decode %s: exit %d: %s" % (
        traces, p.returncode, p.stderr)


def txt_pcs(path):
    with open(path) as f:
        return [int(l.split(":")[0], 16) for l in f if l.startswith("0x")]


def dump(tool, path):
    """{function ident: [arc counters]} of a gcda (lt_gcov_dump)."""
    return gcda_dump(tool, path)[2]


def dump_summary(tool, path):
    """(runs, sum_max, dump()) of a gcda."""
    return gcda_dump(tool, path)


def afdo_text(path):
    """[{key: count}] per section of an afdo:format=text profile (each
    section a line with its entry count, then KEY:COUNT lines)."""
    secs = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if ":" not in line:
                secs.append({})
            else:
                k, v = line.rsplit(":", 1)
                secs[-1][k] = int(v)
    return secs


def build(d, src, flags, name="threads"):
    """Compiles SRC into D/NAME.o and links D/NAME (-O0 -static -pthread,
    as the corpus builds its twins, plus FLAGS)."""
    os.makedirs(d)
    run([CC] + GCOV_FLAGS + flags + ["-c", src, "-o", name + ".o"], cwd=d,
        check=True)
    run([CC] + GCOV_FLAGS + flags + [name + ".o", "-o", name], cwd=d,
        check=True)


def main():
    ltpipe, plugin, gcov_dump = (os.path.abspath(a) for a in sys.argv[1:4])
    src = os.path.abspath(sys.argv[4])
    out = os.path.abspath(sys.argv[5])
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    plain, instr = os.path.join(out, "plain"), os.path.join(out, "instr")
    build(plain, src, ["-ftest-coverage"])
    build(instr, src, ["-fprofile-arcs", "-ftest-coverage",
                       "-fprofile-update=atomic"])
    elf = os.path.join(plain, "threads")
    p = run(["env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "qemu-riscv64",
             "-seed", "1", "./threads"], cwd=instr, capture_output=True,
            text=True)
    assert p.returncode == 0 and p.stdout == "5999999000 610 303\n", p
    twin = dump(gcov_dump, os.path.join(instr, "threads.gcda"))

    err = qemu(plain, plugin + ",out=t.lt,truth=t.pcs",
               ["-singlestep", "-d", "exec,nochain", "-D", "q.log"])
    assert "vCPU" not in err, err
    traces = sorted(f for f in os.listdir(plain) if re.fullmatch(
        r"t\.lt(\.hart\d+)?", f))
    assert traces == ["t.lt", "t.lt.hart1", "t.lt.hart2"], traces
    log = qemu_log_pcs(os.path.join(plain, "q.log"))
    assert sorted(log) == [0, 1, 2], sorted(log)
    starts = {}
    for hart, t in enumerate(traces):
        # (alone, a trace named .hartN is hart N too)
        d = os.path.join(out, "dec-" + t)
        decode(ltpipe, elf, d, [os.path.join(plain, t)], ["txt"])
        got = txt_pcs(os.path.join(d, "trace.txt"))
        truth = read_pcs(os.path.join(plain, "t.pcs" + t[4:]))
        # QEMU's -d exec logs a TB when it enters it, before the TB's
        # exit-request check: a new thread's vCPU may log its first TB,
        # leave it unrun and log it again (the first pc twice, seen in
        # about one run of five). The plugin's per-instruction truth,
        # compared below, holds it once.
        q = log[hart]
        if len(q) > 1 and q[0] == q[1] and got == q[1:]:
            log[hart] = q[1:]
        assert got == log[hart], "hart %d: %d decoded pcs, QEMU ran %d" % (
            hart, len(got), len(log[hart]))
        assert got == truth, "hart %d: differs from the truth file" % hart
        with open(os.path.join(d, "trace.txt")) as f:
            marks = re.findall(r"^\[start .*", f.read(), re.M)
        starts[hart] = len(marks)
        assert all(m.endswith(" hart=%d]" % hart if hart else " ctx=0]")
                   for m in marks), marks
    assert sum(starts.values()) == 4 and sorted(starts.values()) == [1, 1, 2], \
        "segments per hart: %s (want 1, 1 and 2: one per thread)" % starts
    print("ok   3 harts, %s pcs, each exactly QEMU's for its vCPU; "
          "segments %s" % ("+".join(str(len(log[h])) for h in range(3)),
                           starts))

    both = os.path.join(out, "all")
    decode(ltpipe, elf, both, [os.path.join(plain, t) for t in traces],
           ["txt", "stats", "afdo:format=text",
            "gcda:gcno=%s,out=%s" % (os.path.join(plain, "threads.gcno"),
                                     both)])
    with open(os.path.join(both, "trace.txt")) as f:
        txt = f.read()
    want = ""
    for hart, t in enumerate(traces):
        with open(os.path.join(out, "dec-" + t, "trace.txt")) as f:
            want += f.read()
    assert txt == want, "the traces decoded together differ from each alone"
    with open(os.path.join(both, "stats.json")) as f:
        st = json.load(f)
    assert st["instructions"] == sum(len(v) for v in log.values()), \
        st["instructions"]
    ours = dump(gcov_dump, os.path.join(both, "threads.gcda"))
    assert sorted(ours) == sorted(twin) and len(twin) == 5, (ours, twin)
    for ident in twin:
        assert ours[ident] == twin[ident], "function %d: ours %s, twin %s" % (
            ident, ours[ident], twin[ident])
    # AutoFDO counts (ranges, branches) add up across harts too.
    summed = None
    for t in traces:
        d = os.path.join(out, "afdo-" + t)
        decode(ltpipe, elf, d, [os.path.join(plain, t)], ["afdo:format=text"])
        secs = afdo_text(os.path.join(d, "threads.afdo.txt"))
        if summed is None:
            summed = [dict() for _ in secs]
        for acc, sec in zip(summed, secs):
            for k, v in sec.items():
                acc[k] = acc.get(k, 0) + v
    got = afdo_text(os.path.join(both, "threads.afdo.txt"))
    assert got == summed and len(got[0]) > 100, "afdo: together %s" % [
        len(x) for x in got]
    main_only = os.path.join(out, "main-only")
    decode(ltpipe, elf, main_only, [os.path.join(plain, "t.lt")],
           ["gcda:gcno=%s,out=%s" % (os.path.join(plain, "threads.gcno"),
                                     main_only)])
    assert dump(gcov_dump, os.path.join(main_only, "threads.gcda")) != twin
    print("ok   3 traces decoded together: txt = each alone, %d "
          "instructions; gcda = the instrumented twin's (%d functions, "
          "%d counters); afdo = the sum of each alone's (%d ranges)" % (
              st["instructions"], len(twin),
              sum(len(v) for v in twin.values()), len(got[0])))

    one = os.path.join(out, "vcpu0")
    os.makedirs(one)
    shutil.copy(elf, one)
    err = qemu(one, plugin + ",out=t.lt,truth=t.pcs,vcpus=0")
    assert re.search(r"^ltpipe-qemu: warning: code ran on vCPU \d+ \(another "
                     r"thread\), which is not traced: vcpus=0 traces vCPU 0 "
                     r"only", err, re.M), err
    assert sorted(os.listdir(one)) == ["run.out", "t.lt", "t.lt.code",
                                       "t.pcs", "threads"] or \
        sorted(os.listdir(one)) == ["run.out", "t.lt", "t.pcs", "threads"], \
        os.listdir(one)
    decode(ltpipe, elf, os.path.join(one, "dec"), [os.path.join(one, "t.lt")],
           ["txt"])
    assert txt_pcs(os.path.join(one, "dec", "trace.txt")) == \
        read_pcs(os.path.join(one, "t.pcs"))
    print("ok   vcpus=0: the main thread alone, exact, and the warning")

    d = Daemon(ltpipe)  # (a short socket path: under /tmp)
    try:
        sess = os.path.join(out, "stream")
        os.makedirs(sess)
        shutil.copy(elf, sess)
        shutil.copy(os.path.join(plain, "threads.gcno"), sess)
        err = qemu(sess, ",".join([plugin, "sock=unix:" + d.sock,
                                   "elf=" + os.path.join(sess, "threads"),
                                   "session=thr", "truth=t.pcs", "recv=txt",
                                   "recv=json", "recv=gcda:merge=1"]))
        for hart, name in enumerate(["thr", "thr-hart1", "thr-hart2"]):
            assert re.search(r"^ltpipe-qemu: %sstreamed \d+ bytes, \d+ "
                             r"instructions decoded, 0 errors$" %
                             ("hart %d: " % hart if hart else ""), err,
                             re.M), err
            sd = os.path.join(d.out, name)
            got = txt_pcs(os.path.join(sd, "trace.txt"))
            truth = read_pcs(os.path.join(sess, "t.pcs" +
                                          (".hart%d" % hart if hart else "")))
            assert got == truth, "session %s: %d pcs, truth %d" % (
                name, len(got), len(truth))
            with open(os.path.join(sd, "events.jsonl")) as f:
                harts = {json.loads(l)["hart"] for l in f}
            assert harts == {hart}, "session %s: harts %s" % (name, harts)
        assert not os.path.exists(os.path.join(d.out, "thr-hart3"))
        runs, smax, merged = dump_summary(gcov_dump,
                                          os.path.join(sess, "threads.gcda"))
        assert merged == ours, "sessions merged: %s, together %s" % (
            merged, ours)
        hart_max = []
        for t in traces:
            dd = os.path.join(out, "gcda-" + t)
            decode(ltpipe, elf, dd, [os.path.join(plain, t)],
                   ["gcda:gcno=%s,out=%s" % (
                       os.path.join(plain, "threads.gcno"), dd)])
            hart_max.append(dump_summary(
                gcov_dump, os.path.join(dd, "threads.gcda"))[1])
        assert (runs, smax) == (1, sum(hart_max)), (runs, smax, hart_max)
        left = [f for f in os.listdir(sess) if ".lock" in f or ".tmp." in f]
        assert not left, left
    finally:
        d.stop()
        shutil.rmtree(d.tmp, ignore_errors=True)
    print("ok   sock=: sessions thr, thr-hart1, thr-hart2, each its hart, "
          "exact; merged gcda = the traces decoded together, runs 1, "
          "sum_max %d (%s)" % (smax, "+".join(str(m) for m in hart_max)))


if __name__ == "__main__":
    main()
