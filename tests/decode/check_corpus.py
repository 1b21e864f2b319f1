#!/usr/bin/env python3
"""Decodes every corpus trace with ltpipe and checks the txt receiver's
instruction addresses against the plugin's truth PCs, exactly: same count,
same order, first and last included. Also checks the decode summary
reports no error and the json receiver's instruction total agrees.

usage: check_corpus.py LTPIPE CORPUS_MANIFEST WORKDIR
"""
import concurrent.futures as cf
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from truthpcs import read_truth  # noqa: E402


def addrs_from_txt(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("0x"):
                out.append(int(line[2:line.index(":")], 16))
    return out




def decode(ltpipe, elf, trace, outdir, extra):
    os.makedirs(outdir, exist_ok=True)
    cmd = [ltpipe, "decode", "--elf", elf, "-o", outdir, "-r", "txt",
           "-r", "json"] + extra + [trace]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stderr


def check(ltpipe, name, elf, trace, truth_path, outdir, extra):
    rc, err = decode(ltpipe, elf, trace, outdir, extra)
    if rc != 0:
        return f"{name}: ltpipe exit {rc}: {err.strip()[:2000]}"
    got = addrs_from_txt(os.path.join(outdir, "trace.txt"))
    want = read_truth(truth_path, elf, trace + ".code")
    if got != want:
        i = next((k for k in range(min(len(got), len(want)))
                  if got[k] != want[k]), min(len(got), len(want)))
        g = hex(got[i]) if i < len(got) else "end"
        w = hex(want[i]) if i < len(want) else "end"
        return (f"{name}: {len(got)} decoded vs {len(want)} true pcs; "
                f"first difference at #{i}: decoded {g}, truth {w}")
    n = 0
    with open(os.path.join(outdir, "events.jsonl")) as f:
        for line in f:
            n += json.loads(line)["icount"]
    if n != len(want):
        return f"{name}: json icount total {n} != {len(want)}"
    # Passed: the outputs (hundreds of MB for the dynamic programs) go;
    # a failing job's stay for inspection.
    shutil.rmtree(outdir, ignore_errors=True)
    return None


def main():
    ltpipe, manifest, work = sys.argv[1:4]
    jobs = []
    for line in open(manifest):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        prog, opt, d, plain, bt, bp, tr = f[0], f[1], f[2], f[3], f[5], f[6], f[7]
        extras = f[11] if len(f) > 11 else "-"
        base = os.path.join(work, f"{prog}-{opt}")
        jobs.append((f"{prog} {opt} bt", plain, bt, tr, base + "-bt", []))
        jobs.append((f"{prog} {opt} bp", plain, bp, tr, base + "-bp", []))
        if extras != "-":
            for item in extras.split(","):
                kind, path = item.split(":", 1)
                tpath = os.path.join(d, {"zst": "truth-zst.pcs",
                                         "tacit-2025-stall": "truth-2025-stall.pcs"}.get(kind, "truth.pcs"))
                ex = ["--format", "tacit-2025"] if kind.startswith("tacit-2025") else []
                jobs.append((f"{prog} {opt} {kind}", plain, path, tpath,
                             base + "-" + kind, ex))
    fails = []
    with cf.ThreadPoolExecutor(max_workers=2) as ex:
        futs = [ex.submit(check, ltpipe, *j) for j in jobs]
        for j, fu in zip(jobs, futs):
            r = fu.result()
            print(("FAIL " + r) if r else f"ok   {j[0]}")
            if r:
                fails.append(r)
    print(f"{len(jobs) - len(fails)} passed, {len(fails)} failed")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
