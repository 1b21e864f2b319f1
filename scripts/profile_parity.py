#!/usr/bin/env python3
"""Profile parity benchmark driver (scripts/afdo-parity.sh).

For each corpus program at -O2: build it three ways with the corpus twins'
flags (-g -static -O2 -fno-partial-inlining) and object names -- no profile,
-fprofile-use from the instrumented twin's true .gcda, and the profile under
test (afdo: -fauto-profile from ltpipe's .afdo of the plain twin's BT
trace) -- run each the corpus way under the QEMU plugin, decode with
`-r stats`, and compare retired instructions and taken branches.
usage: profile_parity.py [--build DIR] [--reuse] [--opts O] [--fdo-opts F]
                         afdo [PROG...]
  --build DIR  ltpipe build directory holding the corpus (default: the
               LTPIPE_BUILD environment variable, else ./build)
  --reuse      keep the no-profile and FDO builds and measurements of an
               earlier run (only the profile under test is rebuilt; the
               FDO build is redone when its --fdo-opts differ)
  --opts O     more afdo receiver options, e.g. lines=max
  --fdo-opts F more gcc flags for the FDO build, comma-separated, e.g.
               -fno-peel-loops: what FDO saves without the transformations
               gcc 12 never does from an AutoFDO profile (README "AutoFDO")
"""
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "tests", "corpus", "src")


def set_build(build):
    """Points the driver at the ltpipe build directory `build`."""
    global BUILD, LTPIPE, PLUGIN, CORPUS, WORK
    BUILD = os.path.abspath(build)
    LTPIPE = os.path.join(BUILD, "ltpipe")
    PLUGIN = os.path.join(BUILD, "sinks", "qemu", "libltpipe-qemu.so")
    CORPUS = os.path.join(BUILD, "tests", "corpus", "out")
    WORK = os.path.join(BUILD, "parity")


set_build(os.environ.get("LTPIPE_BUILD") or os.path.join(ROOT, "build"))
CC = "riscv64-linux-gnu-gcc"
FLAGS = ["-g", "-static", "-O2", "-fno-partial-inlining"]


def build(d, prog, extra):
    """Compiles every source of prog into d (objects named as the twins'),
    links d/prog. Returns gcc's stderr (profile warnings)."""
    os.makedirs(d, exist_ok=True)
    srcs = sorted(f for f in os.listdir(os.path.join(SRC, prog))
                  if f.endswith(".c"))
    warn = ""
    objs = []
    for s in srcs:
        o = s[:-2] + ".o"
        p = subprocess.run([CC] + FLAGS + extra + ["-I" + os.path.join(SRC, prog),
                            "-c", os.path.join(SRC, prog, s), "-o", o],
                           cwd=d, capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"parity: {prog}: {p.stderr}")
        warn += p.stderr
        objs.append(o)
    subprocess.run([CC] + FLAGS + objs + ["-o", prog], cwd=d, check=True)
    return warn


def measure(d, prog, args):
    """Runs d/prog the corpus way under the plugin; returns (insns, taken).
    Every build of a program runs from one directory (d/../run): qemu-user
    puts the executable's full path on the guest stack, so a directory name
    of another length shifts the stack and glibc's start-up work with it."""
    trace = os.path.join(d, "run.lt")
    rdir = os.path.join(os.path.dirname(d), "run")
    shutil.rmtree(rdir, ignore_errors=True)
    os.makedirs(rdir)
    shutil.copy(os.path.join(d, prog), rdir)
    cmd = ["env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "qemu-riscv64",
           "-seed", "1", "-plugin", f"{PLUGIN},out={trace}", "./" + prog]
    if args != "-":
        cmd += args.split(",")
    subprocess.run(cmd, cwd=rdir, check=True, stdout=subprocess.DEVNULL)
    out = os.path.join(d, "stats")
    subprocess.run([LTPIPE, "decode", "-q", "--elf", os.path.join(d, prog),
                    "-o", out, "-r", "stats", trace], check=True)
    st = json.load(open(os.path.join(out, "stats.json")))
    return st["instructions"], st["event_kinds"]["taken"]


