#!/usr/bin/env python3
"""Checks the afdo receiver's three outputs against the real consumers and
against counts computed here, independently, from the corpus truth.

For every -O2 corpus program (plain twin, BT trace), ltpipe writes
PROG.afdo (gcc 12, version 2, lines=gcc), PROG.max.afdo (lines=max),
PROG.v1.afdo (gcc=11, version 1), PROG.afdo.txt (create_gcov text) and
PROG.llvm.txt. Then, per check:

  truth  Expected head counts from truth.pcs: for every pc followed by a
         function's entry (an nm function symbol) where the pc is a call
         (objdump -M no-aliases: jal/jalr writing ra or t0, c.jal, c.jalr)
         or a tail call (a jump there from another function),
         plus 1 for the first pc's function; named by the outermost
         addr2line -i function at the entry (functions without DWARF are
         not profiled). Both .afdo files (parsed here from the byte layout)
         must have exactly these heads. Every (inline path, line) count of
         PROG.max.afdo must be the maximum of its pcs' truth counts; of
         PROG.afdo the count of the line's first statement (is_stmt rows
         of its lowest column) beginning at its pcs, summed over its
         copies (stmt_count), else the upper median of them, or the lower
         count when its
         conditional branches (beq..bgeu, c.beqz, c.bnez) ran with exactly
         two different counts, at least its most executed call's count;
         when its branches ran with three or more different counts, the
         largest (and at least the calls') if those that ran more often
         than its first statement (all, when it ran as often as the
         largest) have two or more different counts, the lowest at least
         half the largest (an && chain), the first statement's count
         if the line holds a switch's table jump (an indirect jump, not
         a call, whose every next pc is in its own function's body, not
         its entry), else the line is left out
         unless it holds an indirect call (jalr, c.jr, c.jalr) that
         reached a function.
         A line without pcs of its own that has a zero-length is_stmt row
         (llvm-dwarfdump --debug-line: a row before the last one at an
         executed pc, same file, another line) has, in PROG.afdo only,
         the largest count of such pcs. A function without a top-level
         instance (no pcs of its own, never entered) that is inlined two
         or more levels below a top-level function has, in PROG.afdo
         only, a top-level instance with head 0 summing those inlined
         instances' positions (afdo_offline.c).
  gcc    Each source is compiled again (-g -O2 -fno-partial-inlining, as
         the corpus) with -fauto-profile=PROG.afdo: rc 0 and an empty
         stderr. The -fdump-ipa-afdo-lineno dump must show (a) the entry
         block of the known function (the one with most calls that gcc
         kept with a body) with exactly its call count, and (b) a block
         holding a statement of a hot non-inlined line (KNOWN_LINES, else
         picked by hot_line from the truth and the dump's block layout)
         with exactly that line's count (the maximum of its pcs' truth
         counts).
  text   create_gcov --profiler=text reads PROG.afdo.txt against a
         -gdwarf-4 rebuild of the program (autofdo 0.19 cannot read DWARF
         5; the rebuild's .text must be byte-identical to the traced
         binary's) and writes a version-1 .afdo; dump_gcov of it must show
         the same head count for every function as our direct file, and
         the same count for every (inline path, line) as our lines=max
         file once discriminators are merged (max), over the functions
         with DWARF. dump_gcov must also read our own version-1 file with
         the same heads and totals as our version-2 file.
  options  Bad receiver options fail with a message naming them.
  llvm   llvm-profdata merge --sample accepts PROG.llvm.txt; show --sample
         --all-functions reports each function's head samples equal to the
         expected heads.

usage: check_afdo.py --ltpipe L --manifest M --work DIR --srcroot SRC
                     [--checks truth,gcc,text,llvm,options] [--progs a,b]
                     [--llvm-profdata P]
"""
import argparse
import concurrent.futures as cf
import os
import re
import shutil
import struct
import sys

from afdo_known import KNOWN_ENTRIES, KNOWN_LINES
from afdo_truth import (CROSS, Failure, Truth, duplicate_names, must, run,
                        transfers_from)


# ------------------------------------------------------------- .afdo ---

