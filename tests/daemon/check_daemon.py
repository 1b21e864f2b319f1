#!/usr/bin/env python3
"""Daemon tests: check_daemon.py TEST LTPIPE MANIFEST

TEST is one of
  concurrent  16 sessions at once (mixed programs, modes, raw and zstd) against
              one daemon with a small queue (so back-pressure engages): every
              txt/json output identical to batch `ltpipe decode`.
  cut         sinks that vanish mid-stream (socket closed after a known
              prefix; a real `ltpipe send` killed with SIGKILL) while others
              stream: the cut outputs equal batch decode of the prefix plus
              the incomplete marker; the others are unaffected.
  hostile     malformed and hostile frames: ERROR with the right code, the
              connection closed, the daemon alive, nothing outside --out.
  sigterm     SIGTERM while sessions stream: every session flushed (exact
              prefix outputs, marked incomplete), sinks told, exit 0.
  multi-elf   sessions with several programs selected by privilege (as
              `ltpipe decode --elf PROG:prv=P` repeated): outputs identical
              to batch decode with the same selectors, whether the right
              program comes first or second, and a trace whose privilege
              no program serves decodes to nothing, as in batch.
  qemu        (extra argument: the QEMU plugin) qemu-riscv64 runs of corpus
              programs streaming through the plugin's sock= option: the
              daemon's outputs equal batch decode of the corpus traces (the
              runs are started exactly as the corpus's, so they execute the
              same instructions).
  verilator   (extra argument: the Verilator testbench Vtb) corpus traces fed
              byte by byte through BytePrinter.sv (in_valid irregular,
              garbage while reset or not valid) into a running daemon, raw
              and zstd: outputs identical to batch decode; +ltpipe_file
              writes a .zst whose content is the trace, byte for byte.
"""
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lt_proto import (ACK, DATA, END, ERROR, HELLO, INCOMPLETE_JSON,  # noqa
                      INCOMPLETE_TXT, READY, Conn, Daemon, frame,
                      hello_payload, open_session, parse_kv)

LTPIPE = None
TIMEOUT = 300
# Work directories made by this run (mkdtemp), removed however it ends.
TMPDIRS = []


def mkdtemp(prefix):
    """A work directory under $TMPDIR, removed at exit (cleanup) unless the
    run failed with LT_KEEP_TMP=1 set."""
    d = tempfile.mkdtemp(prefix=prefix)
    TMPDIRS.append(d)
    return d


def cleanup(failed):
    """Kills daemons still running and removes the work directories (some
    hold a gigabyte of outputs): an interrupted or failed run must not fill
    the disk. With LT_KEEP_TMP=1 a failed run keeps them and says where."""
    for d in Daemon.instances:
        if d.alive():
            d.p.kill()
    keep = failed and os.environ.get("LT_KEEP_TMP") == "1"
    for d in TMPDIRS:
        if keep:
            print("kept %s" % d, file=sys.stderr)
        else:
            shutil.rmtree(d, ignore_errors=True)


