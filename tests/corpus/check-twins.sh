#!/bin/bash
# Test corpus-gcda-twins: every plain build has its .gcno files and every instrumented run
# its .gcda files, all parse completely with gcov-dump, the instrumented twin's .gcno has
# the same records as the plain one (only the time stamp and the cwd differ), and each
# .gcda holds exactly one run of the same functions (ident and both checksums) as the
# plain .gcno. The last point is what makes the plain twin's trace comparable with the
# instrumented twin's counters.
#
#   check-twins.sh OUTDIR
set -euo pipefail

dump=${GCOV_DUMP:-riscv64-linux-gnu-gcov-dump}
fails=0 files=0

fail() {
	echo "FAIL $*"
	fails=$((fails + 1))
}

# parses FILE KIND: true when gcov-dump reads FILE (of KIND gcno or gcda) to its last byte.
# gcov-dump exits 0 even on a truncated file, so the records' extent is checked against
# the file size: records are (tag, length) headers of 8 bytes plus length bytes; a .gcda
# ends with one zero word.
parses() {
	local file=$1 kind=$2 out size end
	out=$("$dump" -p "$file" 2>&1) || return 1
	case $kind in
	gcno) grep -q "^$file:note:magic \`gcno'" <<<"$out" || return 1 ;;
	gcda) grep -q "^$file:data:magic \`gcda'" <<<"$out" || return 1 ;;
	esac
	grep -q FUNCTION <<<"$out" || return 1
	size=$(stat -c %s "$file")
	# gcc 12 writes a counters record that is all zero as its header
	# alone (a negative length): gcov-dump shows "(all zero)" and the
	# counters' size.
	end=$(awk -F: '$2 ~ /^ *[0-9]+$/ && $4 ~ /^ *[0-9]+$/ {
		e = $2 + 8 + ($0 ~ /\(all zero\)/ ? 0 : $4) } END { print e + 0 }' \
		<<<"$out")
	[ "$end" -eq "$size" ] || [ "$((end + 4))" -eq "$size" ]
}

# functions FILE: prints the FUNCTION signatures (ident and checksums) of FILE, sorted.
functions() {
	"$dump" "$1" | sed -n 's/.*FUNCTION \(ident=[0-9]*, lineno_checksum=0x[0-9a-f]*, cfg_checksum=0x[0-9a-f]*\).*/\1/p' |
		sort
}

# records FILE: gcov-dump's record listing of FILE without the file name, stamp and cwd.
records() {
	"$dump" -l "$1" | sed "s|^$1:||" | grep -v '^stamp \|^cwd: '
}

[ $# -eq 1 ] || { echo "usage: check-twins.sh OUTDIR" >&2; exit 2; }
manifest=$1/corpus.txt
[ -s "$manifest" ] || { echo "FAIL: no manifest $manifest" >&2; exit 1; }
entries=0
# Fields: prog opt dir plain_elf instr_elf bt bp truth gcno gcda args extras.
while read -r prog opt _ _ instr _ _ _ gcnos gcdas _; do
	entries=$((entries + 1))
	IFS=, read -r -a gcno <<<"$gcnos"
	IFS=, read -r -a gcda <<<"$gcdas"
	[ "${#gcno[@]}" -eq "${#gcda[@]}" ] || fail "$prog $opt: gcno and gcda lists differ in length"
	for i in "${!gcno[@]}"; do
		n=${gcno[$i]} d=${gcda[$i]}
		twin=$(dirname "$instr")/$(basename "$n")
		files=$((files + 1))
		if [ ! -s "$n" ] || ! parses "$n" gcno; then
			fail "$prog $opt: $n missing or unreadable"
			continue
		fi
		if [ ! -s "$d" ] || ! parses "$d" gcda; then
			fail "$prog $opt: $d missing or unreadable"
			continue
		fi
		[ "$d" -nt "$instr" ] || fail "$prog $opt: $d older than $instr"
		# grep reads the whole dump: grep -q could stop early and,
		# under pipefail, fail the pipeline on the writer's SIGPIPE.
		"$dump" "$d" | grep 'OBJECT_SUMMARY runs=1,' >/dev/null ||
			fail "$prog $opt: $d does not hold exactly one run"
		[ "$(functions "$n")" = "$(functions "$d")" ] ||
			fail "$prog $opt: functions of $d differ from those of $n"
		[ "$(records "$n")" = "$(records "$twin")" ] ||
			fail "$prog $opt: $twin and $n differ beyond stamp and cwd"
	done
done < <(grep -v '^#' "$manifest")
[ "$entries" -ge 36 ] || fail "manifest has only $entries entries"
echo "corpus-gcda-twins: $entries entries, $files gcno/gcda pairs, $fails failures"
[ "$fails" -eq 0 ]