class AfdoReader:
    """Parses gcc's .afdo (versions 1 and 2) from the byte layout."""

    def __init__(self, data):
        self.d, self.o = data, 0
        if self.u32() != 0x67636461:
            raise Failure("afdo: bad magic")
        self.version = self.u32()
        self.u32()
        if self.u32() != 0xaa000000:
            raise Failure("afdo: no string table")
        self.u32()
        self.names = [self.string() for _ in range(self.u32())]
        if self.u32() != 0xac000000:
            raise Failure("afdo: no function section")
        self.u32()
        self.funcs = []
        for _ in range(self.u32()):
            head = self.u64()
            self.funcs.append((head, self.instance()))
        tag, _, nmod = self.u32(), self.u32(), self.u32()
        if tag != 0xae000000 or nmod != 0:
            raise Failure("afdo: bad module section")

    def u32(self):
        v = struct.unpack_from("<I", self.d, self.o)[0]
        self.o += 4
        return v

    def u64(self):
        lo, hi = self.u32(), self.u32()
        return lo | hi << 32

    def string(self):
        n = self.u32()
        if self.version >= 2:
            s = self.d[self.o:self.o + n]
            self.o += n
        else:
            s = self.d[self.o:self.o + 4 * n]
            self.o += 4 * n
        return s.split(b"\0", 1)[0].decode()

    def instance(self):
        name, npos, nsite = self.u32(), self.u32(), self.u32()
        pos = {}
        for _ in range(npos):
            off, nt, cnt = self.u32(), self.u32(), self.u64()
            tg = {}
            for _ in range(nt):
                self.u32()
                tgt, c = self.u64(), self.u64()
                tg[self.names[tgt]] = c
            pos[off] = (cnt, tg)
        sites = {}
        for _ in range(nsite):
            off = self.u32()
            inst = self.instance()
            sites[(off, inst["name"])] = inst
        return {"name": self.names[name], "pos": pos, "sites": sites}


def inst_total(inst):
    return (sum(c for c, _ in inst["pos"].values()) +
            sum(inst_total(s) for s in inst["sites"].values()))


def flatten(inst, path, out):
    """(path, line offset) -> count, discriminators merged by max."""
    for off, (c, _) in inst["pos"].items():
        key = (path, off >> 16)
        out[key] = max(out.get(key, 0), c)
    for (off, name), s in inst["sites"].items():
        flatten(s, path + ((off >> 16, name),), out)
    return out


# ---------------------------------------------------------- dump_gcov ---

def parse_dump_gcov(text):
    """dump_gcov output -> {name: (head, total, flat)} where flat maps
    (path, line) -> count (discriminators merged by max)."""
    res = {}
    stack = []
    for line in text.splitlines():
        if not line.strip():
            continue
        ind = len(line) - len(line.lstrip(" "))
        s = line.strip()
        m = re.match(r"^(\S+) total:(\d+) head:(\d+)$", s)
        if ind == 0 and m:
            cur = {"head": int(m.group(3)), "total": int(m.group(2)),
                   "flat": {}}
            res[m.group(1)] = cur
            stack = [(0, ())]
            continue
        while stack and stack[-1][0] >= ind:
            stack.pop()
        path = stack[-1][1] if stack else ()
        m = re.match(r"^(\d+)(?:\.\d+)?: (\S+) total:(\d+)$", s)
        if m:
            stack.append((ind, path + ((int(m.group(1)), m.group(2)),)))
            continue
        m = re.match(r"^(\d+)(?:\.\d+)?: (\d+)", s)
        if not m:
            raise Failure(f"dump_gcov: unexpected line {line!r}")
        key = (path, int(m.group(1)))
        cur["flat"][key] = max(cur["flat"].get(key, 0), int(m.group(2)))
    return res


# --------------------------------------------------------------- checks ---

