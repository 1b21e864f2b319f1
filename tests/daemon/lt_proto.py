"""A minimal stream-protocol client (proto/PROTOCOL.md) and daemon helpers for
the daemon tests. Written from the spec, not from the C code, so the tests
also check that the spec is enough to implement a sink."""
import os
import socket
import struct
import subprocess
import tempfile
import time

HELLO, DATA, END, CODE = 0x01, 0x02, 0x03, 0x04
READY, ACK, ERROR = 0x81, 0x82, 0x83
INCOMPLETE_TXT = b"[incomplete: the stream was cut short]\n"
INCOMPLETE_JSON = b'{"kind":"incomplete"}\n'


def frame(ftype, payload=b"", flags=0, length=None):
    n = len(payload) if length is None else length
    return struct.pack("<BBHI", ftype, flags, 0, n) + payload


def kv(pairs):
    return b"".join(k.encode() + b"=" + v.encode() + b"\0" for k, v in pairs)


def hello_payload(pairs, version=1, magic=b"LTPS"):
    return magic + struct.pack("<HH", version, 0) + kv(pairs)


def parse_kv(payload):
    out = {}
    for rec in payload.split(b"\0")[:-1]:
        k, _, v = rec.partition(b"=")
        out[k.decode()] = v.decode()
    return out


class Conn:
    """One sink connection speaking the protocol by hand."""

    def __init__(self, sock_path, timeout=30):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(sock_path)

    def send(self, data):
        self.s.sendall(data)

    def read_frame(self):
        """Returns (type, payload), or None at end of stream."""
        hdr = self._read(8)
        if hdr is None:
            return None
        t, _flags, _res, n = struct.unpack("<BBHI", hdr)
        payload = self._read(n) if n else b""
        return t, payload

    def _read(self, n):
        buf = b""
        while len(buf) < n:
            try:
                chunk = self.s.recv(n - len(buf))
            except ConnectionResetError:
                return None
            if not chunk:
                return None
            buf += chunk
        return buf

    def expect_error(self):
        """Reads frames until ERROR; returns (code, message) and checks that
        the daemon then closes the connection."""
        while True:
            f = self.read_frame()
            assert f is not None, "connection closed without an ERROR frame"
            if f[0] == ERROR:
                code = struct.unpack("<H", f[1][:2])[0]
                assert self.read_frame() is None, "connection not closed"
                return code, f[1][2:].decode()
            assert f[0] == READY, "unexpected frame 0x%02x" % f[0]

    def shut_wr(self):
        self.s.shutdown(socket.SHUT_WR)

    def close(self):
        self.s.close()


def open_session(sock_path, pairs):
    """Connects, sends HELLO, waits for READY; returns the Conn."""
    c = Conn(sock_path)
    c.send(frame(HELLO, hello_payload(pairs)))
    f = c.read_frame()
    assert f and f[0] == READY, "no READY: %r" % (f,)
    return c


class Daemon:
    """An `ltpipe serve` on a Unix socket in a temporary directory."""

    instances = []  # every daemon started, killed if a test fails

    def __init__(self, ltpipe, extra=(), tmp=None):
        self.tmp = tmp or tempfile.mkdtemp(prefix="lt-daemon-")
        self.sock = os.path.join(self.tmp, "s.sock")
        self.out = os.path.join(self.tmp, "out")
        self.log = os.path.join(self.tmp, "serve.log")
        self.logf = open(self.log, "w")
        self.p = subprocess.Popen(
            [ltpipe, "serve", "--listen", "unix:" + self.sock, "--out",
             self.out] + list(extra), stderr=self.logf)
        Daemon.instances.append(self)
        # The socket file appears at bind(), before listen(): wait for the
        # daemon's own word that it listens (a connect in between is
        # refused).
        for _ in range(200):
            if os.path.exists(self.sock) and \
               "listening on unix:" + self.sock in self.read_log():
                break
            assert self.p.poll() is None, "daemon died: " + self.read_log()
            time.sleep(0.05)
        else:
            raise AssertionError("daemon did not start")

    def read_log(self):
        with open(self.log) as f:
            return f.read()

    def alive(self):
        return self.p.poll() is None

    def stop(self, sig=15, timeout=60):
        self.p.send_signal(sig)
        rc = self.p.wait(timeout=timeout)
        self.logf.close()
        return rc
