#!/bin/bash
# Test corpus-truth: for every manifest line, the plugin's truth.pcs must equal, line for
# line, the PCs of `qemu-riscv64 -singlestep -d exec,nochain` run the same way, and every
# other truth file of that line (BP mode, zstd, 2025 format) must equal truth.pcs.
#
#   check-truth.sh OUTDIR     (OUTDIR as given to gen.sh; JOBS runs in parallel, default 2)
#
# qemu 7.2 logs one line per executed translation block, which -singlestep makes one
# instruction:  "Trace <cpu>: <host ptr> [<cs_base>/<pc>/<flags>/<cflags>] <symbol>",
# with cs_base and pc as 16 zero-padded hex digits. PCs are compared without leading
# zeros, since truth files hold "%x" values.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/guest.sh"

# check_one PROG OPT DIR PLAIN_ELF ARGS_CSV: prints one result line; returns 1 on mismatch.
check_one() {
	local prog=$1 opt=$2 dir=$3 elf=$4 args=$5 tmp n t f rc=0
	tmp=$(mktemp -d)
	run_guest "$(dirname "$elf")" "$(basename "$elf")" "$tmp/stdout" "$args" \
		-singlestep -d exec,nochain -D /dev/stderr 2>&1 >/dev/null |
		awk '$1 == "Trace" { split($4, f, "/"); pc = f[2]; sub(/^0+/, "", pc); print pc }' \
		>"$tmp/log.pcs"
	if ! cmp -s "$tmp/stdout" "$dir/instr.out"; then
		echo "FAIL $prog $opt: stdout of the -d exec run differs from the instrumented run"
		rc=1
	fi
	if [ ! -f "$dir/truth.pcs" ]; then
		echo "FAIL $prog $opt: $dir/truth.pcs missing"
		rm -rf "$tmp"
		return 1
	fi
	awk '{ sub(/^0+/, ""); print }' "$dir/truth.pcs" >"$tmp/truth.pcs"
	n=$(wc -l <"$tmp/log.pcs")
	t=$(wc -l <"$tmp/truth.pcs")
	if [ "$n" -lt 1000 ]; then
		echo "FAIL $prog $opt: only $n PCs in the exec log"
		rc=1
	elif cmp -s "$tmp/log.pcs" "$tmp/truth.pcs"; then
		echo "ok   $prog $opt: $n PCs, truth.pcs identical"
	else
		echo "FAIL $prog $opt: exec log has $n PCs, truth.pcs $t; first difference:"
		diff "$tmp/log.pcs" "$tmp/truth.pcs" | head -6 | sed 's/^/     /' || true
		rc=1
	fi
	for f in "$dir"/truth-*.pcs; do
		[ -e "$f" ] || continue
		if cmp -s "$f" "$dir/truth.pcs"; then
			echo "ok   $prog $opt: $(basename "$f") identical to truth.pcs"
		else
			echo "FAIL $prog $opt: $(basename "$f") differs from truth.pcs"
			rc=1
		fi
	done
	if [ ! -e "$dir/truth-bp.pcs" ]; then
		echo "FAIL $prog $opt: truth-bp.pcs missing"
		rc=1
	fi
	rm -rf "$tmp"
	return $rc
}

if [ "${1:-}" = --one ]; then
	shift
	check_one "$@"
	exit
fi
[ $# -eq 1 ] || { echo "usage: check-truth.sh OUTDIR" >&2; exit 2; }
manifest=$1/corpus.txt
[ -s "$manifest" ] || { echo "FAIL: no manifest $manifest" >&2; exit 1; }
lines=$(grep -vc '^#' "$manifest")
[ "$lines" -ge 36 ] || { echo "FAIL: manifest has only $lines entries" >&2; exit 1; }
# Fields: prog opt dir plain_elf instr_elf bt bp truth gcno gcda args extras.
if grep -v '^#' "$manifest" | awk '{ print $1, $2, $3, $4, $11 }' |
	xargs -P "${JOBS:-2}" -n 5 "$here/check-truth.sh" --one; then
	echo "corpus-truth: all $lines entries pass"
else
	echo "corpus-truth: FAILED"
	exit 1
fi
