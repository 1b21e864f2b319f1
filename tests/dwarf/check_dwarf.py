#!/usr/bin/env python3
"""Compares ltpipe's DWARF services (through dwarf_query) with binutils and
LLVM on one ELF:

  lines   every 2-byte address of every function symbol (plus addresses
          outside all code): our line lookup == addr2line file:line and
          discriminator
  inline  the same addresses: our inline stack == addr2line -i -f
          (function names, then the line and the call sites)
  rows    our full row list == llvm-dwarfdump --debug-line (address, full
          path, line, column, discriminator, is_stmt, end_sequence,
          prologue_end, epilogue_begin)
  iter    for each function, the rows our range iterator returns == the
          rows of every group (computed here from the llvm-dwarfdump rows)
          whose span meets the function
  cache   lt_dwarf_get on two loads of the image shares one table set
  robust  damaged inputs (not an ELF, truncated, stripped, random bytes
          changed in the debug sections): an exact message or result,
          never a crash

Prints one count line per check; exits 1 on any mismatch (listing the
first ones) or when a check compared nothing."""
import argparse
import os
import random
import re
import subprocess
import sys


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('command failed (%d): %s\n%s' % (r.returncode, ' '.join(cmd),
                                                 r.stderr))
    return r.stdout


def functions(nm, elf):
    """(start, end, name) of every sized function symbol."""
    out = []
    for ln in run([nm, '-S', '--defined-only', elf]).splitlines():
        f = ln.split()
        if len(f) == 4 and f[2] in 'tTwW' and int(f[1], 16) > 0:
            a = int(f[0], 16)
            out.append((a, a + int(f[1], 16), f[3]))
    return sorted(set(out))


def addresses(funcs):
    addrs = []
    for lo, hi, _ in funcs:
        addrs.extend(range(lo, hi, 2))
    # Outside every function: before the first, after the last, far away.
    addrs += [0, funcs[0][0] - 2, funcs[-1][1] + 0x100000, 0x7fffffff0]
    return sorted(set(a for a in addrs if a >= 0))


def a2l_blocks(text):
    """addr2line -a output -> {address: [lines]}."""
    res, cur = {}, None
    for ln in text.splitlines():
        if re.fullmatch(r'0x[0-9a-f]{8,16}', ln):
            cur = int(ln, 16)
            res[cur] = []
        else:
            res[cur].append(ln)
    return res


def a2l_loc(file, line, discr):
    """Our location in addr2line's notation."""
    s = '%s:%s' % (file, '?' if line == 0 and file != '??' else line)
    if discr:
        s += ' (discriminator %d)' % discr
    return s


def parse_loc(text):
    """'file:line discr' from dwarf_query -> (file, line, discr)."""
    loc, discr = text.rsplit(' ', 1)
    file, line = loc.rsplit(':', 1)
    return file, int(line), int(discr)


# Addresses whose addr2line file was shown wrong (see check_lines), with
# what addr2line prints there.
A2L_FILE_BUG = {}


def symbolizer_files(args, addrs):
    """{address: file} from llvm-symbolizer (no inlining)."""
    out = run([args.symbolizer, '--obj=' + args.elf, '--no-inlines'],
              ''.join('0x%x\n' % a for a in addrs))
    blocks = [b.splitlines() for b in out.strip('\n').split('\n\n')]
    return {a: b[1].rsplit(':', 2)[0] for a, b in zip(addrs, blocks)}


