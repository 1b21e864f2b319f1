#!/usr/bin/env python3
"""Driver of scripts/bench.sh (see there). Options: --runs N (default 3),
--rounds N (workload size, default 125 = ~200M instructions)."""
import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
WORK = os.path.join(BUILD, "bench")
LTPIPE = os.path.join(BUILD, "ltpipe")
PLUGIN = os.path.join(BUILD, "sinks", "qemu", "libltpipe-qemu.so")


def run(cmd):
    """Runs cmd under GNU time; returns (seconds, peak RSS KiB, stderr)."""
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "LTBENCH_RSS %M"] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    t = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed: {p.stderr}")
    rss = int(re.search(r"LTBENCH_RSS (\d+)", p.stderr).group(1))
    return t, rss, p.stderr


def make_trace(rounds, tag):
    os.makedirs(WORK, exist_ok=True)
    elf = os.path.join(WORK, "compute")
    src = os.path.join(ROOT, "tests", "bench", "compute.c")
    if not os.path.exists(elf) or os.path.getmtime(elf) < os.path.getmtime(src):
        # -ftest-coverage (code unchanged) leaves compute.gcno for gcda.
        subprocess.run(["riscv64-linux-gnu-gcc", "-O2", "-g",
                        "-ftest-coverage", "-fno-partial-inlining", "-c",
                        src, "-o", "compute.o"], check=True, cwd=WORK)
        subprocess.run(["riscv64-linux-gnu-gcc", "-static", "-o", elf,
                        "compute.o"], check=True, cwd=WORK)
    trace = os.path.join(WORK, f"compute-{tag}.lt")
    if not os.path.exists(trace) or os.path.getmtime(trace) < os.path.getmtime(elf):
        print(f"bench: generating {trace} ({rounds} rounds) ...", flush=True)
        subprocess.run(["qemu-riscv64", "-plugin",
                        f"{PLUGIN},out={trace}.tmp", elf, str(rounds)],
                       check=True, stdout=subprocess.DEVNULL)
        os.rename(trace + ".tmp", trace)
    return elf, trace


def receivers():
    out = subprocess.run([LTPIPE, "decode", "--help"], capture_output=True,
                         text=True).stdout
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("receivers:"):
            on = True
        elif on and not line.strip():
            break
        elif on and line.startswith("  ") and not line.startswith("   "):
            names.append(line.split()[0])
    return names


def spec(name, outdir):
    if name in ("txt", "json"):
        return f"{name}:path=/dev/null"
    if name == "gcda":
        return f"gcda:gcno={WORK},out={outdir}"
    return name


def decode(elf, trace, recv, runs):
    outdir = os.path.join(WORK, "out")
    os.makedirs(outdir, exist_ok=True)
    cmd = [LTPIPE, "decode", "--elf", elf, "-o", outdir]
    for r in recv:
        cmd += ["-r", spec(r, outdir)]
    cmd.append(trace)
    times, rss, err = [], 0, ""
    for _ in range(runs):
        t, m, err = run(cmd)
        times.append(t)
        rss = max(rss, m)
    pk = int(re.search(r"(\d+) packets", err).group(1))
    ins = int(re.search(r"(\d+) instructions", err).group(1))
    return statistics.median(times), rss, pk, ins


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=125)
    a = ap.parse_args()
    elf, trace = make_trace(a.rounds, "long")
    _, short = make_trace(max(1, a.rounds // 10), "short")
    size = os.path.getsize(trace)
    io = statistics.median(run(["cat", trace])[0] for _ in range(a.runs))
    rows = []
    names = [r for r in receivers() if r != "null"]
    configs = [("null (frontend)", ["null"])] + \
              [(n, [n]) for n in names] + [("all", names)]
    for label, recv in configs:
        t, rss, pk, ins = decode(elf, trace, recv, a.runs)
        rows.append((label, t, pk / t, ins / t, t / io, rss))
    _, rss_short, _, ins_short = decode(elf, short, ["null"], a.runs)
    rss_long = rows[0][5]
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short",
                             "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    lines = [
        f"## {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC,"
        f" commit {commit}",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {cpu}. "
        f"Trace: {size / 1e6:.1f} MB, {rows[0][2] * rows[0][1] / 1e6:.1f}M "
        f"packets, {rows[0][3] * rows[0][1] / 1e6:.1f}M instructions; "
        f"median of {a.runs} runs. I/O floor (cat): {io:.3f} s "
        f"({size / io / 1e9:.2f} GB/s).",
        "",
        "| receivers | seconds | Mpackets/s | Minsns/s | x I/O floor | peak RSS MiB |",
        "|---|---|---|---|---|---|",
    ]
    for label, t, pps, ips, ratio, rss in rows:
        lines.append(f"| {label} | {t:.3f} | {pps / 1e6:.1f} | {ips / 1e6:.1f}"
                     f" | {ratio:.1f} | {rss / 1024:.1f} |")
    lines += ["",
              f"Peak RSS, null receiver: {rss_long / 1024:.1f} MiB on the long "
              f"trace vs {rss_short / 1024:.1f} MiB on one 10x shorter "
              f"({ins_short / 1e6:.1f}M instructions): ratio "
              f"{rss_long / rss_short:.2f}.",
              "",
              "Goals: frontend >= 100 Mpackets/s; profile receivers >= 30 "
              "Mpackets/s; txt >= 50 Minsns/s; RSS ratio <= 1.10.", ""]
    text = "\n".join(lines)
    print(text)
    res = os.path.join(ROOT, "tests", "bench", "results.md")
    new = not os.path.exists(res)
    with open(res, "a") as f:
        if new:
            f.write("# Benchmark results (scripts/bench.sh)\n\n")
        f.write(text + "\n")


if __name__ == "__main__":
    main()
