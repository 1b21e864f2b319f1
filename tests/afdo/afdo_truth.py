"""The truth side of the afdo checks (check_afdo.py): an independent
profile built from the corpus truth files (executed pcs) with binutils
(nm, objdump, addr2line), and the command helpers they share."""
import bisect
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from truthpcs import exec_span, read_truth  # noqa: E402

CROSS = "riscv64-linux-gnu-"

def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def must(cmd, what, **kw):
    p = run(cmd, **kw)
    if p.returncode != 0:
        raise Failure(f"{what}: exit {p.returncode}: {' '.join(cmd)}\n"
                      f"{p.stderr.strip()[:2000]}")
    return p


class Failure(Exception):
    pass


# ---------------------------------------------------------------- truth ---

def function_entries(elf):
    """Start addresses of function symbols (nm types t T w W)."""
    out = must([CROSS + "nm", elf], "nm").stdout
    ent = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            ent.add(int(f[0], 16))
    return ent


def transfers_from(elf, text_path, names):
    """Per function name: the count of the AutoFDO text's branch records
    to that function's entry from a function named in `names`, or from
    code outside the ELF (a dynamic program's libc calling back, its
    loader calling main), which create_gcov cannot place."""
    lo, hi = exec_span(elf)
    out = must([CROSS + "nm", elf], "nm").stdout
    syms = sorted((int(f[0], 16), f[2]) for f in map(str.split,
                  out.splitlines()) if len(f) == 3 and f[1] in "tTwW")
    starts = [a for a, _ in syms]
    at = dict(syms)
    hdr = must([CROSS + "readelf", "-lW", elf], "readelf").stdout
    base = min(int(l.split()[2], 16) for l in hdr.splitlines()
               if l.split()[:1] == ["LOAD"])

    def owner(a):
        k = bisect.bisect_right(starts, a)
        return syms[k - 1][1] if k else None
    got = collections.Counter()
    with open(text_path) as f:
        for line in f:
            m = re.match(r"^([0-9a-f]+)->([0-9a-f]+):(\d+)$", line.strip())
            if not m:
                continue
            a, b = int(m.group(1), 16) + base, int(m.group(2), 16) + base
            outside = not lo <= a < hi
            if b in at and (outside or owner(a) in names and
                            owner(a) != at[b]):
                got[at[b]] += int(m.group(3))
    return got


def duplicate_names(elf):
    """Names of functions defined more than once (static twins), suffixes
    such as .constprop.0 stripped."""
    out = must([CROSS + "nm", elf], "nm").stdout
    n = collections.Counter(l.split()[2].split(".")[0]
                            for l in out.splitlines()
                            if len(l.split()) == 3 and l.split()[1] in "tT")
    return {k for k, v in n.items() if v > 1}


BRANCHES = ("beq", "bne", "blt", "bge", "bltu", "bgeu", "c.beqz", "c.bnez")


def call_sites(elf):
    """Addresses of linking jumps (rd = ra or t0), of conditional
    branches, of every control transfer (jumps of any kind and
    conditional branches), and, sorted, of every instruction control can
    leave the straight line at (transfers, and traps: ecall, ebreak);
    then every instruction's length in bytes, each conditional
    branch's target, and the addresses of indirect jumps (jalr, c.jr,
    c.jalr)."""
    out = must([CROSS + "objdump", "-d", "-M", "no-aliases", elf],
               "objdump").stdout
    calls = set()
    branches = set()
    jumps = set()
    traps = set()
    indirect = set()
    lens = {}
    targets = {}
    pat = re.compile(r"^\s*([0-9a-f]+):\s+([0-9a-f]+)\s+(\S+)\s*(\S*)")
    for line in out.splitlines():
        m = pat.match(line)
        if not m:
            continue
        addr, mn, ops = int(m.group(1), 16), m.group(3), m.group(4)
        lens[addr] = len(m.group(2)) // 2
        rd = ops.split(",")[0]
        if mn in ("c.jal", "c.jalr") or (mn in ("jal", "jalr") and
                                          rd in ("ra", "t0", "x1", "x5")):
            calls.add(addr)
        if mn in BRANCHES:
            branches.add(addr)
            targets[addr] = int(ops.split(",")[-1], 16)
        if mn in ("jal", "c.j"):
            targets[addr] = int(ops.split(",")[-1], 16)
        if mn in BRANCHES or mn in ("jal", "jalr", "c.j", "c.jr", "c.jal",
                                    "c.jalr"):
            jumps.add(addr)
        if mn in ("jalr", "c.jr", "c.jalr"):
            indirect.add(addr)
        if mn in ("ecall", "ebreak", "c.ebreak", "mret", "sret", "wfi"):
            traps.add(addr)
    return calls, branches, jumps, sorted(jumps | traps), lens, targets, \
        indirect