def check_lines(args, addrs, stdin):
    ours = run([args.query, args.elf, 'lines'], stdin).splitlines()
    ref = a2l_blocks(run([args.addr2line, '-a', '-e', args.elf], stdin))
    bad, suspect = [], []
    for a, ln in zip(addrs, ours):
        addr, rest = ln.split(' ', 1)
        assert int(addr, 16) == a
        file, line, discr = parse_loc(rest)
        mine = a2l_loc(file, line, discr)
        if ref[a] == [mine]:
            continue
        # binutils 2.40 resolves a DWARF 5 row that uses the default file
        # register (1) to file entry 0, like libdwarf 20210528: only the
        # file may differ then, and llvm-symbolizer must agree with us.
        theirs = ref[a][0] if len(ref[a]) == 1 else ''
        m = re.fullmatch(r'(.*):(\d+|\?)( \(discriminator \d+\))?', theirs)
        if m and args.symbolizer and mine.endswith(theirs[len(m.group(1)):]) \
                and mine[:len(file)] == file:
            suspect.append((a, file, theirs, mine))
        else:
            bad.append('0x%x: ours %r addr2line %r' % (a, mine, ref[a]))
    if suspect:
        sym = symbolizer_files(args, [s[0] for s in suspect])
        for a, file, theirs, mine in suspect:
            A2L_FILE_BUG[a] = theirs
            if sym[a] != file:
                bad.append('0x%x: ours %r addr2line %r llvm-symbolizer %r'
                           % (a, mine, theirs, sym[a]))
    known = sum(1 for ln in ours if ' ??:0 ' not in ln)
    return report('lines', len(ours), bad,
                  '(%d with a line, %d distinct answers, %d where only the '
                  'file differs from addr2line 2.40 and llvm-symbolizer '
                  'agrees with us)'
                  % (known, len(set(ln.split(' ', 1)[1] for ln in ours)),
                     len(suspect)))


def check_inline(args, addrs, stdin):
    ours = run([args.query, args.elf, 'inline'], stdin).splitlines()
    ref = a2l_blocks(run([args.addr2line, '-a', '-i', '-f', '-e', args.elf],
                         stdin))
    bad, depth_hist = [], {}
    for a, ln in zip(addrs, ours):
        parts = ln.split(' | ')
        addr, loc = parts[0].split(' ', 1)
        assert int(addr, 16) == a
        frames = []
        for fr in parts[1:]:
            name, decl, site = fr.split(' ', 2)
            cfile, cline, ccol, cdis = site.rsplit(':', 3)
            frames.append((name, int(decl), cfile, int(cline)))
        depth_hist[len(frames)] = depth_hist.get(len(frames), 0) + 1
        file, line, discr = parse_loc(loc)
        exp = []
        if not frames:
            exp = ['??', A2L_FILE_BUG.get(a, a2l_loc(file, line, discr))]
        for i, fr in enumerate(frames):
            exp.append(fr[0])
            if i == 0:
                exp.append(A2L_FILE_BUG.get(a, a2l_loc(file, line, discr)))
            else:
                prev = frames[i - 1]
                exp.append(a2l_loc(prev[2], prev[3], 0))
        if ref[a] != exp:
            bad.append('0x%x: ours %r addr2line %r' % (a, exp, ref[a]))
    if 'lines' not in args.checks.split(','):
        sys.exit('the inline check needs the lines check first')
    hist = ' '.join('depth%d:%d' % kv for kv in sorted(depth_hist.items()))
    return report('inline', len(ours), bad, '(%s)' % hist)


def dwarfdump_rows(args):
    """Rows of every line table, with full paths, from llvm-dwarfdump."""
    info = run([args.dwarfdump, '--debug-info', args.elf])
    comp_dirs, cu = {}, {}
    for ln in info.splitlines() + ['DW_TAG_compile_unit']:
        if 'DW_TAG_compile_unit' in ln or 'DW_TAG_partial_unit' in ln:
            if 'stmt' in cu:
                comp_dirs[cu['stmt']] = cu.get('comp')
            cu = {}
        m = re.search(r'DW_AT_stmt_list\s+\((0x[0-9a-f]+)\)', ln)
        if m:
            cu['stmt'] = int(m.group(1), 16)
        m = re.search(r'DW_AT_comp_dir\s+\("(.*)"\)', ln)
        if m:
            cu['comp'] = m.group(1)
    text = run([args.dwarfdump, '--debug-line', args.elf])
    rows, dirs, files, comp, version = [], {}, {}, None, 0
    cur_file = None
    for ln in text.splitlines():
        m = re.match(r'debug_line\[(0x[0-9a-f]+)\]', ln)
        if m:
            comp = comp_dirs.get(int(m.group(1), 16))
            dirs, files = {}, {}
            continue
        m = re.match(r'\s+version: (\d+)', ln)
        if m:
            version = int(m.group(1))
        m = re.match(r'include_directories\[\s*(\d+)\] = "(.*)"', ln)
        if m:
            dirs[int(m.group(1))] = m.group(2)
        m = re.match(r'file_names\[\s*(\d+)\]:', ln)
        if m:
            cur_file = int(m.group(1))
        m = re.match(r'\s+name: "(.*)"', ln)
        if m:
            files[cur_file] = [m.group(1), 0]
        m = re.match(r'\s+dir_index: (\d+)', ln)
        if m:
            files[cur_file][1] = int(m.group(1))
        m = re.match(r'0x([0-9a-f]{16})\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)'
                     r'\s+(\d+)\s*(.*)', ln)
        if m:
            name, di = files[int(m.group(4))]
            d = dirs.get(di) if (version >= 5 or di > 0) else None
            if name.startswith('/'):
                path = name
            elif d and d.startswith('/'):
                path = d + '/' + name
            else:
                path = '/'.join(x for x in (comp, d, name) if x)
            fl = m.group(7).split()
            rows.append('0x%x %s %s %s %s %d %d %d %d' % (
                int(m.group(1), 16), path, m.group(2), m.group(3),
                m.group(6), 'is_stmt' in fl, 'end_sequence' in fl,
                'prologue_end' in fl, 'epilogue_begin' in fl))
    return rows


