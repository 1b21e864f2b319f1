#!/bin/sh
# How the gcda receiver's mapping scales with the size of a unit (a
# benchmark, not a test): builds (once, cached in build/bench-gcda/) two
# units made of N and 4N random programs (scripts/gcda_bigunit.py; default
# N=60: ~13k and ~52k lines, ~400 and ~1600 functions) at -O2 with their
# traces, as tests/corpus/gen.sh builds the corpus, then measures, median
# of three runs, the CPU seconds of `ltpipe decode` with the null receiver
# (the baseline) and with `-r gcda`; prints the mapping's seconds (the
# difference) and the ratio of the large unit's to the small one's, next to
# the ratio of their sizes (4: linear). Usage: scripts/bench-gcda.sh [N]
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
n=${1:-60}
dir=$(pwd)/build/bench-gcda
plugin=build/sinks/qemu/libltpipe-qemu.so
for size in $n $((4 * n)); do
	name=unit$size
	if [ ! -f "$dir/out/$name/O2/bt.lt" ]; then
		mkdir -p "$dir/src/$name"
		python3 scripts/gcda_bigunit.py 1 "$size" >"$dir/src/$name/$name.c"
		CORPUS_SRC=$dir/src GEN_OPTS=O2 GEN_BP=0 \
			tests/corpus/gen.sh "$plugin" "$dir/out" --one "$name" \
			>"$dir/$name.log" 2>&1 ||
			{ echo "bench-gcda.sh: building $name failed, see $dir/$name.log" >&2; exit 1; }
	fi
done
exec python3 - "$dir" "$n" <<'PY'
import os, resource, statistics, subprocess, sys
d, n = sys.argv[1], int(sys.argv[2])
def cpu(args):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
rows = []
for size in (n, 4 * n):
    b = os.path.join(d, "out", "unit%d" % size, "O2")
    elf, gcno = b + "/plain/unit%d" % size, b + "/plain/unit%d.gcno" % size
    out = os.path.join(d, "work%d" % size)
    base = ["build/ltpipe", "decode", "--elf", elf, "-o", out]
    null = statistics.median(cpu(base + ["-r", "null", b + "/bt.lt"])
                             for _ in range(3))
    gcda = statistics.median(
        cpu(base + ["-r", "gcda:gcno=%s,out=%s" % (gcno, out), b + "/bt.lt"])
        for _ in range(3))
    with open(os.path.join(d, "src", "unit%d" % size, "unit%d.c" % size)) as f:
        lines = sum(1 for _ in f)
    rows.append((size, lines, null, gcda, gcda - null))
print("%-8s %8s %10s %10s %10s" % ("programs", "lines", "null s", "gcda s",
                                   "mapping s"))
for r in rows:
    print("%-8d %8d %10.2f %10.2f %10.2f" % r)
small, large = rows[0][4], rows[1][4]
print("size ratio %.2f, mapping time ratio %.2f (%s)" %
      (rows[1][1] / rows[0][1], large / small if small > 0 else float("inf"),
       "linear would be the size ratio"))
PY
