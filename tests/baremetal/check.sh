#!/bin/bash
# Test baremetal-truth: the executed PCs of the bare-metal trap test (OUTDIR/truth.pcs
# and truth-bp.pcs, one run each) show the start-up code, exactly NECALL + NTIMER entries
# into trap_entry and as many trap_mret executions, each followed by the first handler
# instruction or the return address: an ecall trap resumes at the ecall plus 4, a timer
# interrupt inside main (the only code running with interrupts enabled), unless the next
# interrupt is already pending and re-enters the handler at once.
#
#   check.sh OUTDIR
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
nm=${NM_RISCV_ELF:-riscv64-unknown-elf-nm}
objdump=${OBJDUMP_RISCV_ELF:-riscv64-unknown-elf-objdump}
[ $# -eq 1 ] || { echo "usage: check.sh OUTDIR" >&2; exit 2; }
out=$1
elf=$out/prog.elf

define() {
	sed -n "s/^#define $1 \([0-9]*\).*/\1/p" "$here/prog.c"
}
symbol() {
	"$nm" "$elf" | awk -v s="$1" '$3 == s { sub(/^0+/, "", $1); print $1 }'
}
necall=$(define NECALL)
ntimer=$(define NTIMER)
entry=$(symbol trap_entry)
mret=$(symbol trap_mret)
start=$(symbol _start)
# Interrupts are enabled only inside main: a timer interrupt resumes at one of its
# instructions (or, when the next one is already pending, enters the handler again).
main_insns=$("$objdump" -d --disassemble=main "$elf" |
	awk '$1 ~ /^[0-9a-f]+:$/ { sub(/:$/, "", $1); print $1 }' | tr '\n' ' ')
# "addr:resume" pairs: an ecall is 4 bytes, and the handler skips it.
ecalls=
for a in $("$objdump" -d "$elf" | awk '$3 == "ecall" { sub(/:$/, "", $1); print $1 }'); do
	ecalls+="$a:$(printf %x $((0x$a + 4))) "
done
[ -n "$necall" ] && [ -n "$ntimer" ] && [ -n "$entry" ] && [ -n "$mret" ] && [ -n "$ecalls" ] &&
	[ -n "$main_insns" ] ||
	{ echo "FAIL: cannot find the expected symbols in $elf"; exit 1; }

fails=0
for truth in "$out/truth.pcs" "$out/truth-bp.pcs"; do
	if [ ! -s "$truth" ]; then
		echo "FAIL: $truth missing or empty"
		fails=$((fails + 1))
		continue
	fi
	# One pass: classify every trap by the PC before the handler entry (an ecall or not)
	# and check that each mret returns where that trap must resume.
	res=$(awk -v entry="$entry" -v mret="$mret" -v start="$start" -v ecalls="$ecalls" \
		-v main_insns="$main_insns" '
		BEGIN {
			n = split(ecalls, e, " ")
			for (i = 1; i <= n; i++) { split(e[i], p, ":"); next_pc[p[1]] = p[2] }
			n = split(main_insns, e, " ")
			for (i = 1; i <= n; i++) in_main[e[i]] = 1
		}
		{ sub(/^0+/, "") }
		$0 == start { starts++ }
		$0 == entry {
			entries++
			if (prev in next_pc) { ne++; resume[entries] = next_pc[prev] }
			else { nt++; resume[entries] = "?" }
			depth++
		}
		after_mret {
			want = resume[entries]
			if (want != "?" && $0 != want) bad++
			if (want == "?" && !($0 in in_main) && $0 != entry) bad++
			after_mret = 0
		}
		$0 == mret { mrets++; after_mret = 1; depth-- }
		{ prev = $0; total++ }
		END { printf "%d %d %d %d %d %d %d %d\n", total, starts, entries, ne, nt, mrets, bad + 0, depth }
	' "$truth")
	read -r total starts entries ne nt mrets bad depth <<<"$res"
	want=$((necall + ntimer))
	if [ "$starts" -eq 1 ] && [ "$entries" -eq "$want" ] && [ "$ne" -eq "$necall" ] &&
	   [ "$nt" -eq "$ntimer" ] && [ "$mrets" -eq "$want" ] && [ "$bad" -eq 0 ] &&
	   [ "$depth" -eq 0 ]; then
		echo "ok   $(basename "$truth"): $total PCs, $entries handler entries ($ne ecall, $nt timer), $mrets mret"
	else
		echo "FAIL $(basename "$truth"): $total PCs, _start $starts times, $entries handler entries" \
			"($ne ecall, $nt timer; want $necall + $ntimer), $mrets mret, $bad wrong resumes"
		fails=$((fails + 1))
	fi
done
[ "$fails" -eq 0 ]