def check_rows(args, ref):
    ours = run([args.query, args.elf, 'rows']).splitlines()
    bad = ['row %d: ours %r llvm-dwarfdump %r' % (i, o, r)
           for i, (o, r) in enumerate(zip(ours, ref)) if o != r]
    if len(ours) != len(ref):
        bad.append('row count: ours %d llvm-dwarfdump %d'
                   % (len(ours), len(ref)))
    discr = sum(1 for r in ref if r.split()[4] != '0')
    stmt0 = sum(1 for r in ref if r.split()[5] == '0')
    return report('rows', len(ours), bad,
                  '(%d with a discriminator, %d not is_stmt)'
                  % (discr, stmt0))


def check_iter(args, funcs, ref):
    # Groups: consecutive rows of one sequence at one address; a group
    # spans up to the next address of its sequence.
    parsed = [r.split() for r in ref]
    groups, i = [], 0
    while i < len(parsed):
        if parsed[i][6] == '1':
            i += 1
            continue
        j = i
        while (j + 1 < len(parsed) and parsed[j + 1][6] == '0'
               and parsed[j + 1][0] == parsed[i][0]):
            j += 1
        if j + 1 < len(parsed):
            groups.append((int(parsed[i][0], 16),
                           int(parsed[j + 1][0], 16), ref[i:j + 1]))
        i = j + 1
    groups.sort(key=lambda g: g[0])
    bad, total = [], 0
    for lo, hi, name in funcs:
        exp = [r for g in groups if g[0] < hi and g[1] > lo and g[0] < g[1]
               for r in g[2]]
        got = run([args.query, args.elf, 'iter', '%x' % lo,
                   '%x' % hi]).splitlines()
        total += len(got)
        if got != exp:
            bad.append('%s [0x%x,0x%x): ours %d rows, expected %d'
                       % (name, lo, hi, len(got), len(exp)))
    return report('iter', total, bad, '(%d functions)' % len(funcs))


def check_robust(args):
    """Damaged inputs: each run must end with a stats line (exit 0) or one
    error line (exit 1), never a crash. Expected answers for the fixed
    cases are exact."""
    bad = []
    data = open(args.elf, 'rb').read()
    work = args.workdir + '/robust.elf'

    def query(content):
        with open(work, 'wb') as f:
            f.write(content)
        r = subprocess.run([args.query, work, 'stats'], capture_output=True,
                           text=True)
        return r.returncode, r.stdout.strip()

    fixed = [
        ('not an ELF', b'int main(void) { return 0; }\n', 1,
         'error not a usable RISC-V ELF file: %s: not an ELF file' % work),
        ('empty file', b'', 1,
         'error not a usable RISC-V ELF file: %s: not an ELF file' % work),
        ('ELF magic only', data[:4], 1, None),
        ('first 64 bytes', data[:64], 1, None),
    ]
    stripped = subprocess.run([args.strip, '-g', '-o', work + '.s', args.elf],
                              capture_output=True)
    if stripped.returncode == 0:
        fixed.append(('no debug info', open(work + '.s', 'rb').read(), 0,
                      'units 0 rows 0 spans 0 files 0 funcs 0 '
                      'inline-spans 0'))
    else:
        bad.append('strip failed')
    for what, content, rc, out in fixed:
        got_rc, got = query(content)
        if out is not None and got.startswith('units'):
            got = got.rsplit(' load-ms', 1)[0]
        if got_rc != rc or (out is not None and got != out) or \
                (out is None and not got.startswith('error ')):
            bad.append('%s: exit %d %r, expected exit %d %r'
                       % (what, got_rc, got, rc, out))
    # Random damage inside the debug sections (fixed seed).
    secs = []
    for ln in run([args.readelf, '-S', '-W', args.elf]).splitlines():
        f = ln.replace('[ ', '[').split()
        if len(f) > 5 and f[1].startswith('.debug'):
            secs.append((f[1], int(f[4], 16), int(f[5], 16)))
    rng = random.Random(12345)
    outcome = {0: 0, 1: 0}
    for i in range(args.mutations):
        b = bytearray(data)
        name, off, size = rng.choice(secs)
        for _ in range(rng.randint(1, 16)):
            b[off + rng.randrange(size)] = rng.randrange(256)
        rc, out = query(bytes(b))
        ok = (rc == 0 and out.startswith('units ')) or \
             (rc == 1 and out.startswith('error ') and '\n' not in out)
        if not ok:
            keep = '%s/robust-fail-%d.elf' % (args.workdir, i)
            with open(keep, 'wb') as f:
                f.write(b)
            bad.append('mutation %d in %s: exit %d %r (kept as %s)'
                       % (i, name, rc, out[-200:], keep))
        else:
            outcome[rc] += 1
    return report('robust', len(fixed) + args.mutations, bad,
                  '(%d damaged copies read, %d refused with a message)'
                  % (outcome[0], outcome[1]))


