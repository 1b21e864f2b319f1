#!/usr/bin/env python3
"""Code maps over the stream (CODE frames, proto/PROTOCOL.md):
   check_codemap_stream.py LTPIPE PLUGIN.so

A program built as gcc builds it by default (position-independent,
dynamically linked: its loader and libc run outside its ELF, at addresses
the loader chose), the same program linked -no-pie, and a static program
whose signal handlers return through the trampoline, run under
qemu-riscv64. The program works in phases, each filling the plugin's
stream buffer before calling library code not run before, so code arrives
between trace data. Against one daemon, at the same time:
  - the plugin streaming each (sock=): txt and json identical to
    batch `ltpipe decode` of the same run's trace file and code map, the
    PIE's session relocated, its code map sent in more than one CODE frame;
  - `ltpipe send --code MAP --zstd` of the PIE's trace file: identical;
  - `ltpipe send` of the same trace without the map, same program (its
    image shared with the sessions above): as before CODE frames existed,
    identical to batch `ltpipe decode --code none` (data lost at the first
    pc outside the ELF, exit 3) and the daemon's PIE warning;
  - bad CODE frames on other connections (no codemap=1 in the hello, a
    malformed line, code over the program's own .text, a frame over the
    limit, a load line after trace data, CODE before the hello): ERROR
    with the right code and a message naming the frame and line, while
    the sessions above go on unaffected.
Then: the plugin with code=none streams as version-1 sinks did (no code
map: identical to batch --code none); and against a daemon that predates
CODE frames (one answering the hello as such a daemon does: ERROR 1
"hello: unknown key codemap") the plugin stops at start-up saying so.
"""
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lt_proto import (CODE, DATA, ERROR, HELLO, Conn, Daemon,  # noqa
                      frame, hello_payload)

TIMEOUT = 300
PREFIX = os.environ.get("QEMU_LD_PREFIX", "/usr/riscv64-linux-gnu")
CC = os.environ.get("CC_RISCV", "riscv64-linux-gnu-gcc")

PROG = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static unsigned mix(unsigned x)
{
	for (int i = 0; i < 20000; i++)
		x = x * 1103515245u + 12345u + (x >> 7);
	return x;
}
static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}
int main(int argc, char **argv)
{
	char buf[128];
	int v[256];
	unsigned x = mix((unsigned)argc);
	snprintf(buf, sizeof buf, "%u %s", x, argv[0]);
	x += mix(x) + (unsigned)strlen(buf);
	for (int i = 0; i < 256; i++)
		v[i] = (int)((x + (unsigned)i * 2654435761u) >> 20);
	qsort(v, 256, sizeof v[0], cmp);
	x += mix(x) + (unsigned)v[0];
	double d = strtod("2.5e3", NULL);
	x += mix(x) + (unsigned)sqrt(d);
	char *p = strdup(buf);
	x += mix(x) + (unsigned)(strchr(p, ' ') - p);
	free(p);
	printf("%u %d %d\n", x, v[0], v[255]);
	return 0;
}
"""

SIGS = r"""
#include <signal.h>
#include <stdio.h>
static volatile int hits;
static void on(int s)
{
	hits += s;
}
int main(void)
{
	signal(SIGUSR1, on);
	for (int i = 0; i < 5; i++)
		raise(SIGUSR1);
	printf("%d\n", hits);
	return 0;
}
"""


def run(cmd, **kw):
    return subprocess.run(cmd, timeout=TIMEOUT, **kw)


def qemu(tmp, exe, opts, out):
    """Starts exe under qemu-riscv64 with the plugin options, as the
    corpus runs are started (clean environment, stdout a file)."""
    return subprocess.Popen(
        ["env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "qemu-riscv64",
         "-L", PREFIX, "-seed", "1", "-plugin", opts, "./" + exe],
        cwd=tmp, stdout=open(os.path.join(tmp, out), "w"),
        stderr=subprocess.PIPE)


def outputs(d):
    with open(os.path.join(d, "trace.txt"), "rb") as f:
        txt = f.read()
    with open(os.path.join(d, "events.jsonl"), "rb") as f:
        return txt, f.read()


def batch(ltpipe, tmp, exe, trace, name, extra=()):
    out = os.path.join(tmp, "batch", name)
    os.makedirs(out, exist_ok=True)
    p = run([ltpipe, "decode", "-q", "--elf", os.path.join(tmp, exe), "-o",
             out, "-r", "txt", "-r", "json"] + list(extra) + [trace])
    return p.returncode, outputs(out)


def same(name, got, want):
    for what, g, w in (("txt", got[0], want[0]), ("json", got[1], want[1])):
        if g != w:
            raise AssertionError("%s %s: daemon output differs from batch "
                                 "decode (%d vs %d bytes)"
                                 % (name, what, len(g), len(w)))


def text_addr(elf):
    """Link address of elf's .text."""
    out = run(["riscv64-linux-gnu-objdump", "-h", elf], check=True,
              stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"\.text\s+[0-9a-f]+\s+([0-9a-f]+)", out)
    return int(m.group(1), 16)


