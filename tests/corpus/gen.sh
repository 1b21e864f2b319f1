#!/bin/bash
# Builds and runs the ground-truth corpus; see README.md in this directory for the layout.
#
#   gen.sh PLUGIN_SO OUTDIR [STAMP]
#
# PLUGIN_SO is the ltpipe QEMU plugin, or "none" to build and run the instrumented twins
# only. Idempotent: a step is skipped when its outputs are newer than its inputs. STAMP,
# when given, is touched once everything succeeded (for meson's custom_target).
# JOBS (default 2) programs are processed in parallel.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# CORPUS_SRC: another directory of programs (scripts/gcda-hunt.sh's generated ones).
src_root=${CORPUS_SRC:-$here/src}
self=$here/gen.sh
cc=${CC_RISCV:-riscv64-linux-gnu-gcc}
# GEN_OPTS: the optimisation levels (default all three); GEN_BP=0: no bp trace.
opts=${GEN_OPTS:-O0 O1 O2}
# Flags of both twins besides -g -On and the link flags (guest.sh's link_flags). Without -fprofile-arcs, gcc -O2 splits
# functions (fnsplit: f -> f + f.part.0) before it writes the .gcno; with -fprofile-arcs
# it splits only after instrumenting, so the twins' .gcno would describe different CFGs
# and the true .gcda would not fit the plain twin. -fno-partial-inlining turns the split
# off in both.
twin_flags="-fno-partial-inlining"
# Programs whose traces are also written zstd-compressed and in the 2025 format with
# stalls (wide timestamps).
extra_progs="sorts"
. "$here/guest.sh"

gen_name=gen.sh
. "$here/../lib/gen-lib.sh"

