#!/usr/bin/env python3
"""Writes raw instruction words for the objdump cross-check.

  gen_words.py c16 OUT          every 16-bit encoding (low bits != 11), in order
  gen_words.py r32 OUT N SEED   N pseudo-random 32-bit encodings, spread over
                                all 32-bit major opcodes, with the function
                                fields drawn mostly from assigned values
"""
import random
import struct
import sys

# Major opcodes (bits 6:0) of 32-bit encodings; 0x1f/0x3f/0x7f are prefixes
# of longer ones and are left out.
MAJOR = [o | 3 for o in range(0, 128, 4) if (o | 3) & 0x1f != 0x1f]

# Assigned funct7 values, by major opcode, to reach deep decode paths often.
F7 = {
    0x33: [0x00, 0x01, 0x20],
    0x3b: [0x00, 0x01, 0x20],
    0x13: [0x00, 0x20, 0x01, 0x21],
    0x1b: [0x00, 0x20],
    0x53: [0x00, 0x01, 0x04, 0x05, 0x08, 0x09, 0x0c, 0x0d, 0x2c, 0x2d,
           0x10, 0x11, 0x14, 0x15, 0x20, 0x21, 0x50, 0x51, 0x60, 0x61,
           0x68, 0x69, 0x70, 0x71, 0x78, 0x79],
    0x73: [0x00, 0x08, 0x09, 0x18, 0x3d],
}


def generate(kind, n=0, seed=0):
    """Returns the bytes for `kind` 'c16' or 'r32' (n words from seed)."""
    if kind == 'c16':
        return b''.join(struct.pack('<H', h) for h in range(65536)
                        if h & 3 != 3)
    rng = random.Random(seed)
    words = []
    for _ in range(n):
        op = rng.choice(MAJOR)
        w = rng.getrandbits(32) & ~0x7f | op
        if op in F7 and rng.random() < 0.7:
            w = w & 0x01ffffff | rng.choice(F7[op]) << 25
        if op in (0x53, 0x73) and rng.random() < 0.5:
            w &= ~(0x1f << 20)  # rs2 = 0: unary fp ops, priv ops
            w |= rng.choice([0, 0, 1, 2, 3, 5]) << 20
        if op == 0x0f and rng.random() < 0.5:
            w &= 0x0ff0107f  # plain fence / fence.i fields
        if op == 0x73 and rng.random() < 0.3:
            w &= 0xfff00000 | 0x7f  # rs1 = rd = funct3 = 0
        words.append(w)
    return b''.join(struct.pack('<I', w) for w in words)


def main():
    if sys.argv[1] == 'c16':
        data = generate('c16')
    else:
        data = generate('r32', int(sys.argv[3]), int(sys.argv[4]))
    with open(sys.argv[2], 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    main()
