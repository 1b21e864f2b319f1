#!/bin/sh
# Decodes the tiny program's trace through the example receiver plugin and
# compares its output with the expected counts; then checks that a plugin
# option is passed through and that a bad option is refused.
#   run_plugin.sh LTPIPE ELF TRACE PLUGIN.so OUTDIR EXPECTED
set -eu
ltpipe=$1 elf=$2 trace=$3 plugin=$4 out=$5 expected=$6
rm -rf "$out"
mkdir -p "$out"
"$ltpipe" decode -q --elf "$elf" -o "$out" -r "$plugin" "$trace"
diff -u "$expected" "$out/example.txt"
"$ltpipe" decode -q --elf "$elf" -o "$out" -r "$plugin:path=other.txt" "$trace"
diff -u "$expected" "$out/other.txt"
if "$ltpipe" decode -q --elf "$elf" -o "$out" -r "$plugin:bogus=1" "$trace" \
	2>"$out/err.txt"; then
	echo "run_plugin.sh: an unknown option was accepted" >&2
	exit 1
fi
grep -q "receiver example: unknown option 'bogus'" "$out/err.txt"
echo ok
