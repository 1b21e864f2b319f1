#!/bin/sh
# AutoFDO parity (a benchmark, not a test): for each corpus program at -O2,
# builds it without profile, with -fprofile-use from the instrumented twin's
# .gcda, and with -fauto-profile from ltpipe's .afdo of the plain twin's
# trace; runs each under the QEMU plugin and prints retired instructions
# and taken branches, and how much of FDO's gain AutoFDO recovers.
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
ninja -C build tests/corpus/corpus.stamp >/dev/null
exec python3 scripts/profile_parity.py afdo "$@"
