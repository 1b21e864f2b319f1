#!/bin/bash
# Builds the bare-metal trap test and traces it under qemu-system-riscv64 -M virt.
#
#   gen.sh PLUGIN_SO|none OUTDIR [STAMP]
#
# Writes OUTDIR/prog.elf and, with a plugin, OUTDIR/{bt.lt,truth.pcs} (BT mode) and
# OUTDIR/{bp.lt,truth-bp.pcs} (BP mode, 1024 entries), all with prv=M. Idempotent: a
# step is skipped when its outputs are newer than its inputs. STAMP is touched at the end.
#
# No -icount: under icount qemu re-executes ("rewinds") every MMIO access that is not the
# last instruction of its translation block, so such instructions would be seen twice.
# Without it the timer follows host time: the number of loop iterations between two
# interrupts varies from run to run, so each trace has its own truth file, and the
# tests check structure (trap counts, handler entry and mret), not run-to-run equality.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cc=${CC_RISCV_ELF:-riscv64-unknown-elf-gcc}
qemu=${QEMU_SYSTEM_RISCV:-qemu-system-riscv64}
cflags="-march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany -O2 -g -nostdlib -ffreestanding
	-Wall -Wextra -Werror -Wl,--no-warn-rwx-segments"

gen_name=baremetal/gen.sh
. "$here/../lib/gen-lib.sh"

# run_vm [QEMU_OPTION...]: runs prog.elf to completion; fails unless it exits with 0.
run_vm() {
	timeout 120 "$qemu" -M virt -bios none -nographic -kernel "$outdir/prog.elf" "$@" \
		</dev/null >"$outdir/console.out" 2>&1 ||
		die "prog.elf failed (status $?), see $outdir/console.out"
}

# trace NAME TRUTH PLUGIN_ARGS: one traced run writing OUTDIR/NAME and OUTDIR/TRUTH.
trace() {
	local name=$1 truth=$2 pargs=$3
	if up_to_date "$outdir/$name" "$outdir/prog.elf" "$plugin" "$here/gen.sh" &&
	   up_to_date "$outdir/$truth" "$outdir/prog.elf" "$plugin" "$here/gen.sh"; then
		return 0
	fi
	rm -f "$outdir/$name" "$outdir/$truth"
	run_vm -plugin "$plugin,out=$outdir/.tmp-$name,truth=$outdir/.tmp-$truth,prv=M,$pargs"
	mv "$outdir/.tmp-$truth" "$outdir/$truth"
	mv "$outdir/.tmp-$name" "$outdir/$name"
}

[ $# -ge 2 ] || die "usage: gen.sh PLUGIN_SO|none OUTDIR [STAMP]"
plugin=$1
mkdir -p "$2"
outdir=$(cd "$2" && pwd)
if [ "$plugin" != none ]; then
	[ -f "$plugin" ] || die "plugin $plugin not found"
	plugin=$(cd "$(dirname "$plugin")" && pwd)/$(basename "$plugin")
fi

if ! up_to_date "$outdir/prog.elf" "$here/start.S" "$here/prog.c" "$here/link.ld" "$here/gen.sh"; then
	# shellcheck disable=SC2086
	"$cc" $cflags -T "$here/link.ld" "$here/start.S" "$here/prog.c" -o "$outdir/prog.elf.tmp"
	mv "$outdir/prog.elf.tmp" "$outdir/prog.elf"
fi
if [ "$plugin" = none ]; then
	run_vm
else
	# Tracing starts at the ELF's entry (as a program enabling its trace
	# encoder would), so the reset ROM at 0x1000 is not in the trace.
	entry=start=0x80000000
	trace bt.lt truth.pcs mode=bt,$entry
	trace bp.lt truth-bp.pcs mode=bp,bp_entries=1024,$entry
	# Every format variant's trap packets (each run has its own truth: the
	# timer follows host time).
	for f in tacit-oct2025 tacit-2025 tacit-2025-unshifted spike-2025 \
		spike-2025-02 spike-armed; do
		trace "bt-$f.lt" "truth-bt-$f.pcs" "mode=bt,format=$f,$entry"
	done
	trace bp-spike-2025.lt truth-bp-spike-2025.pcs \
		"mode=bp,format=spike-2025,$entry"
	trace bp-spike-2025-02.lt truth-bp-spike-2025-02.pcs \
		"mode=bp,format=spike-2025-02,$entry"
	trace bp-spike-armed.lt truth-bp-spike-armed.pcs \
		"mode=bp,format=spike-armed,$entry"
	trace bt-periodic.lt truth-bt-periodic.pcs "mode=bt,periodic=300,$entry"
fi
if [ -n "${3:-}" ]; then
	touch "$3"
fi