def hostile(d, elf):
    """Bad CODE frames: each gets its ERROR and the connection closes."""
    def hello(name, codemap=True):
        pairs = [("session", name), ("elf", elf)]
        if codemap:
            pairs.append(("codemap", "1"))
        return frame(HELLO, hello_payload(pairs))

    def expect(what, data, code, pattern):
        c = Conn(d.sock)
        try:
            c.send(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        got = c.expect_error()
        c.close()
        assert got[0] == code and re.search(pattern, got[1]), \
            "%s: code %d (%s), expected %d /%s/" % (what, got[0], got[1],
                                                     code, pattern)
        assert d.alive(), what + ": daemon died"

    h = hello("h1", codemap=False)
    expect("CODE without codemap=1", h + frame(CODE, b"4000 0100\n"), 1,
           r"^CODE frame at byte %d, but the hello did not announce "
           r"codemap=1$" % len(h))
    h = hello("h2")
    expect("malformed line", h + frame(CODE, b"# ok\n4000 0100\nzz 1\n"), 1,
           r"^CODE frame at byte %d, line 3: expected a hex address$"
           % len(h))
    t = text_addr(elf)
    expect("code over .text", hello("h3") +
           frame(CODE, b"%x 01000100\n" % (t + 2)), 1,
           r"line 1: code at 0x%x-0x%x overlaps the program's own code "
           r"\(\.text\)$" % (t + 2, t + 6))
    expect("CODE over the limit", hello("h4") +
           frame(CODE, b"", length=(1 << 20) + 1), 3,
           r"type 0x04 payload of 1048577 bytes is over the limit")
    expect("load after DATA", hello("h5") + frame(DATA, b"\x00") +
           frame(CODE, b"load 4000000000 4000001000 0\n"), 1,
           r"line 1: a load line after trace data")
    expect("CODE before HELLO", frame(CODE, b"4000 0100\n"), 1,
           r"expected HELLO first, got type 0x04")


def old_daemon(tmp, plugin, exe):
    """A daemon older than CODE frames refuses the hello key: the plugin
    must stop at start-up and say why, not stream without the map."""
    path = os.path.join(tmp, "old.sock")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    srv.settimeout(TIMEOUT)

    def answer():
        c, _ = srv.accept()
        hdr = c.recv(8, socket.MSG_WAITALL)
        payload = c.recv(struct.unpack("<I", hdr[4:])[0],
                         socket.MSG_WAITALL)
        assert b"codemap=1\0" in payload, payload
        msg = b"hello: unknown key codemap"
        c.sendall(frame(ERROR, struct.pack("<H", 1) + msg))
        c.close()
    t = threading.Thread(target=answer)
    t.start()
    p = qemu(tmp, exe, ",".join([plugin, "sock=unix:" + path,
                                 "elf=" + os.path.join(tmp, exe),
                                 "session=old"]), "old.out")
    err = p.communicate(timeout=TIMEOUT)[1].decode()
    t.join(TIMEOUT)
    srv.close()
    assert p.returncode != 0, "old daemon: the program ran anyway"
    assert "daemon: hello: unknown key codemap (code 1): this `ltpipe " \
           "serve` cannot take code maps; update it" in err, err


def main():
    ltpipe, plugin = (os.path.abspath(a) for a in sys.argv[1:3])
    tmp = tempfile.mkdtemp(prefix="lt-codemap-stream-")
    ok = False
    d = None
    try:
        for name, text in (("phases.c", PROG), ("sigs.c", SIGS)):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        progs = {"pie": ["phases.c", "-lm"],
                 "nopie": ["-no-pie", "phases.c", "-lm"],
                 "sigs": ["-static", "sigs.c"]}
        for exe, flags in progs.items():
            run([CC, "-O1", "-g"] + flags + ["-o", exe], cwd=tmp,
                check=True)
        want = {}
        for exe in progs:
            p = qemu(tmp, exe, "%s,out=%s.lt" % (plugin, exe), exe + ".ref")
            assert p.wait(timeout=TIMEOUT) == 0, p.stderr.read()
            rc, want[exe] = batch(ltpipe, tmp, exe, os.path.join(
                tmp, exe + ".lt"), exe)
            assert rc == 0, "batch decode of %s: exit %d" % (exe, rc)
        rc, nocode = batch(ltpipe, tmp, "pie", os.path.join(tmp, "pie.lt"),
                           "pie-nocode", ["--code", "none"])
        assert rc == 3, "batch --code none: exit %d, want 3" % rc

        d = Daemon(ltpipe, tmp=tmp)
        runs = []
        for exe in progs:
            opts = ",".join([plugin, "sock=unix:" + d.sock,
                             "elf=" + os.path.join(tmp, exe),
                             "session=plug-" + exe, "recv=txt",
                             "recv=json"])
            runs.append(("plug-" + exe, qemu(tmp, exe, opts, exe + ".out"),
                         (0,)))
        send = [ltpipe, "send", "-q", "--to", "unix:" + d.sock, "--elf",
                os.path.join(tmp, "pie"), "-r", "txt", "-r", "json"]
        pie_lt = os.path.join(tmp, "pie.lt")
        runs.append(("send-pie", subprocess.Popen(
            send + ["--session", "send-pie", "--zstd", "--code",
                    pie_lt + ".code", pie_lt], stderr=subprocess.PIPE),
            (0,)))
        runs.append(("nocode-pie", subprocess.Popen(
            send + ["--session", "nocode-pie", pie_lt],
            stderr=subprocess.PIPE), (3,)))
        hostile(d, os.path.join(tmp, "pie"))
        for name, p, rcs in runs:
            err = p.communicate(timeout=TIMEOUT)[1]
            assert p.returncode in rcs, "%s: exit %d: %s" % (
                name, p.returncode, err.decode())
        same("plug-pie", outputs(os.path.join(d.out, "plug-pie")),
             want["pie"])
        same("plug-nopie", outputs(os.path.join(d.out, "plug-nopie")),
             want["nopie"])
        same("plug-sigs", outputs(os.path.join(d.out, "plug-sigs")),
             want["sigs"])
        same("send-pie", outputs(os.path.join(d.out, "send-pie")),
             want["pie"])
        same("nocode-pie", outputs(os.path.join(d.out, "nocode-pie")),
             nocode)
        log = d.read_log()
        m = re.search(r"session plug-pie \S+ \S+: code map: (\d+) CODE "
                      r"frames, \d+ regions, \d+ bytes of code outside the "
                      r"program, relocated\n", log)
        assert m and int(m.group(1)) >= 2, log
        assert re.search(r"session nocode-pie \S+ \S+: warning: \S+/pie is "
                         r"position-independent and the hello announces no "
                         r"code map", log), log
        assert "session plug-nopie" in log and not re.search(
            r"session plug-nopie \S+ \S+: code map: \d+ CODE frames, \d+ "
            r"regions, \d+ bytes of code outside the program, relocated",
            log), log

        # code=none: a version-1 stream, as before.
        opts = ",".join([plugin, "sock=unix:" + d.sock,
                         "elf=" + os.path.join(tmp, "pie"), "code=none",
                         "session=v1-pie", "recv=txt", "recv=json"])
        p = qemu(tmp, "pie", opts, "v1.out")
        p.communicate(timeout=TIMEOUT)
        assert p.returncode == 0
        same("v1-pie", outputs(os.path.join(d.out, "v1-pie")), nocode)
        assert d.stop() == 0
        log = d.read_log()
        assert not re.search(r"session v1-pie \S+ \S+: code map", log), log

        old_daemon(tmp, plugin, "pie")
        ok = True
        print("codemap-stream: plugin and send --code streams of a PIE and "
              "a -no-pie dynamic program and of signal trampolines identical "
              "to batch decode (%s CODE frames); a session without a map as "
              "before; bad CODE frames refused; an old daemon refuses "
              "clearly" % m.group(1))
    finally:
        if d and d.alive():
            d.p.kill()
        if ok or os.environ.get("LT_KEEP_TMP") != "1":
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("kept " + tmp, file=sys.stderr)


if __name__ == "__main__":
    main()