def manifest(path):
    """The corpus rows these tests stream: a trace with a code map (a
    dynamic or position-independent program, a signal trampoline) needs
    that map sent along in CODE frames, which the hand-made streams here
    do not send, so those programs are left out (check_codemap_stream.py
    streams such programs with their maps)."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fl = line.split()
            if os.path.exists(fl[5] + ".code"):
                continue
            rows.append({"prog": fl[0], "opt": fl[1], "dir": fl[2],
                         "elf": fl[3], "bt": fl[5], "bp": fl[6],
                         "args": fl[10], "extras": fl[11]})
    return rows


def batch(elf, trace, outdir, extra=()):
    """Batch decode into outdir; returns (txt, json) bytes."""
    os.makedirs(outdir, exist_ok=True)
    subprocess.run([LTPIPE, "decode", "--elf", elf, "-o", outdir, "-q",
                    "-r", "txt", "-r", "json"] + list(extra) + [trace],
                   timeout=TIMEOUT, check=False)
    return read_outputs(outdir)


def read_outputs(d):
    with open(os.path.join(d, "trace.txt"), "rb") as f:
        txt = f.read()
    with open(os.path.join(d, "events.jsonl"), "rb") as f:
        js = f.read()
    return txt, js


def same(name, got, want):
    if got != want:
        raise AssertionError("%s: daemon output differs from batch decode "
                             "(%d vs %d bytes)" % (name, len(got), len(want)))


def stream_prefix(sock, name, elf, data, chunk=4096):
    """Streams data by hand (no END), leaving the connection open."""
    c = open_session(sock, [("session", name), ("elf", elf),
                            ("receiver", "txt"), ("receiver", "json")])
    for i in range(0, len(data), chunk):
        c.send(frame(DATA, data[i:i + chunk]))
    return c


def pick16(rows):
    """16 sessions: every program once or twice, O0/O1/O2, BT and BP,
    raw and zstd."""
    jobs = []
    for i, r in enumerate(rows):
        mode = "bp" if i % 3 == 1 else "bt"
        jobs.append((r, mode, i % 4 == 2))
        if len(jobs) == 16:
            break
    zst = [r for r in rows if r["extras"].startswith("zst:")]
    if zst:
        jobs[-1] = (zst[0], "bt.zst", False)
    return jobs


def test_concurrent(man):
    rows = manifest(man)
    jobs = pick16(rows[::2] + rows[1::2])
    tmp = mkdtemp("lt-daemon-conc-")
    d = Daemon(LTPIPE, ["--queue-kib", "64", "--max-sessions", "16",
                        "--listen", "tcp::0"], tmp=tmp)
    # Half the sinks use TCP (loopback, on the port the daemon picked).
    tcp = None
    for _ in range(100):
        m = re.search(r"listening on tcp:([0-9.]+):([0-9]+)", d.read_log())
        if m:
            tcp = "tcp:%s:%s" % (m.group(1), m.group(2))
            break
        time.sleep(0.05)
    assert tcp and tcp.startswith("tcp:127.0.0.1:"), d.read_log()
    want = {}
    procs = []
    for i, (r, mode, zstd) in enumerate(jobs):
        name = "s%02d-%s-%s-%s" % (i, r["prog"], r["opt"], mode.replace(".", ""))
        trace = r["bp"] if mode == "bp" else r["bt"]
        if mode == "bt.zst":
            trace = r["extras"].split(",")[0].split(":", 1)[1]
        want[name] = batch(r["elf"], trace, os.path.join(tmp, "batch", name))
        to = tcp if i % 2 else "unix:" + d.sock
        cmd = [LTPIPE, "send", "--to", to, "--session", name,
               "--elf", r["elf"], "-r", "txt", "-r", "json", "-q"]
        if zstd:
            cmd.append("--zstd")
        procs.append((name, subprocess.Popen(cmd + [trace])))
    for name, p in procs:
        rc = p.wait(timeout=TIMEOUT)
        assert rc in (0, 3), "%s: ltpipe send exited %d" % (name, rc)
    for name in want:
        got = read_outputs(os.path.join(d.out, name))
        same(name + " txt", got[0], want[name][0])
        same(name + " json", got[1], want[name][1])
    log = d.read_log()
    assert d.stop() == 0
    # Images are shared: one load per distinct program, not per session.
    elfs = {j[0]["elf"] for j in jobs}
    assert log.count(": opened:") == 16, log
    assert log.count(": closed:") == 16, log
    print("concurrent: 16 sessions (%d programs) identical to batch decode"
          % len(elfs))
    shutil.rmtree(tmp)


def test_cut(man):
    rows = manifest(man)
    r = next(x for x in rows if x["prog"] == "sorts" and x["opt"] == "O1")
    r2 = next(x for x in rows if x["prog"] == "fsm" and x["opt"] == "O2")
    tmp = mkdtemp("lt-daemon-cut-")
    d = Daemon(LTPIPE, tmp=tmp)
    with open(r["bt"], "rb") as f:
        full = f.read()
    cut = len(full) // 2 + 13  # inside a packet, not at a boundary
    prefix_path = os.path.join(tmp, "prefix.lt")
    with open(prefix_path, "wb") as f:
        f.write(full[:cut])
    want_cut = batch(r["elf"], prefix_path, os.path.join(tmp, "b-cut"))
    want_full = batch(r2["elf"], r2["bt"], os.path.join(tmp, "b-full"))
    want_bp = batch(r2["elf"], r2["bp"], os.path.join(tmp, "b-bp"))

    # Healthy sessions streaming at the same time.
    good = []
    for name, trace in (("good-bt", r2["bt"]), ("good-bp", r2["bp"])):
        good.append((name, subprocess.Popen(
            [LTPIPE, "send", "--to", "unix:" + d.sock, "--session", name,
             "--elf", r2["elf"], "-r", "txt", "-r", "json", "-q", trace])))
    # A sink that vanishes after `cut` bytes (the kernel closes its socket
    # exactly as when the process dies).
    c = stream_prefix(d.sock, "cut", r["elf"], full[:cut])
    c.close()
    # A real sink process killed mid-stream: `ltpipe send` reading a pipe.
    k = subprocess.Popen([LTPIPE, "send", "--to", "unix:" + d.sock,
                          "--session", "killed", "--elf", r["elf"], "-r",
                          "txt", "-q", "-"], stdin=subprocess.PIPE)
    k.stdin.write(full[:100000])
    k.stdin.flush()
    # Kill it once the daemon has decoded part of its stream (its txt output,
    # still under its temporary name, grows), not after a fixed delay, which
    # a loaded machine can outrun.
    killed_txt = os.path.join(d.out, "killed", "trace.txt")
    for _ in range(1200):
        if any(os.path.getsize(f) > 1000
               for f in glob.glob(killed_txt + ".tmp.*")):
            break
        time.sleep(0.05)
    else:
        raise AssertionError("killed sink: the daemon decoded nothing in 60 s")
    k.kill()
    k.wait(timeout=30)
    k.stdin.close()
    for name, p in good:
        assert p.wait(timeout=TIMEOUT) in (0, 3), name
    # Wait (bounded) for the daemon to log both cut sessions.
    for _ in range(200):
        log = d.read_log()
        if log.count("incomplete (disconnected") >= 2:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("cut sessions not closed:\n" + log)
    got = read_outputs(os.path.join(d.out, "cut"))
    same("cut txt", got[0], want_cut[0] + INCOMPLETE_TXT)
    same("cut json", got[1], want_cut[1] + INCOMPLETE_JSON)
    with open(os.path.join(d.out, "killed", "trace.txt"), "rb") as f:
        killed = f.read()
    assert killed.endswith(INCOMPLETE_TXT) and len(killed) > 1000, \
        "killed sink: outputs not flushed / not marked incomplete"
    same("good-bt txt", read_outputs(os.path.join(d.out, "good-bt"))[0],
         want_full[0])
    same("good-bp json", read_outputs(os.path.join(d.out, "good-bp"))[1],
         want_bp[1])
    assert d.alive()
    assert d.stop() == 0
    print("cut: prefix outputs exact and marked incomplete; others intact")
    shutil.rmtree(tmp)


def snapshot(root, skip):
    out = set()
    for dp, dn, fn in os.walk(root):
        if os.path.abspath(dp).startswith(os.path.abspath(skip)):
            continue
        for n in dn + fn:
            out.add(os.path.join(dp, n))
    return out


def test_hostile(man):
    rows = manifest(man)
    r = next(x for x in rows if x["prog"] == "bits" and x["opt"] == "O1")
    elf = r["elf"]
    tmp = mkdtemp("lt-daemon-hostile-")
    d = Daemon(LTPIPE, ["--max-sessions", "4"], tmp=tmp)
    parent = os.path.dirname(tmp)
    before = snapshot(tmp, d.out)
    hello = lambda name, extra=(): frame(  # noqa: E731
        HELLO, hello_payload([("session", name), ("elf", elf)] + list(extra)))

    def expect(what, data, code, shut=False):
        c = Conn(d.sock)
        try:
            c.send(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        if shut:
            c.shut_wr()
        got = c.expect_error()
        c.close()
        assert got[0] == code, "%s: code %d (%s), expected %d" % (
            what, got[0], got[1], code)
        assert d.alive(), what + ": daemon died"

    expect("garbage", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 1)
    expect("data before hello", frame(DATA, b"\x00" * 8), 1)
    expect("bad version", frame(HELLO, hello_payload(
        [("session", "v"), ("elf", elf)], version=7)), 2)
    expect("bad magic", frame(HELLO, hello_payload(
        [("session", "v"), ("elf", elf)], magic=b"XXXX")), 2)
    expect("oversized data", hello("big") +
           frame(DATA, b"", length=(1 << 20) + 1), 3)
    expect("oversized hello", frame(HELLO, b"", length=1 << 24), 3)
    expect("nonzero reserved", b"\x01\x00\x01\x00\x00\x00\x00\x00", 1)
    expect("truncated header", hello("trunc1") + b"\x02\x00\x00", 1,
           shut=True)
    expect("truncated payload", hello("trunc2") +
           frame(DATA, b"\x01\x02", length=100), 1, shut=True)
    expect("truncated hello", frame(HELLO, b"LTPS", length=50), 1, shut=True)
    for bad in ("../evil", "a/b", "..", ".hidden", "a..b", "/abs", "x" * 65,
                "sp ace"):
        code = 3 if len(bad) > 64 else 4
        expect("session name %r" % bad, hello(bad), code)
    expect("receiver path", hello("r1", [("receiver",
                                          "txt:path=../../escape.txt")]), 6)
    expect("receiver abs path", hello("r2", [("receiver",
                                              "json:path=/tmp/x.jsonl")]), 6)
    expect("receiver plugin", hello("r3", [("receiver", "./evil.so")]), 6)
    expect("unknown receiver", hello("r4", [("receiver", "nosuch")]), 6)
    expect("unknown elf", frame(HELLO, hello_payload(
        [("session", "e1"), ("elf", os.path.join(tmp, "nope"))])), 5)
    expect("not an elf", frame(HELLO, hello_payload(
        [("session", "e2"), ("elf", d.log)])), 5)
    expect("unknown build-id", frame(HELLO, hello_payload(
        [("session", "e3"), ("build_id", "00112233")])), 5)
    expect("build-id mismatch", hello("e4", [("build_id", "00112233")]), 5)
    expect("unknown key", hello("k1", [("color", "red")]), 1)
    expect("17 receivers", hello("k2", [("receiver", "txt")] * 17), 3)
    expect("9 elf records", hello("k4", [("elf", elf)] * 8), 3)
    expect("bad elf selector", hello("k5", [("elf", elf + ":prv=X")]), 1)
    expect("unknown second elf", hello("k6", [
        ("elf", os.path.join(tmp, "nope") + ":prv=M")]), 5)
    expect("bad mode", hello("k3", [("mode", "xx")]), 1)
    expect("bad zstd", hello("z1") + frame(DATA, b"\x00" * 64, flags=1), 9)
    expect("mixed raw/zstd", hello("z2") + frame(DATA, b"\x00") +
           frame(DATA, b"\x28\xb5\x2f\xfd", flags=1), 1)
    expect("two hellos", hello("h2") + hello("h2b"), 1)
    # Bytes after END are never read: the session ends normally.
    c = Conn(d.sock)
    c.send(hello("h3") + frame(END) + frame(DATA, b"x"))
    assert c.read_frame()[0] == READY
    assert c.read_frame()[0] == ACK
    assert c.read_frame() is None
    c.close()

    # Name already active; then too many sessions.
    held = open_session(d.sock, [("session", "held"), ("elf", elf)])
    expect("duplicate name", hello("held"), 4)
    more = [open_session(d.sock, [("session", "m%d" % i), ("elf", elf)])
            for i in range(3)]
    expect("max sessions", hello("m9"), 7)
    for c in more + [held]:
        c.send(frame(END))
        t, payload = c.read_frame()
        assert t == ACK, "no ACK"
        assert parse_kv(payload)["incomplete"] == "0"
        c.close()

    # Still serving normally.
    c = open_session(d.sock, [("session", "after"), ("elf", elf),
                              ("receiver", "txt")])
    with open(r["bt"], "rb") as f:
        c.send(frame(DATA, f.read()[:(1 << 20)]))
    c.send(frame(END))
    t, payload = c.read_frame()
    assert t == ACK and int(parse_kv(payload)["insns"]) > 0
    c.close()
    assert d.alive()
    after = snapshot(tmp, d.out)
    assert after == before, "files written outside --out: %s" % (
        sorted(after - before))
    bad_names = [n for n in os.listdir(parent) if n in ("evil", "escape.txt")]
    assert not bad_names, bad_names
    for n in os.listdir(d.out):
        assert n in ("after", "held", "m0", "m1", "m2", "big", "trunc1",
                     "trunc2", "z1", "z2", "h2", "h3"), "unexpected " + n
    assert d.stop() == 0
    print("hostile: every bad frame refused with the right code; daemon "
          "alive; nothing outside --out")
    shutil.rmtree(tmp)


def test_sigterm(man):
    rows = manifest(man)
    sel = [x for x in rows if x["opt"] == "O1"][:4]
    tmp = mkdtemp("lt-daemon-term-")
    d = Daemon(LTPIPE, tmp=tmp)
    conns = []
    wants = {}
    for i, r in enumerate(sel):
        with open(r["bt"], "rb") as f:
            data = f.read()
        n = min(len(data) // 2, 200000) + i  # well under the queue size
        p = os.path.join(tmp, "p%d.lt" % i)
        with open(p, "wb") as f:
            f.write(data[:n])
        name = "t%d-%s" % (i, r["prog"])
        wants[name] = batch(r["elf"], p, os.path.join(tmp, "b", name))
        conns.append((name, stream_prefix(d.sock, name, r["elf"], data[:n])))
    time.sleep(1.0)  # the loop reads everything into the queues
    rc = d.stop(signal.SIGTERM, timeout=60)
    assert rc == 0, "daemon exited %d" % rc
    for name, c in conns:
        code, msg = c.expect_error()
        assert code == 10, (name, code, msg)
        c.close()
        got = read_outputs(os.path.join(d.out, name))
        same(name + " txt", got[0], wants[name][0] + INCOMPLETE_TXT)
        same(name + " json", got[1], wants[name][1] + INCOMPLETE_JSON)
    assert not os.path.exists(d.sock), "socket not removed"
    print("sigterm: %d sessions flushed exactly, marked incomplete; exit 0"
          % len(conns))
    shutil.rmtree(tmp)


def test_multi_elf(man):
    rows = manifest(man)
    a = next(x for x in rows if x["prog"] == "bits" and x["opt"] == "O1")
    b = next(x for x in rows if x["prog"] == "sorts" and x["opt"] == "O2")
    tmp = mkdtemp("lt-daemon-multi-")
    d = Daemon(LTPIPE, [], tmp=tmp)
    # The corpus traces run in user mode (prv U).
    cases = {
        "second": [b["elf"] + ":prv=M", a["elf"] + ":prv=U"],
        "first": [a["elf"] + ":prv=U,ctx=0", b["elf"] + ":prv=M"],
        "none": [b["elf"] + ":prv=M", a["elf"] + ":prv=S"],
    }
    for name, specs in cases.items():
        extra = []
        for sp in specs[1:]:
            extra += ["--elf", sp]
        want = batch(specs[0], a["bt"], os.path.join(tmp, "batch", name),
                     extra)
        cmd = [LTPIPE, "send", "--to", "unix:" + d.sock, "--session", name,
               "-r", "txt", "-r", "json", "-q"]
        for sp in specs:
            cmd += ["--elf", sp]
        rc = subprocess.run(cmd + [a["bt"]], timeout=TIMEOUT).returncode
        assert rc in (0, 3), "%s: ltpipe send exited %d" % (name, rc)
        got = read_outputs(os.path.join(d.out, name))
        same(name + " txt", got[0], want[0])
        same(name + " json", got[1], want[1])
        if name != "none":
            n = sum(1 for ln in got[0].splitlines() if ln.startswith(b"0x"))
            assert n > 1000, "%s: only %d instructions decoded" % (name, n)
    none = read_outputs(os.path.join(d.out, "none"))[0]
    assert not any(ln.startswith(b"0x") for ln in none.splitlines()), \
        "prv S/M programs only: nothing may decode"
    rc = subprocess.run([LTPIPE, "send", "--to", "unix:" + d.sock] +
                        ["--elf", a["elf"]] * 9 + [a["bt"]],
                        capture_output=True, timeout=TIMEOUT).returncode
    assert rc == 1, "9 --elf: exit %d, want 1" % rc
    log = d.read_log()
    assert d.stop() == 0
    assert log.count(": opened: elf %s,%s" % (os.path.realpath(b["elf"]),
                                              os.path.realpath(a["elf"]))) \
        == 2, log
    print("multi-elf: 3 sessions with two programs each identical to batch "
          "decode")
    shutil.rmtree(tmp)


def test_qemu(man, plugin):
    rows = manifest(man)
    tmp = mkdtemp("lt-daemon-qemu-")
    d = Daemon(LTPIPE, tmp=tmp)
    runs = []
    other = next(x for x in rows if x["prog"] == "bits")["elf"]
    for prog, opt, mode in (("fsm", "O1", "bt"), ("recursion", "O2", "bp")):
        r = next(x for x in rows if x["prog"] == prog and x["opt"] == opt)
        name = "q-%s-%s" % (prog, mode)
        # The second run names two programs (elf= repeated, with prv
        # selectors): the user-mode one must be picked.
        elfs = [r["elf"]] if mode == "bt" else \
            [other + ":prv=M", r["elf"] + ":prv=U"]
        extra = [a for e in elfs[1:] for a in ("--elf", e)]
        want = batch(elfs[0], r[mode], os.path.join(tmp, "b", name), extra)
        pdir, exe = os.path.split(r["elf"])
        args = [] if r.get("args", "-") == "-" else r["args"].split(",")
        opts = ",".join([plugin, "sock=unix:" + d.sock] +
                        ["elf=" + e for e in elfs] +
                        ["session=" + name, "mode=" + mode, "recv=txt",
                         "recv=json"])
        p = subprocess.Popen(
            ["env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "qemu-riscv64",
             "-seed", "1", "-plugin", opts, "./" + exe] + args, cwd=pdir,
            # A regular file, as in the corpus runs: glibc's stdio start-up
            # depends on what stdout is.
            stdout=open(os.path.join(tmp, name + ".out"), "w"))
        runs.append((name, p, want))
    for name, p, want in runs:
        assert p.wait(timeout=TIMEOUT) == 0, name
        got = read_outputs(os.path.join(d.out, name))
        same(name + " txt", got[0], want[0])
        same(name + " json", got[1], want[1])
    log = d.read_log()
    assert d.stop() == 0
    assert ": opened: elf %s," % os.path.realpath(other) in log, log
    print("qemu: plugin streams identical to batch decode of the corpus")
    shutil.rmtree(tmp)


def test_verilator(man, vtb):
    rows = manifest(man)
    tmp = mkdtemp("lt-daemon-vtb-")
    d = Daemon(LTPIPE, tmp=tmp)
    sims = []
    for prog, opt, mode, opts in (("fsm", "O1", "bt", "recv=txt;recv=json"),
                                  ("sorts", "O1", "bp",
                                   "recv=txt;recv=json;mode=bp;zstd=3")):
        r = next(x for x in rows if x["prog"] == prog and x["opt"] == opt)
        name = "v-%s-%s" % (prog, mode)
        want = batch(r["elf"], r[mode], os.path.join(tmp, "b", name))
        p = subprocess.Popen([vtb, "+tb_trace=" + r[mode],
                              "+ltpipe=unix:" + d.sock,
                              "+ltpipe_elf=" + r["elf"],
                              "+ltpipe_session=" + name,
                              "+ltpipe_opts=" + opts])
        sims.append((name, p, want))
    for name, p, want in sims:
        assert p.wait(timeout=TIMEOUT) == 0, name
        got = read_outputs(os.path.join(d.out, name))
        same(name + " txt", got[0], want[0])
        same(name + " json", got[1], want[1])
    assert d.stop() == 0
    r = next(x for x in rows if x["prog"] == "bits" and x["opt"] == "O2")
    zf = os.path.join(tmp, "f.lt.zst")
    subprocess.run([vtb, "+tb_trace=" + r["bt"], "+ltpipe_file=" + zf],
                   check=True, timeout=TIMEOUT)
    plain = subprocess.run(["zstd", "-dc", zf], check=True,
                           stdout=subprocess.PIPE, timeout=TIMEOUT).stdout
    with open(r["bt"], "rb") as f:
        assert plain == f.read(), "+ltpipe_file: content differs"
    print("verilator: BytePrinter streams identical to batch decode; "
          "+ltpipe_file exact")
    shutil.rmtree(tmp)


def main():
    global LTPIPE
    test, man = sys.argv[1], sys.argv[3]
    LTPIPE = os.path.abspath(sys.argv[2])
    # Tests change directory for guest runs: every path made absolute.
    sys.argv[4:] = [os.path.abspath(a) for a in sys.argv[4:]]
    # Everything here must end by itself: a watchdog ends a stuck run.
    t = threading.Timer(TIMEOUT, lambda: (cleanup(True), os._exit(99)))
    t.daemon = True
    t.start()
    # meson's timeout sends SIGTERM: end through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    failed = True
    try:
        if test == "qemu":
            test_qemu(man, sys.argv[4])
        elif test == "verilator":
            test_verilator(man, sys.argv[4])
        else:
            {"concurrent": test_concurrent, "cut": test_cut,
             "hostile": test_hostile, "sigterm": test_sigterm,
             "multi-elf": test_multi_elf}[test](man)
        failed = False
    finally:
        cleanup(failed)


if __name__ == "__main__":
    main()