def report(what, n, bad, extra):
    print('%-7s %s: %d compared, %d mismatches %s'
          % (what, args.elf.rsplit('/', 1)[-1], n, len(bad), extra))
    for b in bad[:20]:
        print('  ' + b)
    return n > 0 and not bad


ap = argparse.ArgumentParser()
ap.add_argument('--query', required=True)
ap.add_argument('--elf', required=True)
ap.add_argument('--addr2line', required=True)
ap.add_argument('--nm', required=True)
ap.add_argument('--dwarfdump')
ap.add_argument('--symbolizer')
ap.add_argument('--checks', default='lines,inline,rows,iter')
ap.add_argument('--readelf', default='riscv64-linux-gnu-readelf')
ap.add_argument('--strip', default='riscv64-linux-gnu-strip')
ap.add_argument('--mutations', type=int, default=300)
ap.add_argument('--cc', help='build ELF from --src first')
ap.add_argument('--cflags', default='')
ap.add_argument('--src', nargs='*', default=[])
args = ap.parse_args()
args.workdir = os.path.dirname(os.path.abspath(args.elf))
os.makedirs(args.workdir, exist_ok=True)
if args.cc:
    # Relative source paths (from the source root) make the line tables
    # use DW_AT_comp_dir and include directories.
    root = os.path.commonpath([os.path.dirname(p) for p in args.src])
    root = os.path.dirname(root)
    rel = [os.path.relpath(p, root) for p in args.src]
    r = subprocess.run([args.cc] + args.cflags.split() +
                       ['-o', os.path.abspath(args.elf)] + rel, cwd=root,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('build failed: %s' % r.stderr)

checks = args.checks.split(',')
if checks == ['robust']:
    sys.exit(0 if check_robust(args) else 1)
funcs = functions(args.nm, args.elf)
if not funcs:
    sys.exit('%s: no function symbols' % args.elf)
addrs = addresses(funcs)
stdin = ''.join('%x\n' % a for a in addrs)
ok = True
if 'robust' in checks:
    ok &= check_robust(args)
if 'lines' in checks:
    ok &= check_lines(args, addrs, stdin)
if 'inline' in checks:
    ok &= check_inline(args, addrs, stdin)
if 'rows' in checks or 'iter' in checks or 'cache' in checks:
    if not args.dwarfdump:
        sys.exit('rows/iter/cache checks need --dwarfdump')
    ref = dwarfdump_rows(args)
    if 'rows' in checks:
        ok &= check_rows(args, ref)
    if 'iter' in checks:
        ok &= check_iter(args, funcs, ref)
    if 'cache' in checks:
        got = run([args.query, args.elf, 'cache']).strip()
        exp = 'cache shared rows %d' % len(ref)
        ok &= report('cache', 1, [] if got == exp else
                     ['ours %r expected %r' % (got, exp)], '')
sys.exit(0 if ok else 1)
