#!/bin/sh
# The speed bar (issue: the event ring, the receiver API and the speed bar):
# builds ltpipe, generates (once, cached in build/bench/) a ~200M-instruction
# trace of tests/bench/compute.c with the QEMU plugin plus one 10x shorter,
# then measures, median of several runs, the I/O floor (reading the trace
# bytes), the frontend with the null receiver, each receiver alone and all
# together: packets/s, instructions/s, ratio to the I/O floor, peak RSS.
# Prints a table and appends it to tests/bench/results.md. Not a test.
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
exec python3 scripts/bench.py "$@"
