#!/bin/bash
# PGO parity of the gcda receiver (a benchmark, not a test): for every corpus
# program at -O2, rebuilds the plain twin's sources with -fprofile-use twice,
# once from the instrumented twin's .gcda and once from the .gcda that
# `ltpipe decode -r gcda` wrote from the plain twin's trace, runs both
# under the QEMU plugin and compares retired instructions (lines of the
# truth file) and taken branches/jumps (consecutive pcs more than 4 bytes
# apart or backwards; a taken branch to the next instruction is not seen).
#
#   scripts/pgo-parity.sh BUILDDIR [OPT] [PROG...]
#
# BUILDDIR: a meson build directory with ltpipe, the QEMU plugin and the
# corpus built (tests/corpus/out/corpus.txt). OPT defaults to O2. Prints a
# table; the goal is |ours - instr| <= 1% on every program. Work files go to
# BUILDDIR/pgo-parity/. The -fprofile-use builds use the twins' flags,
# source paths and -o names (the gcda is looked up by object name).
# OURS_GCDA=DIR (with one PROG) builds "ours" from the .gcda files in DIR
# instead of decoding the trace (scripts/gcda-swap.py makes such files).
# Run with sh as well as bash (the README says `sh scripts/...`).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 BUILDDIR [OPT] [PROG...]" >&2; exit 2; }
build=$(cd "$1" && pwd)
opt=${2:-O2}
shift $(($# >= 2 ? 2 : 1))
only=" $* "
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# CORPUS_SRC: the sources the corpus was built from (gen.sh's variable; the
# gcno records their paths, so a corpus copied from another clone needs its
# sources: -fprofile-use checks the source locations).
src_root=${CORPUS_SRC:-$here/tests/corpus/src}
corpus=$build/tests/corpus/out
ltpipe=$build/ltpipe
plugin=$build/sinks/qemu/libltpipe-qemu.so
cc=${CC_RISCV:-riscv64-linux-gnu-gcc}
work=$build/pgo-parity
. "$here/tests/corpus/guest.sh"

for f in "$corpus/corpus.txt" "$ltpipe" "$plugin"; do
	[ -e "$f" ] || { echo "pgo-parity: $f missing (build first)" >&2; exit 1; }
done

# pgo_build DIR PROG GCDA_DIR: compiles PROG's sources in DIR with
# -fprofile-use, the gcda files copied from GCDA_DIR, and links DIR/PROG,
# -static even for the corpus's position-independent programs, so that the
# counts are the program's own code, not the loader's.
pgo_build() {
	local dir=$1 prog=$2 from=$3 c o objs=()
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$from"/*.gcda "$dir"/
	for c in "$src_root/$prog"/*.c; do
		o=$(basename "$c" .c).o
		objs+=("$o")
		(cd "$dir" && "$cc" -g -static "-$opt" -fno-partial-inlining \
			-fprofile-use -Wno-missing-profile -I"$src_root/$prog" \
			-c "$c" -o "$o" 2>>"$dir/cc.log")
	done
	(cd "$dir" && "$cc" -g -static "-$opt" -fno-partial-inlining \
		"${objs[@]}" -o "$prog")
}

# measure DIR PROG ARGS RUNDIR: prints "retired taken" of one plugin run of
# DIR/PROG, run as RUNDIR/PROG: both builds run from one directory, as
# qemu-user puts the executable's full path on the guest's stack (a longer
# directory name shifts the stack, and glibc's start-up string work with it:
# tens of instructions). RUNDIR is left in place: measure runs in a process
# substitution, whose tail may still run when the next measure starts.
measure() {
	local dir=$1 prog=$2 args=$3 rdir=$4
	rm -rf "$rdir"
	mkdir -p "$rdir"
	cp "$dir/$prog" "$rdir/$prog"
	run_guest "$rdir" "$prog" "$dir/run.out" "$args" \
		-plugin "$plugin,out=$dir/run.lt,truth=$dir/truth.pcs"
	python3 - "$dir/truth.pcs" <<'EOF'
import sys
n = taken = 0
prev = None
with open(sys.argv[1]) as f:
    for line in f:
        pc = int(line, 16)
        if prev is not None and not 0 < pc - prev <= 4:
            taken += 1
        prev = pc
        n += 1
print(n, taken)
EOF
	rm -rf "$dir/run.lt" "$dir/truth.pcs"
}

printf '%-10s %12s %12s %8s %10s %10s %8s %s\n' program "instr-pgo" "ours-pgo" \
	"d-insn%" "taken-i" "taken-o" "d-tkn%" "warnings(ours)"
while read -r prog o dir plain _instr bt _bp _truth gcno _gcda args _extras; do
	case $prog in '#'*) continue ;; esac
	[ "$o" = "$opt" ] || continue
	[ "$only" = "  " ] || case "$only" in *" $prog "*) ;; *) continue ;; esac
	w=$work/$prog-$opt
	rm -rf "$w"
	mkdir -p "$w/ours-gcda"
	if [ -n "${OURS_GCDA:-}" ]; then
		cp "$OURS_GCDA"/*.gcda "$w/ours-gcda/"
	else
		"$ltpipe" decode --elf "$plain" -o "$w/ours-gcda" \
			-r "gcda:gcno=${gcno//,/:},out=$w/ours-gcda" "$bt" \
			2>"$w/decode.log"
	fi
	pgo_build "$w/instr" "$prog" "$dir/instr"
	pgo_build "$w/ours" "$prog" "$w/ours-gcda"
	read -r ni ti < <(measure "$w/instr" "$prog" "$args" "$w/run")
	read -r no to < <(measure "$w/ours" "$prog" "$args" "$w/run")
	cmp -s "$w/instr/run.out" "$w/ours/run.out" ||
		echo "pgo-parity: $prog: outputs differ" >&2
	warn=$(grep -c 'warning\|error' "$w/ours/cc.log" || true)
	awk -v p="$prog" -v ni="$ni" -v no="$no" -v ti="$ti" -v to="$to" -v w="$warn" \
		'BEGIN { printf "%-10s %12d %12d %+7.2f%% %10d %10d %+7.2f%% %s\n",
			p, ni, no, 100 * (no - ni) / ni, ti, to,
			ti ? 100 * (to - ti) / ti : 0, w }'
done <"$corpus/corpus.txt"
