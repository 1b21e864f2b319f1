#!/usr/bin/env python3
"""Copies a .gcda, taking chosen ARCS counters from another .gcda of the
same .gcno (a tool for finding which counters move gcc's -fprofile-use
decisions: swap the twin's counters into ours a condition at a time and
rebuild, e.g. with `OURS_GCDA=DIR scripts/pgo-parity.sh ...`).

  gcda-swap.py OURS.gcda TWIN.gcda OUT.gcda SPEC...

SPEC: IDENT (every counter of the function with that ident, as
lt_gcov_dump prints it) or IDENT:i,j,... (those counters, gcda order).
Swap both counters of a condition (or the whole function): a flow gcc
cannot solve stops it with "corrupted profile info". Both files must
come from the same gcno (same records in the same order); gcc 12 layout
(16-byte header, lengths in bytes, little-endian)."""
import struct
import sys

TAG_FUNCTION = 0x01000000
TAG_ARCS = 0x01A10000


def records(path):
    """(header, [[tag, function ident, payload], ...]) of a gcda."""
    b = open(path, "rb").read()
    recs, o, fn = [], 16, None
    while o + 8 <= len(b):
        tag, n = struct.unpack_from("<II", b, o)
        data = b[o + 8:o + 8 + n]
        if tag == TAG_FUNCTION and n >= 4:
            fn = struct.unpack_from("<I", data)[0]
        recs.append([tag, fn, data])
        o += 8 + n
    return b[:16], recs


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    head, ours = records(sys.argv[1])
    _, twin = records(sys.argv[2])
    spec = {}
    for s in sys.argv[4:]:
        f, _, idx = s.partition(":")
        spec[int(f)] = [int(x) for x in idx.split(",")] if idx else None
    if len(ours) != len(twin):
        sys.exit("gcda-swap: the files hold different records")
    out = bytearray(head)
    for (tag, fn, data), (ttag, tfn, tdata) in zip(ours, twin):
        if (tag, fn) != (ttag, tfn) or len(data) != len(tdata):
            sys.exit("gcda-swap: the files are not of one gcno")
        if tag == TAG_ARCS and fn in spec:
            n = len(data) // 8
            v = list(struct.unpack("<%dQ" % n, data))
            t = struct.unpack("<%dQ" % n, tdata)
            for i in spec[fn] if spec[fn] is not None else range(n):
                v[i] = t[i]
            data = struct.pack("<%dQ" % n, *v)
        out += struct.pack("<II", tag, len(data)) + data
    open(sys.argv[3], "wb").write(out)


if __name__ == "__main__":
    main()
