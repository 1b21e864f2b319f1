#!/usr/bin/env python3
"""Compares insn_dump output with `objdump -d -M no-aliases` for one input.

Hard requirement (exit 1 on any difference): the same instruction addresses,
and per instruction the same length, control-flow class, direct target and
link-register hint (derived from objdump's mnemonic and operands). Words
objdump cannot decode (.2byte/.4byte/.byte/c.unimp/unimp) must be INVALID or
have the same length. The text is compared too; its match rate is reported
and may only fall below --min-text if asked.

usage: compare_objdump.py --dump INSN_DUMP --objdump OBJDUMP
                          (ELF | --raw FILE --xlen N) [--min-text PCT] [-v]
       [--cc CC --cflags FLAGS --src PROG.C]   build ELF from PROG.C first
       [--gen c16 | --gen r32:N:SEED]          write the raw FILE first
"""
import argparse
import re
import shlex
import subprocess
import sys

import gen_words

BRANCH = {'beq', 'bne', 'blt', 'bge', 'bltu', 'bgeu', 'c.beqz', 'c.bnez'}
JUMP = {'jal', 'c.j', 'c.jal'}
IJUMP = {'jalr', 'c.jr', 'c.jalr'}
TRET = {'mret', 'sret', 'uret', 'hret'}  # hret: privileged spec 1.9.1
TRAP = {'ecall', 'ebreak', 'c.ebreak'}
UNKNOWN = {'.2byte', '.4byte', '.8byte', '.byte', '.insn', 'c.unimp',
           'unimp', 'unknown', '(bad)'}
LINK_REGS = {'ra', 't0'}
# Encodings the ISA manual reserves but objdump 2.40 still decodes.
SPEC_RESERVED = {'c.addi16sp\tsp,0'}

LINE = re.compile(r'^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*(?:\t(.*))?$')


def parse_objdump(text):
    """Returns {addr: (len, mnemonic, operands, text)} in listing order."""
    out = {}
    last = None
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        nbytes = len(m.group(2).replace(' ', '')) // 2
        body = m.group(3)
        if body is None:  # continuation of a long data line
            if last is not None:
                ln, mn, ops, txt = out[last]
                out[last] = (ln + nbytes, mn, ops, txt)
            continue
        body = re.sub(r'\s+#.*$', '', body)       # "# 1234 <sym>" comments
        body = re.sub(r'\s+<[^>]*>$', '', body)   # target symbol
        body = body.rstrip()
        parts = body.split('\t', 1)
        mn = parts[0]
        ops = parts[1] if len(parts) > 1 else ''
        out[addr] = (nbytes, mn, ops, body)
        last = addr
    return out


def expected(mn, ops):
    """Expected (class, target, link) from objdump's mnemonic/operands."""
    fields = ops.split(',') if ops else []
    if mn in BRANCH:
        return 'branch', int(fields[-1].replace('0x', ''), 16), 'none'
    if mn in JUMP:
        tgt = int(fields[-1].replace('0x', ''), 16)
        rd = 'ra' if mn == 'c.jal' else (fields[0] if mn == 'jal' else 'zero')
        return 'jump', tgt, 'call' if rd in LINK_REGS else 'none'
    if mn in IJUMP:
        if mn == 'jalr':
            rd = fields[0]
            rs1 = re.search(r'\((\w+)\)', fields[1]).group(1)
        elif mn == 'c.jr':
            rd, rs1 = 'zero', fields[0]
        else:
            rd, rs1 = 'ra', fields[0]
        if rd in LINK_REGS:
            link = 'coro' if rs1 in LINK_REGS and rs1 != rd else 'call'
        else:
            link = 'ret' if rs1 in LINK_REGS else 'none'
        return 'ijump', None, link
    if mn in TRET:
        return 'tret', None, 'none'
    if mn in TRAP:
        return 'trap', None, 'none'
    return 'other', None, 'none'


