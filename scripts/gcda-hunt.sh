#!/bin/bash
# Random-program hunt for gcda wrong claims (a campaign, not a test).
#
#   scripts/gcda-hunt.sh SEED_FROM SEED_TO [OPT...]
#
# For each seed, tests/gcda/hunt/progen.py writes a random program rgSEED;
# tests/corpus/gen.sh builds its plain and instrumented twins exactly as it
# builds the corpus (same flags, paths and -o names), runs both and traces the
# plain one with the QEMU plugin; tests/gcda/hunt/hunt_check.py decodes the
# trace with `-r gcda` and compares every counter the report claims with the
# twin's. OPTs default to O0 O1 O2. Prints one line per finding (WRONG: a
# wrong claim; O0DIFF: a -O0 counter off the twin's; FLOW; FAIL; see
# hunt_check.py), SKIP for a seed whose program did not build or run, and a
# summary. Environment: BUILD (default build), HUNT_DIR (default
# /tmp/gcda-hunt; the programs go to HUNT_DIR/src, the builds to HUNT_DIR/out,
# and a seed's builds are removed unless it had a finding or KEEP=1).
# Reproduce one finding: scripts/gcda-hunt.sh SEED SEED OPT (builds kept).
# Exit status 1 when any seed had a finding or did not build.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { echo "usage: gcda-hunt.sh SEED_FROM SEED_TO [OPT...]" >&2; exit 2; }
from=$1 to=$2
shift 2
opts=${*:-O0 O1 O2}
build=$(cd "${BUILD:-$here/build}" && pwd)
dir=${HUNT_DIR:-/tmp/gcda-hunt}
ltpipe=$build/ltpipe
dump=$build/tests/gcov/lt_gcov_dump
plugin=$build/sinks/qemu/libltpipe-qemu.so
for f in "$ltpipe" "$dump" "$plugin"; do
	[ -f "$f" ] || { echo "gcda-hunt.sh: $f missing (build first)" >&2; exit 2; }
done
mkdir -p "$dir/src" "$dir/out" "$dir/work"
dir=$(cd "$dir" && pwd)

nseed=0 nskip=0 nwrong=0 nbad=0 claimed=0 counters=0
declare -A wrong_by_opt=()
for ((seed = from; seed <= to; seed++)); do
	name=rg$seed
	nseed=$((nseed + 1))
	mkdir -p "$dir/src/$name"
	python3 "$here/tests/gcda/hunt/progen.py" "$seed" "$name" >"$dir/src/$name/$name.c"
	if ! CORPUS_SRC=$dir/src GEN_OPTS=$opts GEN_BP=0 \
		"$here/tests/corpus/gen.sh" "$plugin" "$dir/out" --one "$name" \
		>"$dir/out/$name.log" 2>&1; then
		echo "SKIP $name: $(tail -1 "$dir/out/$name.log")"
		nskip=$((nskip + 1))
		continue
	fi
	res=$(python3 "$here/tests/gcda/hunt/hunt_check.py" "$ltpipe" "$dump" \
		"$dir/out/$name/manifest.part" "$dir/work")
	grep -v '^STATS' <<<"$res"
	while read -r tag _ opt c n w; do
		[ "$tag" = STATS ] || continue
		claimed=$((claimed + ${c#claimed=}))
		counters=$((counters + ${n#counters=}))
		w=${w#wrong=}
		nwrong=$((nwrong + w))
		wrong_by_opt[$opt]=$((${wrong_by_opt[$opt]:-0} + w))
	done <<<"$res"
	if grep -qv '^STATS' <<<"$res"; then
		nbad=$((nbad + 1))
	elif [ "${KEEP:-0}" != 1 ]; then
		rm -rf "${dir:?}/out/$name" "$dir/out/$name.log" "$dir/work/$name"-O*
	fi
done
byopt=""
for o in $opts; do
	byopt+=" $o:${wrong_by_opt[$o]:-0}"
done
echo "gcda-hunt: seeds $from-$to ($nseed, $nskip skipped): $nbad with findings," \
	"$nwrong wrong claims ($byopt ), $claimed of $counters counters claimed"
# Exit status 1 when a seed had a finding or was skipped (tests/gcda/hunt/
# check_seeds.sh runs the seeds of fixed findings as a test).
[ "$nbad" = 0 ] && [ "$nskip" = 0 ]