def check_truth(ctx):
    want = ctx["truth"].heads
    if not want:
        raise Failure("no function with DWARF was called")
    decl = ctx["decl"]
    for rule, afdo in (("gcc", ctx["afdo"]), ("max", ctx["afdo_max"])):
        heads = {i["name"]: h for h, i in afdo.funcs}
        bad = [f"{n}: ours {heads.get(n, 0)} truth {want.get(n, 0)}"
               for n in sorted(set(heads) | set(want))
               if heads.get(n, 0) != want.get(n, 0)]
        if bad:
            raise Failure(f"lines={rule}: head counts differ from the "
                          "truth: " + "; ".join(bad[:10]))
        # The whole profile, flattened to (inline path, line offset) ->
        # count, equals the one computed from the truth pcs and
        # addr2line -i stacks (discriminators merged: gcc <= 14 ignores
        # them).
        ours = {}
        for _, inst in afdo.funcs:
            flatten(inst, (inst["name"],), ours)
        ours = {k: v for k, v in ours.items() if k[0][0] in decl and
                all(n in decl for _, n in k[0][1:])}
        exp = ctx["truth"].flat(decl, rule)
        if ours != exp:
            diff = sorted(set(ours.items()) ^ set(exp.items()))
            raise Failure(f"lines={rule}: {len(diff)} position counts "
                          f"differ from the truth, e.g. (ours and truth) "
                          f"{diff[:6]}")
        for h, inst in afdo.funcs:
            if inst_total(inst) == 0 and h == 0 and rule == "max":
                raise Failure(f"{inst['name']}: empty instance written")
    ctx["notes"].append("truth: %d of %d lines left out for gcc" % (
        len(ctx["truth"].flat(decl)) - len(ctx["truth"].flat(decl, "gcc")),
        len(ctx["truth"].flat(decl))))


def decl_lines(elf):
    """Function name -> DW_AT_decl_line of its subprogram with code (a
    concrete DIE; its name and line are on the DIE itself in gcc's -O2
    output for C unless it is an out-of-line copy of an inlined one)."""
    out = must(["llvm-dwarfdump", "--debug-info", elf], "dwarfdump").stdout
    res = {}
    cur = None
    dies = []
    for line in out.splitlines():
        s = line.strip()
        if "DW_TAG_" in s:
            cur = {} if "DW_TAG_subprogram" in s else None
            if cur is not None:
                cur["off"] = int(s.split(":")[0], 16)
                dies.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r'DW_AT_name\s+\("(.*)"\)', s)
        if m:
            cur["name"] = m.group(1)
        m = re.match(r"DW_AT_decl_line\s+\((\d+)\)", s)
        if m:
            cur["line"] = int(m.group(1))
        if s.startswith("DW_AT_inline"):
            cur["inline"] = True
        if s.startswith("DW_AT_declaration"):
            cur["decl_only"] = True
        if s.startswith(("DW_AT_low_pc", "DW_AT_ranges")):
            cur["code"] = True
        m = re.match(r"DW_AT_(?:abstract_origin|specification)\s+"
                     r"\((0x[0-9a-f]+)", s)
        if m:
            cur["origin"] = int(m.group(1), 16)
    by_off = {c["off"]: c for c in dies}
    for c in dies:
        o = c
        while "origin" in o and o["origin"] in by_off and \
                ("name" not in c or "line" not in c):
            o = by_off[o["origin"]]
            c.setdefault("name", o.get("name"))
            if "line" in o:
                c.setdefault("line", o["line"])
    clash = set()
    for c in dies:
        if (c.get("code") or c.get("inline")) and c.get("name") and \
                "line" in c:
            if res.setdefault(c["name"], c["line"]) != c["line"]:
                clash.add(c["name"])
    # Same-named static functions with different lines: ambiguous here.
    for n in clash:
        del res[n]
    return res


def link_flag(ctx):
    """The corpus program's link mode (tests/corpus/guest.sh link_flags)."""
    p = os.path.join(os.path.dirname(ctx["sources"][0]), "link")
    pie = os.path.exists(p) and open(p).read().strip() == "pie"
    return "-pie" if pie else "-static"


def compile_flags(ctx, src):
    return [CROSS + "gcc", "-g", "-O2", "-fno-partial-inlining",
            "-I" + os.path.dirname(src)]


def dump_blocks(body):
    """(count or None, source lines of its statements, the same with
    debug statements) per block of a function body of gcc's
    -fdump-ipa-afdo-lineno dump (PHIs left out)."""
    res = []
    for bb in re.split(r"\n(?=  <bb \d+>)", body):
        mb = re.match(r"\s*<bb \d+> \[count: (\d+)\]", bb)
        # A goto's location is its edge's (goto_locus), not a statement.
        stmts = "\n".join(x for x in bb.splitlines()
                          if not x.lstrip().startswith("#")
                          and "DEBUG" not in x
                          and not re.match(r"\s*(\[[^\]]*\] )*goto ", x))
        lines = {int(m) for m in re.findall(r"\[[^\]]*:(\d+):\d+\]",
                                            stmts)}
        alll = {int(m) for m in re.findall(r"\[[^\]]*:(\d+):\d+\]",
                                           "\n".join(
            x for x in bb.splitlines() if not x.lstrip().startswith("#")))}
        res.append((int(mb.group(1)) if mb else None, lines, alll))
    return res


