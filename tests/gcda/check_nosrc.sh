#!/bin/bash
# check_nosrc.sh BUILDDIR WORKDIR PROG...: the gcda receiver with the
# sources gone. Some rules read the C sources the DWARF line tables name
# (gcda_srcarms.c: a `?:`'s arms; gcda_callsites.c: the calls a pure
# function's callers write); a trace is often decoded where the sources
# are not, or after they changed. Each corpus program PROG is copied to
# WORKDIR/src and built there as tests/corpus/gen.sh builds the corpus
# (-O0/-O1/-O2 twins, traced), decoded with its sources (WORKDIR/with),
# then the sources are moved away and every build decoded again
# (hunt_check.py: the gcda must be written, every counter it claims must
# equal the twin's, an -O0 counter may differ only unclaimed). The test
# also asserts the sources mattered: some build's gcda differs between
# the two decodes (else the programs no longer exercise a source rule).
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: check_nosrc.sh BUILDDIR WORKDIR PROG..." >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd) work=$2
shift 2
ltpipe=$build/ltpipe dump=$build/tests/gcov/lt_gcov_dump
plugin=$build/sinks/qemu/libltpipe-qemu.so
rm -rf "$work"
mkdir -p "$work/src" "$work/out"
work=$(cd "$work" && pwd)
status=0
for p in "$@"; do
	cp -r "$here/tests/corpus/src/$p" "$work/src/$p"
	if ! CORPUS_SRC=$work/src GEN_BP=0 "$here/tests/corpus/gen.sh" \
		"$plugin" "$work/out" --one "$p" >"$work/out/$p.log" 2>&1; then
		echo "FAIL $p: does not build: $(tail -1 "$work/out/$p.log")"
		status=1
	fi
done
[ $status = 0 ] || exit 1
check() { # check WORK_SUBDIR: decodes and checks every program's builds
	local p out
	for p in "$@"; do
		out=$(python3 "$here/tests/gcda/hunt/hunt_check.py" "$ltpipe" \
			"$dump" "$work/out/$p/manifest.part" "$dir")
		printf '%s\n' "$out"
		if grep -Eq '^(WRONG|FLOW|FAIL) |\(claimed\)$' <<<"$out"; then
			status=1
		fi
	done
}
dir=$work/with
echo "with the sources:"
check "$@"
mv "$work/src" "$work/src.gone"
dir=$work/without
echo "without the sources ($work/src moved away):"
check "$@"
differ=0
for g in "$work"/with/*/*.gcda; do
	h=$work/without/${g#"$work"/with/}
	if [ ! -f "$h" ]; then
		echo "FAIL no gcda without the sources: $h"
		status=1
	elif ! cmp -s "$g" "$h"; then
		echo "differs without the sources: ${g#"$work"/with/}"
		differ=1
	fi
done
if [ $differ = 0 ]; then
	echo "FAIL: every gcda is the same without the sources (no source rule exercised)"
	status=1
fi
exit $status
