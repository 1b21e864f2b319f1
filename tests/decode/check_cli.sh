#!/bin/sh
# ltpipe decode's command-line contract: each bad input gets a one-line
# error naming it and the documented exit status (1 usage, 2 unreadable
# trace or program, 3 data lost, 4 output not writable); a clean decode
# exits 0; a truncated trace reports the offset.
# usage: check_cli.sh LTPIPE SAMPLE_DIR WORKDIR
set -u
L=$1
E=$2/sample.elf
T=$2/sample.lt
W=$3
rm -rf "$W"
mkdir -p "$W"
pass=0
fail=0

# expect NAME STATUS PATTERN CMD...: runs CMD, checks its status and that
# stderr has exactly one line matching PATTERN (or, with status 3, that the
# summary contains it).
expect() {
	name=$1 want=$2 pat=$3
	shift 3
	"$@" >"$W/out" 2>"$W/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL $name: exit $got, want $want: $(cat "$W/err")"
		fail=$((fail + 1))
		return
	fi
	if ! grep -q -- "$pat" "$W/err"; then
		echo "FAIL $name: stderr lacks '$pat': $(cat "$W/err")"
		fail=$((fail + 1))
		return
	fi
	if [ "$want" -ne 0 ] && [ "$want" -ne 3 ] && [ "$(wc -l <"$W/err")" -ne 1 ]; then
		echo "FAIL $name: not a one-line error: $(cat "$W/err")"
		fail=$((fail + 1))
		return
	fi
	echo "ok   $name"
	pass=$((pass + 1))
}

printf 'hello\n' >"$W/garbage"
head -c 1000 "$T" >"$W/trunc.lt"
expect clean 0 "0 errors\|instructions" "$L" decode --elf "$E" -o "$W/o1" \
	-r txt -r json "$T"
expect missing-elf 2 "/nonexistent.elf: cannot open ELF" \
	"$L" decode --elf /nonexistent.elf -o "$W/o2" "$T"
expect garbage-elf 2 "garbage: not an ELF file" \
	"$L" decode --elf "$W/garbage" -o "$W/o3" "$T"
expect missing-trace 2 "/nonexistent.lt: cannot open" \
	"$L" decode --elf "$E" -o "$W/o4" /nonexistent.lt
expect bad-mode 1 "--mode must be bt or bp" \
	"$L" decode --elf "$E" --mode xx "$T"
expect bad-format 1 "unknown --format 'nope'" \
	"$L" decode --elf "$E" --format nope "$T"
expect bad-receiver 1 "unknown receiver 'nope'" \
	"$L" decode --elf "$E" -o "$W/o5" -r nope "$T"
# The receivers opened before the bad one (gcda and afdo too) write
# nothing: the session never started.
expect bad-option 1 "receiver txt: unknown option 'colour'" \
	"$L" decode --elf "$E" -o "$W/o6" -r txt -r json -r stats \
	-r "gcda:gcno=$2,out=$W/o6" -r afdo -r txt:colour=1 "$T"
# gcda's out=DIR is created; where it cannot be, the error names it.
expect gcda-outdir 4 "gcda: cannot create directory /dev/null/x: Not a directory" \
	"$L" decode --elf "$E" -o "$W/o8" -r "gcda:gcno=$2,out=/dev/null/x/y" "$T"
expect truncated 3 "offset 997: trace ends in the middle of a packet" \
	"$L" decode --elf "$E" -o "$W/o7" "$W/trunc.lt"
# A trace cut before its start sync is lost data, named with its offset and
# packet index, not an empty clean decode.
tail -c +20 "$T" >"$W/cut.lt"
expect cut-start 3 "offset 0: a branch/jump packet before the first sync (the trace does not start with a sync) \[packet 0\]" \
	"$L" decode --elf "$E" -o "$W/o9" "$W/cut.lt"
# An empty trace (a capture that failed) is lost data, not a clean decode
# of a program that ran nothing; compressed or not.
: >"$W/empty.lt"
expect empty 3 "offset 0: the trace is empty (no start sync)" \
	"$L" decode --elf "$E" -o "$W/o11" "$W/empty.lt"
# zstd from pzstd starts with a skippable frame: still zstd, decoded cleanly.
if command -v pzstd >/dev/null; then
	pzstd -q -f -o "$W/p.lt.zst" "$T"
	expect pzstd 0 "0 errors\|instructions" \
		"$L" decode --elf "$E" --code none -o "$W/o10" "$W/p.lt.zst"
fi
expect dash-outdir 1 "-o takes a directory" \
	"$L" decode --elf "$E" -o - "$T"
expect bad-outdir 4 "cannot create output directory" \
	"$L" decode --elf "$E" -o /proc/ltpipe-no/x "$T"
# A full disk fails that output (exit 4) and leaves the others whole.
expect full-disk 4 "/dev/full: write error: No space left on device" \
	"$L" decode --elf "$E" -o "$W/o8" -r txt:path=/dev/full -r json "$T"
if cmp -s "$W/o1/events.jsonl" "$W/o8/events.jsonl"; then
	echo "ok   full-disk-others-whole"
	pass=$((pass + 1))
else
	echo "FAIL full-disk-others-whole: events.jsonl differs from a clean run"
	fail=$((fail + 1))
fi
# Several traces (harts) go into the same receivers, one after the other: the
# sample twice is the sample's txt twice, the second start marked hart=1 (its
# position), hart=7 when named so; '-' only as the first.
cp "$T" "$W/s.lt.hart7"
expect two-traces 0 "s.lt.hart7: .* instructions" \
	"$L" decode --elf "$E" -o "$W/o11" -r txt "$T" "$T" "$W/s.lt.hart7"
{ cat "$W/o1/trace.txt"
  sed 's/^\(\[start .*\)\]$/\1 hart=1]/' "$W/o1/trace.txt"
  sed 's/^\(\[start .*\)\]$/\1 hart=7]/' "$W/o1/trace.txt"
} >"$W/three.txt"
if cmp -s "$W/o11/trace.txt" "$W/three.txt"; then
	echo "ok   two-traces-txt"
	pass=$((pass + 1))
else
	echo "FAIL two-traces-txt: not the sample's txt three times, harts 0, 1, 7"
	fail=$((fail + 1))
fi
expect stdin-not-first 1 "standard input ('-') can only be the first TRACE" \
	"$L" decode --elf "$E" -o "$W/o12" "$T" -
# A failed run leaves no half-written output behind.
left=$(find "$W/o5" "$W/o6" -type f 2>/dev/null)
if [ -n "$left" ]; then
	echo "FAIL leftovers: $left"
	fail=$((fail + 1))
else
	echo "ok   no-leftovers"
	pass=$((pass + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