def normalize_text(body):
    """objdump prints targets as 0x... when it has no symbols (raw input)."""
    parts = body.split('\t', 1)
    if len(parts) == 2 and (parts[0] in BRANCH or parts[0] in JUMP):
        f = parts[1].split(',')
        f[-1] = f[-1].replace('0x', '')
        return parts[0] + '\t' + ','.join(f)
    return body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dump', required=True)
    ap.add_argument('--objdump', required=True)
    ap.add_argument('--raw')
    ap.add_argument('--xlen', type=int, default=64)
    ap.add_argument('--min-text', type=float, default=0.0)
    ap.add_argument('--cc')
    ap.add_argument('--cflags', default='')
    ap.add_argument('--src')
    ap.add_argument('--gen')
    ap.add_argument('-v', action='store_true')
    ap.add_argument('elf', nargs='?')
    a = ap.parse_args()

    if a.cc:
        cmd = [a.cc] + shlex.split(a.cflags) + [a.src, '-o', a.elf, '-lm']
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print('build failed: %s\n%s' % (' '.join(cmd), r.stderr))
            return 1
    if a.gen:
        kind, *rest = a.gen.split(':')
        with open(a.raw, 'wb') as f:
            f.write(gen_words.generate(kind, *map(int, rest)))

    if a.raw:
        od_cmd = [a.objdump, '-z', '-D', '-b', 'binary', '-m',
                  'riscv:rv%d' % a.xlen, '-M', 'no-aliases', a.raw]
        dump_cmd = [a.dump, '--raw', a.raw, str(a.xlen)]
        name = a.raw
    else:
        od_cmd = [a.objdump, '-z', '-d', '-M', 'no-aliases', a.elf]
        dump_cmd = [a.dump, a.elf]
        name = a.elf
    od = parse_objdump(subprocess.run(od_cmd, check=True, capture_output=True,
                                      text=True).stdout)
    ours = {}
    for line in subprocess.run(dump_cmd, check=True, capture_output=True,
                               text=True).stdout.splitlines():
        addr, ln, cls, tgt, link, text = line.split('\t', 5)
        ours[int(addr, 16)] = (int(ln), cls, None if tgt == '-' else
                               int(tgt, 16), link, text)

    bad = []
    checked = same_text = unknown = reserved = 0
    text_diff = {}
    for addr, (ln, mn, ops, body) in od.items():
        if addr not in ours:
            bad.append('%x: objdump has "%s", we have no insn here'
                       % (addr, body))
            continue
        checked += 1
        oln, ocls, otgt, olink, otext = ours[addr]
        if normalize_text(body) == otext:
            same_text += 1
        else:
            text_diff.setdefault(mn, []).append((addr, body, otext))
        if mn in UNKNOWN:
            unknown += 1
            if ocls != 'invalid' and oln != ln:
                bad.append('%x: objdump "%s" (%d bytes), we %s len %d'
                           % (addr, body, ln, ocls, oln))
            continue
        if ocls == 'invalid' and body in SPEC_RESERVED and oln == ln:
            reserved += 1
            continue
        cls, tgt, link = expected(mn, ops)
        if (oln, ocls, otgt, olink) != (ln, cls, tgt, link):
            bad.append('%x: objdump "%s" -> len %d %s %s %s; we len %d %s %s'
                       ' %s ("%s")' % (addr, body, ln, cls,
                                       '-' if tgt is None else '%x' % tgt,
                                       link, oln, ocls,
                                       '-' if otgt is None else '%x' % otgt,
                                       olink, otext))
    for addr in sorted(set(ours) - set(od)):
        bad.append('%x: we decode "%s", objdump has no insn here'
                   % (addr, ours[addr][4]))

    rate = 100.0 * same_text / checked if checked else 0.0
    print('%s: %d instructions checked, %d mismatches (%d undecodable by '
          'objdump, %d spec-reserved); text matches objdump for %d '
          '(%.2f%%)' % (name, checked, len(bad), unknown, reserved,
                        same_text, rate))
    for b in bad[:40]:
        print('MISMATCH ' + b)
    if a.v or (a.min_text and rate < a.min_text):
        for mn, lst in sorted(text_diff.items(), key=lambda kv: -len(kv[1])):
            addr, body, otext = lst[0]
            print('text %-12s x%-6d e.g. %x: objdump "%s" ours "%s"'
                  % (mn, len(lst), addr, body, otext))
    if bad or not checked:
        return 1
    if a.min_text and rate < a.min_text:
        print('text match rate %.2f%% below %.2f%%' % (rate, a.min_text))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