def raising_predicts(body, written):
    """Whether a block of a function body of gcc's -fdump-ipa-afdo-lineno
    dump holds a predict statement (`// predicted unlikely by continue
    predictor.`, `... goto predictor.`) on a line whose count in our
    profile (`written`: source line -> count) is above that of each of
    the block's other statements' lines: gcc then reads the block at the
    predict's line's count."""
    for bb in re.split(r"\n(?=  <bb \d+>)", body):
        pred = [int(m) for m in re.findall(
            r"\[[^\]]*:(\d+):\d+\] // predicted ", bb)]
        own = [written.get(int(m), 0) for m in re.findall(
            r"\[[^\]]*:(\d+):\d+\] (?!// predicted )", "\n".join(
                x for x in bb.splitlines()
                if not x.lstrip().startswith("#") and "DEBUG" not in x))]
        if any(written.get(p, 0) > max(own, default=0) for p in pred):
            return True
    return False


def hot_line(truth, bodies, prog, written):
    """The line check_gcc looks for: KNOWN_LINES's, else the hottest line
    (ties: the last by function name and line) that ran non-inlined as one
    straight run of machine code, more than once, in a function gcc kept
    with a body, and that shares some block of gcc's dump only with lines
    no pc of which ran more often (none can raise that block: gcc gives a
    block the largest count of its statements' lines, afdo_set_bb_count;
    a goto's location is its edge's, not a statement's). Functions with a
    block that reads a predict statement's line's count, above its other
    statements' (raising_predicts; `written`: function -> source line ->
    our count), are left out: the C front end
    builds a `continue`'s or `goto`'s predict statement without a
    location, so it takes that of the enclosing `if` or `switch`, and
    sits in the block leaving for the continue or goto target;
    afdo_set_bb_count counts it like any statement, so that block reads
    the test's count, every time the test ran, not the times control
    left that way, and gcc's propagation, which only ever raises counts,
    then raises the loop's blocks to the sum (dispatch's run: the line
    `switch (op & 7)`, 607, on a `continue` case run 72 times;
    scanner's is_keyword: `if (..) continue;`, 5310, on the path taken
    4830 times)."""
    if prog in KNOWN_LINES:
        return KNOWN_LINES[prog]
    cands = [(c, f, l) for (f, l), c in truth.lines.items()
             if (f, l) in truth.simple and f in bodies
             and c > 1
             and not raising_predicts(bodies[f], written.get(f, {}))
             and any(l in ls and all(truth.line_max[x] <= c for x in ls)
                     for _, ls, _ in dump_blocks(bodies[f]))]
    if not cands:
        return None
    return max(cands)[1:]