# build DIR PROG OPT FLAGS...: compiles every .c of PROG into DIR/<base>.o (cwd DIR, so
# gcc puts .gcno, and the instrumented binary its .gcda, next to the objects) and links
# DIR/PROG. Both twins use the same absolute source paths and object names.
build() {
	local dir=$1 prog=$2 opt=$3 c objs=()
	shift 3
	local srcs=("$src_root/$prog"/*.c) hdrs=()
	shopt -s nullglob
	hdrs=("$src_root/$prog"/*.h)
	shopt -u nullglob
	mkdir -p "$dir"
	for c in "${srcs[@]}"; do
		local o
		o=$(basename "$c" .c).o
		objs+=("$o")
		if ! up_to_date "$dir/$o" "$c" "${hdrs[@]}" "$self"; then
			(cd "$dir" && "$cc" -g "-$opt" $twin_flags "$@" -Wall -Wextra -Werror \
				-I"$src_root/$prog" -c "$c" -o "$o")
		fi
	done
	local link=()
	[ ! -e "$src_root/$prog/link" ] || link=("$src_root/$prog/link")
	if ! up_to_date "$dir/$prog" "${objs[@]/#/$dir/}" "${link[@]}"; then
		(cd "$dir" && "$cc" -g "$(link_flags "$src_root/$prog")" "-$opt" $twin_flags "$@" \
			"${objs[@]}" -o "$prog")
	fi
}

# trace DIR PROG NAME TRUTH PLUGIN_ARGS: one plugin run of the plain twin writing
# DIR/NAME and DIR/TRUTH; its stdout must equal the instrumented run's.
trace() {
	local dir=$1 prog=$2 name=$3 truth=$4 pargs=$5
	if up_to_date "$dir/$name" "$dir/plain/$prog" "$plugin" "$here/guest.sh" &&
	   up_to_date "$dir/$truth" "$dir/plain/$prog" "$plugin" "$here/guest.sh"; then
		return 0
	fi
	rm -f "$dir/$name" "$dir/$truth"
	run_guest "$dir/plain" "$prog" "$dir/$name.out" "$(args_csv "$src_root/$prog")" \
		-plugin "$plugin,out=$dir/.tmp-$name,truth=$dir/.tmp-$truth,$pargs" ||
		die "$prog: plugin run for $name failed"
	cmp -s "$dir/$name.out" "$dir/instr.out" ||
		die "$prog: stdout of the $name run differs from the instrumented run"
	mv "$dir/.tmp-$truth" "$dir/$truth"
	# Code that ran outside the program (a signal handler's return
	# trampoline) comes in a code map next to the trace.
	if [ -f "$dir/.tmp-$name.code" ]; then
		mv "$dir/.tmp-$name.code" "$dir/$name.code"
	else
		rm -f "$dir/$name.code"
	fi
	mv "$dir/.tmp-$name" "$dir/$name"
}

# one_prog PROG: builds both twins at every opt level, runs them, writes PROG's lines of
# the manifest to OUTDIR/PROG/manifest.part.
one_prog() {
	local prog=$1 opt dir c gcno gcda extras args
	rm -f "$outdir/$prog/manifest.part"
	mkdir -p "$outdir/$prog"
	for opt in $opts; do
		dir=$outdir/$prog/$opt
		build "$dir/plain" "$prog" "$opt" -ftest-coverage
		build "$dir/instr" "$prog" "$opt" -fprofile-arcs -ftest-coverage
		# The counters accumulate into an existing .gcda, so it must go before each run.
		if ! up_to_date "$dir/instr.out" "$dir/instr/$prog" "$here/guest.sh"; then
			rm -f "$dir"/instr/*.gcda "$dir/instr.out"
			run_guest "$dir/instr" "$prog" "$dir/instr.out.tmp" "$(args_csv "$src_root/$prog")" ||
				die "$prog $opt: instrumented run failed"
			mv "$dir/instr.out.tmp" "$dir/instr.out"
		fi
		extras=-
		if [ "$plugin" != none ]; then
			trace "$dir" "$prog" bt.lt truth.pcs mode=bt
			[ "${GEN_BP:-1}" = 0 ] ||
				trace "$dir" "$prog" bp.lt truth-bp.pcs mode=bp,bp_entries=1024
			case " $extra_progs " in
			*" $prog "*)
				trace "$dir" "$prog" bt.lt.zst truth-zst.pcs mode=bt
				trace "$dir" "$prog" bt-2025-stall.lt truth-2025-stall.pcs \
					mode=bt,format=tacit-2025,stall_every=1000,stall_cycles=100000,taken_cycles=2
				extras="zst:$dir/bt.lt.zst,tacit-2025-stall:$dir/bt-2025-stall.lt"
				;;
			esac
		fi
		gcno="" gcda=""
		for c in "$src_root/$prog"/*.c; do
			c=$(basename "$c" .c)
			gcno+=${gcno:+,}$dir/plain/$c.gcno
			gcda+=${gcda:+,}$dir/instr/$c.gcda
		done
		args=$(args_csv "$src_root/$prog")
		echo "$prog $opt $dir $dir/plain/$prog $dir/instr/$prog $dir/bt.lt $dir/bp.lt" \
			"$dir/truth.pcs $gcno $gcda $args $extras" >>"$outdir/$prog/manifest.part"
	done
}

[ $# -ge 2 ] || die "usage: gen.sh PLUGIN_SO|none OUTDIR [STAMP]"
plugin=$1
mkdir -p "$2"
outdir=$(cd "$2" && pwd)
if [ "$plugin" != none ]; then
	[ -f "$plugin" ] || die "plugin $plugin not found"
	plugin=$(cd "$(dirname "$plugin")" && pwd)/$(basename "$plugin")
fi

if [ "${3:-}" = --one ]; then
	one_prog "$4"
	exit 0
fi

# One generation at a time per OUTDIR: two at once (two ninja runs in one build
# directory) would run an instrumented twin twice into one .gcda (runs=2, every
# counter doubled). The second waits, then finds everything up to date.
exec 9>"$outdir/.gen.lock"
flock 9

start=$(date +%s)
progs=$(cd "$src_root" && ls -d */ | tr -d /)
# Each program in its own process; a failing one names itself, and xargs then fails.
echo "$progs" | xargs -P "${JOBS:-2}" -n 1 "$self" "$plugin" "$outdir" --one ||
	die "corpus generation failed"
{
	echo "# ltpipe corpus manifest v1, one line per program and optimisation level:"
	echo "# prog opt dir plain_elf instr_elf bt_trace bp_trace truth gcno,... gcda,... args|- extras|-"
	for p in $progs; do
		cat "$outdir/$p/manifest.part"
	done
} >"$outdir/corpus.txt.tmp"
mv "$outdir/corpus.txt.tmp" "$outdir/corpus.txt"
echo "gen.sh: corpus of $(echo "$progs" | wc -w) programs in $outdir ($(($(date +%s) - start)) s)"
if [ -n "${3:-}" ]; then
	touch "$3"
fi
