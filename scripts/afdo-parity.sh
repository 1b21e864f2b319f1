#!/bin/sh
# AutoFDO parity (a benchmark, not a test): for each corpus program at -O2,
# builds it without profile, with -fprofile-use from the instrumented twin's
# .gcda, and with -fauto-profile from ltpipe's .afdo of the plain twin's
# trace; runs each under the QEMU plugin and prints retired instructions
# and taken branches, and how much of FDO's gain AutoFDO recovers.
# LTPIPE_BUILD=DIR uses (and updates) that configured build directory
# instead of ./build; --reuse keeps earlier no-profile and FDO results;
# --opts O adds afdo receiver options (e.g. --opts lines=max);
# --fdo-opts F adds comma-separated gcc flags to the FDO build (e.g.
# --fdo-opts -fno-peel-loops: gcc 12 never peels under AutoFDO).
set -e
cd "$(dirname "$0")/.."
# Only what the benchmark runs is built, so a half-written file elsewhere
# in the tree (another target failing) does not stop it.
if [ -n "$LTPIPE_BUILD" ]; then
	ninja -C "$LTPIPE_BUILD" ltpipe sinks/qemu/libltpipe-qemu.so >/dev/null
else
	sh scripts/build.sh
	LTPIPE_BUILD=build
fi
ninja -C "$LTPIPE_BUILD" tests/corpus/corpus.stamp >/dev/null
# Leading options go before the "afdo" word, program names after it.
opts=
while [ $# -gt 0 ]; do
	case "$1" in
	--reuse) opts="$opts --reuse"; shift ;;
	--opts) opts="$opts --opts $2"; shift 2 ;;
	--fdo-opts) opts="$opts --fdo-opts $2"; shift 2 ;;
	*) break ;;
	esac
done
exec python3 scripts/profile_parity.py --build "$LTPIPE_BUILD" $opts afdo "$@"