def check_gcc(ctx):
    work = os.path.join(ctx["work"], "gcc")
    os.makedirs(work, exist_ok=True)
    dumps = []
    for src in ctx["sources"]:
        base = os.path.basename(src)[:-2]
        cmd = compile_flags(ctx, src) + [
            "-c", src, "-o", base + ".o",
            "-fauto-profile=" + ctx["afdo_path"], "-fdump-ipa-afdo-lineno"]
        p = run(cmd, cwd=work)
        if p.returncode != 0 or p.stderr.strip():
            raise Failure(f"gcc -fauto-profile on {base}.c: exit "
                          f"{p.returncode}: {p.stderr.strip()[:1500]}")
        ds = [f for f in os.listdir(work)
              if f.startswith(base + ".c.") and f.endswith(".afdo")]
        if len(ds) != 1:
            raise Failure(f"no single afdo dump for {base}.c: {ds}")
        with open(os.path.join(work, ds[0])) as f:
            dumps.append(f.read())
    bodies = {}
    for text in dumps:
        for m in re.finditer(r"^\S.*?(\w+) \([^\n]*\)\n\{\n(.*?)^\}$", text,
                             re.M | re.S):
            bodies.setdefault(m.group(1), m.group(2))
    truth = ctx["truth"]
    # (a) the known function: most calls, kept with a body, not main
    # (KNOWN_ENTRIES's when the program has one).
    cands = sorted(((n, f) for f, n in truth.heads.items()
                    if f in bodies and f != "main"), reverse=True)
    if ctx["prog"] in KNOWN_ENTRIES:
        cands = [(n, f) for n, f in cands
                 if f == KNOWN_ENTRIES[ctx["prog"]]]
    if not cands:
        cands = [(truth.heads["main"], "main")]
    n, fn = cands[0]
    m = re.search(r"<bb 2> \[count: (\d+)\]", bodies[fn])
    if not m or int(m.group(1)) != n:
        raise Failure(f"gcc dump: {fn} entry block "
                      f"{m.group(0) if m else 'missing'}, want count {n}")
    # (b) the known hot line of the program (KNOWN_LINES): a block holding
    # one of its statements must show exactly the line's count. (gcc
    # gives a block the maximum of its statements' counts, then its
    # propagation may move counts of blocks mixing lines or of machine
    # code it duplicated; the known lines are loop-body lines where
    # neither happens.)
    decl = ctx["decl"]
    written = {}
    for k, c in truth.flat(decl, "gcc").items():
        if len(k[0]) == 1:
            written.setdefault(k[0][0], {})[k[1] + decl[k[0][0]]] = c
    hot = hot_line(truth, bodies, ctx["prog"], written)
    if hot is None:
        # Compact code (whole functions on one line, lz77) may have no
        # line that ran as one straight run of one count in a function
        # gcc kept: nothing to compare exactly; the entry count above
        # still was. Programs with such lines are all checked.
        ctx["notes"].append(f"gcc: {fn} entry {n}; no line ran as one "
                            f"straight run of one count (compact code)")
        return
    f, l = hot
    if (f, l) not in truth.simple or f not in bodies:
        raise Failure(f"gcc dump: known line {f}:{l} not executed "
                      f"non-inlined as one run, or {f} has no body")
    c = truth.lines[(f, l)]
    found = [n for n, _, ls in dump_blocks(bodies[f])
             if n is not None and l in ls]
    if c not in found:
        raise Failure(f"gcc dump: {f} line {l} ran {c} times; blocks "
                      f"holding it show {found}")
    ctx["notes"].append(f"gcc: {fn} entry {n}, {f}:{l} count {c}")


