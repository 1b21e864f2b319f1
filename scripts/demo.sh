#!/bin/sh
# The main job on the bundled sample: builds ltpipe, decodes
# tests/sample/sample.lt (a trace of tests/sample/sample.elf made with our
# QEMU plugin) into every built-in receiver, and says where the outputs went.
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
out=${1:-ltpipe-out/sample}
mkdir -p "$out"
recv=""
for r in $(build/ltpipe decode --help | sed -n '/^receivers:/,/^$/p' |
           awk 'NR > 1 && NF { print $1 }'); do
	case $r in
	null) ;;
	gcda) recv="$recv -r gcda:gcno=tests/sample,out=$out" ;;
	*) recv="$recv -r $r" ;;
	esac
done
# shellcheck disable=SC2086
build/ltpipe decode --elf tests/sample/sample.elf -o "$out" $recv \
	tests/sample/sample.lt
echo "demo: decoded tests/sample/sample.lt; outputs:"
ls -l "$out" | awk 'NR > 1 { print "  '"$out"'/" $NF " (" $5 " bytes)" }'
