#!/bin/bash
# Test corpus-output: every run of every corpus program (instrumented twin, and each
# plugin run of the plain twin) printed exactly src/<prog>/expected.out, so the programs
# are deterministic and the optimisation levels agree.
#
#   check-output.sh OUTDIR
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -eq 1 ] || { echo "usage: check-output.sh OUTDIR" >&2; exit 2; }
manifest=$1/corpus.txt
[ -s "$manifest" ] || { echo "FAIL: no manifest $manifest" >&2; exit 1; }
fails=0 runs=0
while read -r prog opt dir rest; do
	for out in "$dir"/*.out; do
		runs=$((runs + 1))
		if ! cmp -s "$out" "$here/src/$prog/expected.out"; then
			echo "FAIL $prog $opt: $out differs from src/$prog/expected.out"
			fails=$((fails + 1))
		fi
	done
	[ -e "$dir/instr.out" ] || { echo "FAIL $prog $opt: no instr.out"; fails=$((fails + 1)); }
done < <(grep -v '^#' "$manifest")
echo "corpus-output: $runs runs compared, $fails failures"
[ "$fails" -eq 0 ] && [ "$runs" -ge 36 ]