def view_rows(elf, addrs):
    """Two maps of the is_stmt rows at addresses of addrs: addr -> lines
    with a zero-length is_stmt row at addr: rows of one sequence at one
    address before its last row (the one addr2line reports), in that
    row's file (by name and directory), on another line; and addr ->
    {(line, column)} of every is_stmt row at addr in that file (a
    statement of that line beginning there)."""
    out = must(["llvm-dwarfdump", "--debug-line", elf],
               "llvm-dwarfdump --debug-line").stdout
    row = re.compile(r"^0x([0-9a-f]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+\d+"
                     r"\s*(.*)$")
    res = {}
    stmts = {}
    files = {}
    group = []

    def flush():
        if group and group[0][0] in addrs:
            last = group[-1]
            lines = {ln for _, ln, f, st, _ in group[:-1]
                     if st and ln and files.get(f) == files.get(last[2])
                     and ln != last[1]}
            if lines:
                res.setdefault(group[0][0], set()).update(lines)
            rows = {(ln, c) for _, ln, f, st, c in group
                    if st and ln and files.get(f) == files.get(last[2])}
            if rows:
                stmts.setdefault(group[0][0], set()).update(rows)
        group.clear()

    fidx = None
    for line in out.splitlines():
        m = re.match(r"^file_names\[\s*(\d+)\]:", line)
        if m:
            fidx = int(m.group(1))
            files[fidx] = ""
            continue
        m = re.match(r'^\s+(name|dir_index): (.*)$', line)
        if m and fidx is not None:
            files[fidx] += m.group(2) + "/"
            continue
        if line.startswith("debug_line["):
            flush()
            files = {}
            fidx = None
            continue
        m = row.match(line)
        if not m:
            continue
        a, ln, col, f, flags = (int(m.group(1), 16), int(m.group(2)),
                                int(m.group(3)), int(m.group(4)),
                                m.group(5))
        if group and group[0][0] != a:
            flush()
        if "end_sequence" in flags:
            flush()
            continue
        group.append((a, ln, f, "is_stmt" in flags, col))
    flush()
    return res, stmts


def addr2line(elf, addrs):
    """addr -> inline stack [(func, line, discr)], innermost first."""
    addrs = sorted(addrs)
    res = {}
    for i in range(0, len(addrs), 5000):
        chunk = addrs[i:i + 5000]
        out = must([CROSS + "addr2line", "-a", "-f", "-i", "-e", elf] +
                   [hex(a) for a in chunk], "addr2line").stdout.splitlines()
        cur = None
        k = 0
        while k < len(out):
            if out[k].startswith("0x"):
                cur = int(out[k], 16)
                res[cur] = []
                k += 1
                continue
            func, loc = out[k], out[k + 1]
            k += 2
            m = re.match(r".*:(\d+)(?: \(discriminator (\d+)\))?$", loc)
            line = int(m.group(1)) if m else 0
            disc = int(m.group(2)) if m and m.group(2) else 0
            res[cur].append((func, line, disc))
    return res


