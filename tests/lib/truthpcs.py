"""The plugin's truth PCs as the decoder reports them.

QEMU's truth files hold the addresses the program ran at. A
position-independent program runs where the loader put it, and ltpipe
reports its own code at link addresses: its code map (TRACE.code, the
`load START END ENTRY` line QEMU gave) says where the executable segments
ran, and those PCs are moved back by (START - lowest executable PT_LOAD
vaddr). Other PCs (loader, libc, the signal trampoline) stay as they ran.
"""
import os
import struct


def exec_span(elf):
    """(lowest vaddr, one past the highest file byte) of the ELF's
    executable PT_LOAD segments (64- or 32-bit little-endian)."""
    with open(elf, "rb") as f:
        data = f.read(1 << 16)
    is64 = data[4] == 2
    if is64:
        phoff, = struct.unpack_from("<Q", data, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    else:
        phoff, = struct.unpack_from("<I", data, 0x1c)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x2a)
    lo, hi = None, 0
    with open(elf, "rb") as f:
        f.seek(phoff)
        ph = f.read(phentsize * phnum)
    for i in range(phnum):
        o = i * phentsize
        if is64:
            typ, flags, _off, vaddr, _pa, filesz = struct.unpack_from(
                "<IIQQQQ", ph, o)
        else:
            typ, _off, vaddr, _pa, filesz, _msz, flags = struct.unpack_from(
                "<IIIIIII", ph, o)
        if typ == 1 and flags & 1:
            lo = vaddr if lo is None else min(lo, vaddr)
            hi = max(hi, vaddr + filesz)
    return (lo or 0, hi)


def load_line(code_path):
    """(START, END) of a code map's load line, or None."""
    if not code_path or not os.path.exists(code_path):
        return None
    with open(code_path) as f:
        for line in f:
            if line.startswith("load "):
                w = line.split()
                return int(w[1], 16), int(w[2], 16)
    return None


def read_truth(path, elf=None, code_path=None):
    """The truth file's PCs, the program's own ones at link addresses when
    the code map says it ran moved."""
    with open(path) as f:
        pcs = [int(l, 16) for l in f if l.strip()]
    ld = load_line(code_path) if elf else None
    if not ld:
        return pcs
    lo, _hi = exec_span(elf)
    start, end = ld
    if start == lo:
        return pcs
    d = start - lo
    return [a - d if start <= a < end else a for a in pcs]