def main():
    argv = sys.argv[1:]
    reuse = False
    opts = ""
    fdo_opts = []
    while argv and argv[0].startswith("--"):
        if argv[0] == "--opts" and len(argv) > 1:
            opts = "," + argv[1]
            argv = argv[2:]
            continue
        if argv[0] == "--fdo-opts" and len(argv) > 1:
            fdo_opts = [o for o in argv[1].split(",") if o]
            argv = argv[2:]
            continue
        if argv[0] == "--build" and len(argv) > 1:
            set_build(argv[1])
            argv = argv[2:]
        elif argv[0] == "--reuse":
            reuse = True
            argv = argv[1:]
        else:
            sys.exit(__doc__)
    if not argv:
        sys.exit(__doc__)
    what = argv[0]
    only = set(argv[1:])
    rows = []
    for line in open(os.path.join(CORPUS, "corpus.txt")):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        if f[1] != "O2" or (only and f[0] not in only):
            continue
        prog, d, plain, bt, gcdas, args = f[0], f[2], f[3], f[5], f[9], f[10]
        w = os.path.join(WORK, what, prog)
        base = os.path.join(w, "base.json")
        res = {}
        # base.json: [measurements, FDO warnings, FDO's extra flags]
        # (older files have no flags: none were given).
        old = json.load(open(base)) if reuse and os.path.exists(base) \
            else None
        if old and (old[2:] or [[]])[0] == fdo_opts:
            res, warn_fdo = old[0], old[1]
            shutil.rmtree(os.path.join(w, "test"), ignore_errors=True)
        else:
            shutil.rmtree(w, ignore_errors=True)
            build(os.path.join(w, "none"), prog, [])
            fdo = os.path.join(w, "fdo")
            os.makedirs(fdo)
            for g in gcdas.split(","):
                shutil.copy(g, fdo)
            warn_fdo = build(fdo, prog,
                             ["-fprofile-use", "-Wno-missing-profile"]
                             + fdo_opts)
            for k in ("none", "fdo"):
                res[k] = measure(os.path.join(w, k), prog, args)
            json.dump([res, warn_fdo, fdo_opts], open(base, "w"))
        prof = os.path.join(w, "prog.afdo")
        subprocess.run([LTPIPE, "decode", "-q", "--elf", plain, "-o", w,
                        "-r", f"afdo:path={prof}{opts}", bt], check=True)
        warn_t = build(os.path.join(w, "test"), prog,
                       ["-fauto-profile=" + prof])
        res["test"] = measure(os.path.join(w, "test"), prog, args)
        rows.append((prog, res, warn_fdo.strip() or warn_t.strip()))
    print(f"{'program':12} {'insns none':>12} {'FDO':>12} {'AutoFDO':>12}"
          f" {'taken none':>11} {'FDO':>10} {'AutoFDO':>10} {'recovered':>9}")
    tot = {"none": 0, "fdo": 0, "test": 0}
    taken = {"none": 0, "fdo": 0, "test": 0}
    for prog, r, warn in rows:
        gain_f = r["none"][0] - r["fdo"][0]
        gain_t = r["none"][0] - r["test"][0]
        rec = f"{100.0 * gain_t / gain_f:.0f}%" if gain_f > 0 else "n/a"
        print(f"{prog:12} {r['none'][0]:12} {r['fdo'][0]:12} "
              f"{r['test'][0]:12} {r['none'][1]:11} {r['fdo'][1]:10} "
              f"{r['test'][1]:10} {rec:>9}" + ("  (warnings)" if warn else ""))
        for k in tot:
            tot[k] += r[k][0]
            taken[k] += r[k][1]
    gf, gt = tot["none"] - tot["fdo"], tot["none"] - tot["test"]
    print(f"total: FDO saves {gf} instructions, AutoFDO {gt} "
          f"({100.0 * gt / gf:.0f}% of FDO's gain)" if gf > 0 else
          "total: FDO saves nothing on this corpus")
    # Taken branches measure the layout alone (a hot path laid out of line
    # costs taken jumps before it costs instructions).
    bf, bt = taken["none"] - taken["fdo"], taken["none"] - taken["test"]
    print(f"taken branches: FDO saves {bf}, AutoFDO {bt} "
          f"({100.0 * bt / bf:.0f}% of FDO's gain)" if bf > 0 else
          "taken branches: FDO saves none on this corpus")


if __name__ == "__main__":
    main()
