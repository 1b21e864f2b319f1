#!/bin/bash
# check_seeds.sh BUILDDIR WORKDIR SEEDS: the gcda test of the random programs
# whose wrong claims were fixed. For each `SEED OPT` line of SEEDS (progen.py's
# program for that seed, built at OPT), scripts/gcda-hunt.sh builds the twins,
# traces the plain one and compares every claimed counter with the twin's;
# a wrong claim, a claimed -O0 counter off the twin's, a flow error, a
# failed decode or a program that does not build fails the test (an -O0
# counter the report leaves unclaimed, a test gcc deleted, does not).
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: check_seeds.sh BUILDDIR WORKDIR SEEDS" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../../.." && pwd)
build=$1 work=$2 seeds=$3
rm -rf "$work"
status=0
while read -r seed opt; do
	case $seed in '#'* | '') continue ;; esac
	out=$(BUILD=$build HUNT_DIR=$work bash "$here/scripts/gcda-hunt.sh" \
		"$seed" "$seed" "$opt")
	printf '%s\n' "$out"
	if grep -Eq '^(WRONG|FLOW|FAIL|SKIP) |\(claimed\)$' <<<"$out"; then
		status=1
	fi
done <"$seeds"
exit $status