class Truth:
    """Independent expectations from the executed pcs."""

    def __init__(self, elf, truth_path, code_path):
        pcs = read_truth(truth_path, elf, code_path)
        entries = function_entries(elf)
        calls, self.branches, jumps, self.leaves, self.lens, \
            self.targets, self.indirect = call_sites(elf)
        self.leave_set = set(self.leaves)
        self.calls = calls
        ncalls = collections.Counter()
        # Calls that reached a function's entry: their lines hold targets.
        self.callers = set()
        # A tail call (a jump from another function to an entry) enters
        # the function as a call does: gcc's entry count includes it.
        starts = sorted(entries)
        def owner(a):
            k = bisect.bisect_right(starts, a)
            return starts[k - 1] if k else None
        # A trap into an entry (a signal handler run after the ecall of
        # kill, an interrupt handler) runs the function as a call would:
        # control leaves an instruction that is no transfer for somewhere
        # other than the next instruction.
        self.trapped = collections.Counter()
        for p, q in zip(pcs, pcs[1:]):
            if q in entries and (p in calls or (p in jumps and
                                                owner(p) != q)):
                ncalls[q] += 1
                self.callers.add(p)
            elif q in entries and p not in jumps and q - p not in (2, 4):
                ncalls[q] += 1
                self.trapped[q] += 1
        if pcs and pcs[0] in entries:
            ncalls[pcs[0]] += 1
        # A switch's table jump: an indirect jump, not a call, every
        # taken transfer of which went into its own function's body
        # (not its entry; afdo_switch.c).
        ijump_to = collections.defaultdict(set)
        for p, q in zip(pcs, pcs[1:]):
            if p in self.indirect and p not in calls:
                ijump_to[p].add(q)
        self.table_jumps = {p for p, qs in ijump_to.items()
                            if all(owner(q) == owner(p) and q != owner(p)
                                   for q in qs)}
        self.count = collections.Counter(pcs)
        # Addresses control reached other than from the instruction
        # before them (the starts of the trace's blocks).
        self.joins = {q for p, q in zip(pcs, pcs[1:])
                      if q != p + self.lens.get(p, 0)}
        self.order = sorted(self.lens)
        # Times each conditional branch was taken.
        self.taken = collections.Counter(
            p for p, q in zip(pcs, pcs[1:])
            if p in self.branches and q != p + self.lens.get(p, 0))
        self.views, self.stmts = view_rows(elf, set(self.count))
        self.stack = addr2line(elf, set(self.count) | set(ncalls))
        self.heads = collections.Counter()
        for a, n in ncalls.items():
            st = self.stack.get(a)
            # addr2line names symbols without DWARF too (with "??:?").
            if st and st[-1][0] != "??" and st[-1][1]:
                self.heads[st[-1][0]] += n
        # (function, line) -> max count over its non-inlined pcs, and
        # whether those pcs are one straight run (the line was neither
        # duplicated nor split by the compiler: one count describes it).
        self.lines = {}
        pcs_of = collections.defaultdict(list)
        for a, n in self.count.items():
            st = self.stack.get(a)
            if st and len(st) == 1 and st[0][0] != "??" and st[0][1]:
                key = (st[0][0], st[0][1])
                self.lines[key] = max(self.lines.get(key, 0), n)
                pcs_of[key].append(a)
        # source line -> max count over the pcs it is innermost for (any
        # function, file or inline stack).
        self.line_max = collections.Counter()
        for a, n in self.count.items():
            st = self.stack.get(a)
            if st and st[0][1]:
                self.line_max[st[0][1]] = max(self.line_max[st[0][1]], n)
        self.simple = set()
        for key, pcs in pcs_of.items():
            pcs.sort()
            if all(self.count[p] == self.lines[key] for p in pcs) and \
               all(b - a <= 4 for a, b in zip(pcs, pcs[1:])):
                self.simple.add(key)


    def flat(self, decl, rule="max"):
        """(path, line offset) -> count, the path being (root name, (call
        offset, callee), ...) as flatten() makes it; rule "max": the
        maximum over the position's pcs; "gcc": the count of its
        first statement beginning at its pcs (stmt_count), else their upper
        median, or the lower count when its conditional branches ran with
        exactly two different counts; raised to its most executed call's
        count; when its conditional branches ran with three or more
        different counts: the largest (at least the calls') for an &&
        chain (see the module comment), the first statement's for a
        switch's table jump (table_jumps) or a switch lowered to tests
        (multiway) with one, else the position
        dropped unless
        one of its pcs is an indirect call that reached a function; every
        count capped first where code was hoisted above a test
        (hoist_cap) or is a loop's step moved above the body's back edge
        (step_cap); a line with one forward test capped at its arm's
        count (arms), or at the outcome that goes straight into the
        loop's continuation (continues); and the offline instances added
        (offline). Positions
        with a line before a declaration line are dropped (no profile
        format can hold them)."""
        counts = collections.defaultdict(list)
        key_of = {}
        view = {}
        for a, n in self.count.items():
            st = self.stack.get(a)
            if not st or any(f == "??" or not l or f not in decl
                             for f, l, _ in st):
                continue
            path = (st[-1][0],)
            ok = True
            for k in range(len(st) - 1, 0, -1):
                off = st[k][1] - decl[st[k][0]]
                ok = ok and off >= 0
                path += ((off, st[k - 1][0]),)
            off = st[0][1] - decl[st[0][0]]
            if ok and off >= 0:
                counts[(path, off)].append(a)
                key_of[a] = (path, off)
            for line in self.views.get(a, ()) if ok else ():
                off = line - decl[st[0][0]]
                if off >= 0:
                    view[(path, off)] = max(view.get((path, off), 0), n)
        res = {}
        if rule == "gcc":
            res = {k: c for k, c in view.items() if k not in counts}
        for key, pcs in counts.items():
            if rule == "max":
                res[key] = max(self.count[a] for a in pcs)
                continue
            # Code hoisted above an earlier line's test counts as the
            # outcome holding the rest of it (hoist_cap).
            # So does a loop's step moved above the body's back edge
            # (step_cap).
            cnt = {a: min(self.count[a], self.hoist_cap(a, key, key_of,
                                                          decl),
                          self.step_cap(a, key, key_of))
                   for a in pcs}
            v = sorted(cnt[a] for a in pcs)
            br = sorted({cnt[a] for a in pcs if a in self.branches})
            calls = [cnt[a] for a in pcs if a in self.calls]
            line = key[1] + decl[self.stack[pcs[0]][0][0]]
            # A switch is one GIMPLE block when gcc reads the profile:
            # its first statement's count (afdo_switch.c).
            first = self.stmt_count(pcs, line, cnt)
            if len(br) >= 3 and first and \
                    (any(a in self.table_jumps for a in pcs) or
                     self.multiway(pcs, key, key_of, line)):
                res[key] = max([first] + calls)
                continue
            if len(br) >= 3:
                # An && chain: the tests that ran more often than the
                # line's first statement (all of them when it ran as
                # often as the hottest) within a factor 2, at least two
                # different counts: the hottest test's count.
                first = self.stmt_count(pcs, line, cnt)
                above = [b for b in br
                         if b > (first if first < br[-1] else 0)]
                if len(above) >= 2 and above[0] * 2 >= br[-1]:
                    res[key] = max([br[-1]] + calls)
                    continue
            if len(br) < 3 or any(a in self.callers and a in self.indirect
                                  for a in pcs):
                c = self.stmt_count(pcs, line, cnt)
                if not c:
                    c = br[0] if len(br) == 2 else v[len(v) // 2]
                tests = [a for a in pcs if a in self.branches]
                if len(tests) == 1:
                    c = min([c] + self.arms(tests[0], key, key_of))
                res[key] = max([c] + calls)
        if rule == "gcc":
            res = self.offline(res, decl)
        return res

    def multiway(self, pcs, key, key_of, line):
        """Whether the position's code is a switch lowered to tests
        (afdo_multiway.c): its is_stmt rows of `line` at pcs are of one
        column (one statement), none of pcs is a call or a backward
        conditional branch, and its conditional branches and plain jumps
        leave its code, by each way that ran (taken, falling through),
        for three or more different addresses."""
        cols = {c for a in pcs for ln, c in self.stmts.get(a, ())
                if ln == line}
        if len(cols) != 1 or any(a in self.calls for a in pcs):
            return False
        exits = set()
        for a in pcs:
            if a in self.branches:
                if self.targets[a] <= a:
                    return False
                n, t = self.count[a], self.taken[a]
                ways = ((self.targets[a], t), (a + self.lens[a], n - t))
            elif a in self.targets and a not in self.calls:
                ways = ((self.targets[a], self.count[a]),)
            else:
                continue
            exits |= {x for x, ran in ways if ran and key_of.get(x) != key}
        return len(exits) >= 3

    def offline(self, res, decl):
        """res with the offline instances of the gcc rule added
        (afdo_offline.c): a function with no top-level instance (it never
        ran code of its own nor was entered) that is inlined two or more
        levels below a top-level function gets one, the sum over those
        inlined instances of their positions (and their inline paths
        below)."""
        tops = {k[0][0] for k in self.flat(decl)}
        tops |= {n for n, c in self.heads.items() if c}
        extra = collections.Counter()
        for (path, off), c in res.items():
            for j in range(2, len(path)):
                name = path[j][1]
                if name not in tops:
                    extra[((name,) + path[j + 1:], off)] += c
        out = dict(res)
        for k, c in extra.items():
            out[k] = out.get(k, 0) + c
        return out

    def arms(self, b, key, key_of):
        """The outcome counts of the forward conditional branch at b
        (position key) that run the line's own code: ran at least once
        and less often than the branch, their first pc is of key and ran
        exactly that often, and the straight run of key's pcs with that
        count from there reaches no conditional branch (else it is a
        further test of the same condition, a && b); when there is none,
        the taken count if the branch skips an earlier line's code
        (skips_earlier)."""
        if self.targets[b] <= b:
            return []
        n, t = self.count[b], self.taken[b]
        res = []
        for a, out in ((b + self.lens[b], n - t), (self.targets[b], t)):
            if not 0 < out < n or self.count[a] != out or \
               key_of.get(a) != key:
                continue
            while self.count[a] == out and key_of.get(a) == key:
                if a in self.branches or a in self.leave_set or \
                   a not in self.lens:
                    break
                a += self.lens[a]
            if not (self.count[a] == out and key_of.get(a) == key and
                    a in self.branches):
                res.append(out)
        if not res and 0 < t < n and self.skips_earlier(b, key, key_of):
            res.append(t)
        return res + self.continues(b, key, key_of)

    def continues(self, b, key, key_of):
        """The outcome counts of the forward conditional branch at b
        (position key) that go straight into the loop's continuation
        (afdo_continue.c): ran at least once and less often than the
        branch, their first pc ran more often (a join), the straight run
        from it holds no pc of key and ends in a backward branch or
        (non-linking) jump of a line of the same inline path before key's;
        and the straight code running into b (back to its block's start,
        across calls, after any earlier conditional branch) holds a pc
        run as often as b of a line between that loop line and key's, or
        of another inline path."""
        n, t = self.count[b], self.taken[b]
        res = []
        for x, out in ((b + self.lens[b], n - t), (self.targets[b], t)):
            if not 0 < out < n or self.count[x] <= out:
                continue
            loop = None
            while x in self.lens and key_of.get(x) != key:
                if x in self.leave_set:
                    k = key_of.get(x)
                    if (x in self.branches or (x in self.targets and
                                               x not in self.calls)) \
                       and self.targets[x] < x and k and \
                       k[0] == key[0] and k[1] < key[1]:
                        loop = k[1]
                    break
                x += self.lens[x]
            if loop is not None and self.body_before(b, key, key_of, loop):
                res.append(out)
        return res

    def body_before(self, b, key, key_of, loop):
        """See continues(): the code before the test at b."""
        a, crossed, found = b, 0, False
        while True:
            k = bisect.bisect_left(self.order, a)
            p = self.order[k - 1] if k else None
            if p is None or p + self.lens[p] != a:
                break
            if a in self.joins and (p not in self.calls or crossed == 4):
                break
            if p in self.calls and a in self.joins:
                crossed += 1
            elif p in self.leave_set:
                break
            a = p
            kp = key_of.get(a)
            if self.count[a] == self.count[b] and kp and \
               (kp[0] != key[0] or loop < kp[1] < key[1]):
                found = True
        return found

    def next_transfer(self, a):
        """The first pc from a on that is a transfer other than a call, or
        the first pc past the known code (afdo_next_transfer)."""
        while a in self.lens and (a not in self.leave_set or
                                  a in self.calls):
            a += self.lens[a]
        return a

    def step_cap(self, a, key, key_of):
        """The count of key's code at a when it is its loop's step moved
        above the body's back edge (afdo_step.c): the first transfer after
        a other than a call is a backward conditional branch of a later
        line of the same inline path, to a target at or before a whose
        straight run up to a holds more of key: the times it was taken;
        else a's count."""
        b = self.next_transfer(a)
        kb = key_of.get(b)
        if b not in self.branches or not kb or kb[0] != key[0] or \
           kb[1] <= key[1] or self.targets[b] > a or not self.taken[b]:
            return self.count[a]
        x = self.targets[b]
        while x < a and x in self.lens:
            if key_of.get(x) == key:
                return self.taken[b]
            if x in self.leave_set:
                break
            x += self.lens[x]
        return self.count[a]

    def skips_earlier(self, b, key, key_of):
        """Whether the forward branch at b (position key) skips, when
        taken, a straight run of an earlier line of the same inline path
        (an arm gcc if-converted into the statement before it): the fall
        through ran as often as the branch fell through, is of such a
        line, and straight code from it reaches the target."""
        a, end = b + self.lens[b], self.targets[b]
        k = key_of.get(a)
        if a >= end or self.count[a] != self.count[b] - self.taken[b] or \
                not k or k[0] != key[0] or k[1] >= key[1]:
            return False
        while a < end and a in self.lens and a not in self.leave_set:
            a += self.lens[a]
        return a == end

    def hoist_cap(self, a, key, key_of, decl):
        """The count of key's code at a when the scheduler hoisted it
        above a test: the first transfer after a other than a call is a
        conditional branch of an earlier line of the same inline path (or
        of a caller on key's path, before its call site leading to key)
        with no is_stmt row of its line at it, and the straight run one
        of its outcomes starts (not reaching a again) holds more pcs of
        key: the largest such outcome's count; else a's count."""
        b = self.next_transfer(a)
        kb = key_of.get(b)
        if b not in self.branches or not kb:
            return self.count[a]
        # The test's line comes first in its function: before key's line
        # on the same inline path, or before the call site of a caller on
        # key's path (kb's path a prefix of it) that leads to key's code.
        m = len(kb[0])
        if kb[0] == key[0]:
            before = key[1]
        elif m < len(key[0]) and key[0][:m] == kb[0]:
            before = key[0][m][0]
        else:
            return self.count[a]
        if kb[1] >= before:
            return self.count[a]
        line_b = kb[1] + decl[self.stack[b][0][0]]
        if any(ln == line_b for ln, _ in self.stmts.get(b, ())):
            return self.count[a]
        cap = 0
        for x in (b + self.lens[b], self.targets[b]):
            x0, more = x, False
            while x != a and x in self.lens and \
                    self.count[x] == self.count[x0]:
                more = more or key_of.get(x) == key
                if x in self.leave_set:
                    break
                x += self.lens[x]
            if more:
                cap = max(cap, self.count[x0])
        return cap if cap else self.count[a]

    def stmt_count(self, pcs, line, cnt):
        """For the line's first statement (the is_stmt rows of `line`
        with the lowest column) beginning at pcs, the times control
        passed its beginnings: each beginning's count summed, a
        beginning counted once per address and not at all when it ran as
        often as the previous counted one of its statement and no
        instruction from there to it can leave the straight line (one run
        of code); 0 if none begins at pcs."""
        by_col = collections.defaultdict(set)
        for a in pcs:
            for ln, col in self.stmts.get(a, ()):
                if ln == line:
                    by_col[col].add(a)
        if not by_col:
            return 0
        tot, prev = 0, None
        for a in sorted(by_col[min(by_col)]):
            if prev is not None and cnt[a] == cnt[prev] \
               and not self.leaves_between(prev, a):
                continue
            tot += cnt[a]
            prev = a
        return tot

    def leaves_between(self, a, b):
        """Whether an instruction at an address in [a, b) can leave the
        straight line (a transfer or a trap)."""
        k = bisect.bisect_left(self.leaves, a)
        return k < len(self.leaves) and self.leaves[k] < b
