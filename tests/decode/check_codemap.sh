#!/bin/sh
# Code outside the program's ELF, carried by the QEMU plugin's code map
# (TRACE.code): a dynamically linked (-no-pie) program, whose loader and
# libc run from the map, decodes to exactly the pcs QEMU executed; without
# the map (--code none) the decode loses data at the first pc outside the
# ELF; a corrupt map is refused naming its line; a position-independent
# program that ran elsewhere than its link addresses decodes exactly, with
# its own pcs at link addresses; a map that does not fit the ELF given is
# refused with the reason; a program that starts a thread gets a trace per
# thread, each decoding exactly with the one code map (libc code one thread
# translated, another ran), and with vcpus=0 the plugin's warning that the
# other vCPU is not traced, its main thread still decoding exactly.
# (Signal trampolines are covered by the corpus program sigs; threads in
# depth by check_threads.py.)
#   check_codemap.sh LTPIPE PLUGIN.so OUTDIR
set -eu
ltpipe=$(realpath "$1") plugin=$(realpath "$2") out=$3
cc=${CC_RISCV:-riscv64-linux-gnu-gcc}
prefix=${QEMU_LD_PREFIX:-/usr/riscv64-linux-gnu}
rm -rf "$out"
mkdir -p "$out"
cd "$out"
fail() { echo "FAIL: $*" >&2; exit 1; }
cat >dyn.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}
int main(void)
{
	int v[64];
	for (int i = 0; i < 64; i++)
		v[i] = (i * 37) % 64;
	qsort(v, 64, sizeof v[0], cmp);
	printf("%d %d %zu\n", v[0], v[63], strlen("dynamic"));
	return 0;
}
C
"$cc" -g -O1 -no-pie dyn.c -o dyn
"$cc" -g -O1 -pie -fPIE dyn.c -o dynpie
# The truth: the pcs QEMU executed, from the plugin itself.
qemu-riscv64 -L "$prefix" -plugin "$plugin,out=dyn.lt,truth=dyn.pcs" ./dyn >dyn.out 2>dyn.err
grep -q "vCPU" dyn.err && fail "single-threaded program: $(cat dyn.err)"
[ -s dyn.lt.code ] || fail "no code map next to the trace"
"$ltpipe" decode -q --elf dyn -o dec -r txt dyn.lt ||
	fail "decode with the code map: exit $?"
grep '^0x' dec/trace.txt | cut -d: -f1 | sed 's/^0x//' >dec.pcs
cmp -s dec.pcs dyn.pcs || fail "decoded pcs differ from QEMU's ($(wc -l <dec.pcs) vs $(wc -l <dyn.pcs))"
echo "ok   dynamic -no-pie program: $(wc -l <dyn.pcs) pcs exact"
rc=0
"$ltpipe" decode --elf dyn --code none -o nocode -r null dyn.lt 2>nocode.err || rc=$?
[ "$rc" = 3 ] || fail "--code none: exit $rc, want 3"
grep -q "outside every executable section" nocode.err || fail "--code none: $(cat nocode.err)"
echo "ok   --code none: data lost at the first pc outside the ELF"
cp dyn.lt.code bad.code
echo "4000 123" >>bad.code
n=$(wc -l <bad.code)
rc=0
"$ltpipe" decode -q --elf dyn --code bad.code -o bad -r null dyn.lt 2>bad.err || rc=$?
[ "$rc" = 2 ] || fail "corrupt map: exit $rc, want 2"
grep -q "bad.code:$n: expected the code as an even number of halfwords" bad.err ||
	fail "corrupt map: $(cat bad.err)"
echo "ok   corrupt code map refused at line $n"
qemu-riscv64 -L "$prefix" -plugin "$plugin,out=pie.lt,truth=pie.pcs" ./dynpie >/dev/null
load=$(grep '^load ' pie.lt.code) || fail "PIE: no load line in its code map"
set -- $load
lo=$((0x$2)) hi=$((0x$3))
[ "$lo" -ne 0 ] || fail "PIE: loaded at 0, nothing to translate"
"$ltpipe" decode --elf dynpie -o pie -r txt pie.lt 2>pie.err ||
	fail "PIE: exit $?: $(cat pie.err)"