def check_text(ctx):
    work = os.path.join(ctx["work"], "text")
    os.makedirs(work, exist_ok=True)
    objs = []
    for src in ctx["sources"]:
        base = os.path.basename(src)[:-2]
        must(compile_flags(ctx, src) + ["-gdwarf-4",
             "-ftest-coverage", "-Wall", "-c", src, "-o", base + ".o"],
             "gcc -gdwarf-4", cwd=work)
        objs.append(base + ".o")
    elf = os.path.join(work, ctx["prog"])
    must([CROSS + "gcc", "-g", "-gdwarf-4", link_flag(ctx), "-O2",
          "-fno-partial-inlining", "-ftest-coverage"] + objs +
         ["-o", elf], "link -gdwarf-4", cwd=work)
    for name, f in (("rebuilt", elf), ("traced", ctx["elf"])):
        must([CROSS + "objcopy", "-O", "binary", "-j", ".text", f,
              os.path.join(work, name + ".text")], "objcopy")
    with open(os.path.join(work, "rebuilt.text"), "rb") as a, \
         open(os.path.join(work, "traced.text"), "rb") as b:
        if a.read() != b.read():
            raise Failure("the -gdwarf-4 rebuild's .text differs from the "
                          "traced binary's")
    out = os.path.join(work, "cg.afdo")
    p = run(["create_gcov", "--binary=" + elf, "--profile=" +
             ctx["text_path"], "--profiler=text", "--gcov=" + out,
             "--gcov_version=1",
             # Every function with samples: the default drops those under
             # 5e-6 of the total count (e.g. a 3-instruction tail-call
             # stub, and with it the entries it makes).
             "--sample_threshold_frac=0"])
    if p.returncode != 0 or not os.path.exists(out):
        raise Failure(f"create_gcov: exit {p.returncode}: "
                      f"{p.stderr.strip()[-1500:]}")
    cg = parse_dump_gcov(must(["dump_gcov", "--gcov_version=1",
                               "--dump_cutoff_percent=0", out],
                              "dump_gcov create_gcov's file").stdout)
    # create_gcov lists lines of executed ranges' inline stacks that never
    # ran with count 0; the direct writer leaves them out.
    # It also writes lines before the declaration line as 16-bit negative
    # offsets, which the direct writer leaves out.
    for v in cg.values():
        v["flat"] = {k: c for k, c in v["flat"].items()
                     if c and k[1] < 0x8000 and
                     all(o < 0x8000 for o, _ in k[0])}
    ours = parse_dump_gcov(must(["dump_gcov", "--gcov_version=1",
                                 ctx["v1_path"]],
                                "dump_gcov our v1 file").stdout)
    # dump_gcov prints no function whose total is 0 (a one-line function
    # whose only line holds several decisions, left out for gcc).
    v2 = {i["name"]: (h, inst_total(i)) for h, i in ctx["afdo"].funcs
          if inst_total(i)}
    if {n: (v["head"], v["total"]) for n, v in ours.items()} != v2:
        raise Failure("dump_gcov of our version-1 file differs from our "
                      "version-2 file")
    direct = {i["name"]: (h, inst_total(i), flatten(i, (), {}))
              for h, i in ctx["afdo_max"].funcs}
    # create_gcov (0.19) leaves some functions out altogether (seen: a
    # 3-instruction tail-call stub directly after its callee, whose call
    # from main it even files under that callee), and only the functions
    # it keeps contribute entries to their callees' heads. Such a function
    # must be tiny (< 1% of the largest total); the heads expected from
    # create_gcov are ours less the transfers from the omitted ones, and
    # less the calls from outside the ELF (libc, the loader), whose
    # sources create_gcov cannot place in a function.
    big = max((t for _, t, _ in direct.values()), default=0)
    omitted = {n for n, (_, t, _) in direct.items()
               if n not in cg and 100 * t < big}
    less = transfers_from(ctx["elf"], ctx["text_path"], omitted)
    bad = []
    for n, (h, _, flat) in direct.items():
        if n in omitted:
            continue
        if n not in cg:
            bad.append(f"{n}: missing from create_gcov's profile")
            continue
        h -= less.get(n, 0)
        if cg[n]["head"] != h:
            bad.append(f"{n}: head create_gcov {cg[n]['head']} ours {h}")
        # Same-named static functions share one profile entry, which
        # create_gcov and ltpipe merge differently (ltpipe: max). Code
        # with line rows but no subprogram with an address (an ICF twin,
        # named by its symbol) has no declaration line for create_gcov,
        # which then keys its lines by absolute line; ltpipe by offset from
        # the function's first line, as gcc reads them.
        if cg[n]["flat"] != flat and n not in ctx["dups"] and \
                n in ctx["decl"]:
            diff = sorted(set(cg[n]["flat"].items()) ^ set(flat.items()))
            bad.append(f"{n}: line counts differ: {diff[:6]}")
    for n, v in cg.items():
        if n not in direct and n in ctx["decl"]:
            bad.append(f"{n}: only in create_gcov's profile")
    if bad:
        raise Failure("create_gcov vs direct .afdo: " + "; ".join(bad[:8]))
    ctx["notes"].append(f"text: {len(direct) - len(omitted)} functions "
                        f"agree" + (f" ({len(omitted)} tiny ones omitted "
                                    f"by create_gcov)" if omitted else ""))


def check_llvm(ctx):
    work = os.path.join(ctx["work"], "llvm")
    os.makedirs(work, exist_ok=True)
    prof = os.path.join(work, "merged.prof")
    tool = ctx["llvm_profdata"]
    must([tool, "merge", "--sample", ctx["llvm_path"], "-o", prof],
         "llvm-profdata merge")
    out = must([tool, "show", "--sample", "--all-functions", prof],
               "llvm-profdata show").stdout
    heads = {}
    for m in re.finditer(r"^Function: (\S+): (\d+), (\d+), ", out, re.M):
        heads[m.group(1)] = int(m.group(3))
    want = ctx["truth"].heads
    bad = [f"{n}: llvm {heads.get(n, 0)} truth {want.get(n, 0)}"
           for n in sorted(set(heads) | set(want))
           if heads.get(n, 0) != want.get(n, 0)]
    if bad:
        raise Failure("llvm-profdata head samples: " + "; ".join(bad[:10]))
    if not heads:
        raise Failure("llvm-profdata shows no function")


def check_options(ctx):
    """Bad options fail before decoding with a message naming them;
    gcc=13 still gives version 2."""
    out = os.path.join(ctx["work"], "opt")
    for opt, msg in (("format=bogus", "format=bogus"), ("gcc=x", "gcc=x"),
                     ("img=3", "no image 3"), ("nope=1", "'nope'"),
                     ("lines=min", "lines=min")):
        p = run([ctx["ltpipe"], "decode", "--elf", ctx["elf"], "-o", out,
                 "-r", "afdo:" + opt, ctx["trace"]])
        if p.returncode == 0 or msg not in p.stderr:
            raise Failure(f"-r afdo:{opt}: exit {p.returncode}, stderr "
                          f"{p.stderr.strip()[:300]!r}")
    path = os.path.join(out, "g13.afdo")
    must([ctx["ltpipe"], "decode", "--elf", ctx["elf"], "-o", out, "-r",
          "afdo:gcc=13,path=" + path, ctx["trace"]], "ltpipe gcc=13")
    with open(path, "rb") as fh:
        if AfdoReader(fh.read()).version != 2:
            raise Failure("gcc=13 did not give version 2")


def one(args, f):
    prog, opt, d, plain, bt, tr = f[0], f[1], f[2], f[3], f[5], f[7]
    work = os.path.join(args.work, prog)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "out")
    v1 = os.path.join(out, prog + ".v1.afdo")
    mx = os.path.join(out, prog + ".max.afdo")
    must([args.ltpipe, "decode", "--elf", plain, "-o", out, "-r", "afdo",
          "-r", "afdo:gcc=11,path=" + v1, "-r", "afdo:format=text",
          "-r", "afdo:lines=max,path=" + mx,
          "-r", "afdo:format=llvm", bt], "ltpipe decode")
    srcdir = os.path.join(args.srcroot, prog)
    ctx = {
        "prog": prog, "elf": plain, "work": work, "notes": [],
        "ltpipe": args.ltpipe, "trace": bt,
        "afdo_path": os.path.join(out, prog + ".afdo"), "v1_path": v1,
        "text_path": os.path.join(out, prog + ".afdo.txt"),
        "llvm_path": os.path.join(out, prog + ".llvm.txt"),
        "sources": sorted(os.path.join(srcdir, s) for s in
                          os.listdir(srcdir) if s.endswith(".c")),
        "llvm_profdata": args.llvm_profdata,
    }
    with open(ctx["afdo_path"], "rb") as fh:
        ctx["afdo"] = AfdoReader(fh.read())
    with open(mx, "rb") as fh:
        ctx["afdo_max"] = AfdoReader(fh.read())
    if ctx["afdo"].version != 2:
        raise Failure(f"default .afdo has version {ctx['afdo'].version}")
    with open(v1, "rb") as fh:
        if AfdoReader(fh.read()).version != 1:
            raise Failure("gcc=11 .afdo is not version 1")
    ctx["truth"] = Truth(plain, tr, bt + ".code")
    ctx["decl"] = decl_lines(plain)
    ctx["dups"] = duplicate_names(plain)
    for c in args.checks.split(","):
        globals()["check_" + c](ctx)
    return ctx["notes"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ltpipe", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--srcroot", required=True)
    ap.add_argument("--checks", default="truth,gcc,text,llvm")
    ap.add_argument("--progs", default="")
    ap.add_argument("--llvm-profdata", default="llvm-profdata")
    args = ap.parse_args()
    jobs = []
    for line in open(args.manifest):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        if f[1] != "O2" or (args.progs and f[0] not in args.progs.split(",")):
            continue
        jobs.append(f)
    if not jobs:
        print("no -O2 programs in the manifest")
        return 1
    fails = 0
    with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        futs = {ex.submit(one, args, f): f[0] for f in jobs}
        for fu in cf.as_completed(futs):
            name = futs[fu]
            try:
                notes = fu.result()
                print(f"ok   {name}: {'; '.join(notes)}")
            except Failure as e:
                fails += 1
                print(f"FAIL {name}: {e}")
    print(f"{len(jobs) - fails}/{len(jobs)} programs pass")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