grep -q "position-independent): trace addresses translated" pie.err ||
	fail "PIE: no relocation message: $(cat pie.err)"
# QEMU's pcs inside the program's code, moved back to its link addresses
own=0
while read -r a; do
	v=$((0x$a))
	if [ "$v" -ge "$lo" ] && [ "$v" -lt "$hi" ]; then
		printf '%x\n' $((v - lo))
		own=$((own + 1))
	else
		echo "$a"
	fi
done <pie.pcs >pie.want
grep '^0x' pie/trace.txt | cut -d: -f1 | sed 's/^0x//' >pie.got
cmp -s pie.got pie.want || fail "PIE: decoded pcs differ from QEMU's ($(wc -l <pie.got) vs $(wc -l <pie.want))"
[ "$own" -gt 1000 ] || fail "PIE: only $own pcs in the program's own code"
echo "ok   PIE program run at 0x$2: $(wc -l <pie.got) pcs exact ($own in its own code, at link addresses)"
rc=0
"$ltpipe" decode -q --elf dyn -o wrong -r null pie.lt 2>wrong.err || rc=$?
[ "$rc" = 2 ] || fail "PIE trace with another ELF: exit $rc, want 2"
grep -q "pie.lt.code: dyn ran with its code at 0x$2-0x$3, but its executable segments are .* not position-independent" wrong.err ||
	fail "PIE trace with another ELF: $(cat wrong.err)"
echo "ok   a PIE's trace given a non-PIE ELF refused"
cat >thr.c <<'C'
#include <pthread.h>
#include <stdio.h>
static volatile long sum;
static void *work(void *arg)
{
	for (long i = 0; i < 1000; i++)
		sum += i;
	return arg;
}
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, work, NULL);
	pthread_join(t, NULL);
	printf("%ld\n", sum);
	return 0;
}
C
"$cc" -g -O1 -no-pie thr.c -o thr -pthread
qemu-riscv64 -L "$prefix" -plugin "$plugin,out=all.lt,truth=all.pcs" ./thr >all.out 2>all.err
[ ! -s all.err ] || fail "threaded program, every vCPU: $(cat all.err)"
for t in all.lt all.lt.hart1; do
	"$ltpipe" decode -q --elf thr -o "dec-$t" -r txt "$t" ||
		fail "threaded program: $t: exit $?"
	grep '^0x' "dec-$t/trace.txt" | cut -d: -f1 | sed 's/^0x//' >"$t.got"
	want=all.pcs${t#all.lt}
	cmp -s "$t.got" "$want" || fail "threaded program: $t: pcs differ ($(wc -l <"$t.got") vs $(wc -l <"$want"))"
done
[ ! -e all.lt.hart2 ] || fail "threaded program: a trace for a third vCPU"
echo "ok   a second thread has its own trace: $(wc -l <all.lt.got) + $(wc -l <all.lt.hart1.got) pcs exact"
qemu-riscv64 -L "$prefix" -plugin "$plugin,out=thr.lt,truth=thr.pcs,vcpus=0" ./thr >thr.out 2>thr.err
grep -q "^ltpipe-qemu: warning: code ran on vCPU 1 (another thread), which is not traced: vcpus=0 traces vCPU 0 only" thr.err ||
	fail "threaded program: no untraced-vCPU warning: $(cat thr.err)"
[ ! -e thr.lt.hart1 ] || fail "vcpus=0: a trace for vCPU 1"
"$ltpipe" decode -q --elf thr -o thrdec -r txt thr.lt || fail "threaded program: exit $?"
grep '^0x' thrdec/trace.txt | cut -d: -f1 | sed 's/^0x//' >thr.got
cmp -s thr.got thr.pcs || fail "threaded program: main thread's pcs differ ($(wc -l <thr.got) vs $(wc -l <thr.pcs))"
echo "ok   vcpus=0: a second thread is reported untraced; the main thread decodes exactly ($(wc -l <thr.got) pcs)"
