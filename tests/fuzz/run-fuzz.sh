#!/bin/sh
# run-fuzz.sh FUZZER SEED_DIR [SECONDS]
# Runs a libFuzzer target for a bounded time. New inputs go to a scratch
# corpus (the seed directory in the source tree is only read); a crashing
# input is saved in the current directory as fuzz-<target>-crash-*.
set -eu
fuzzer=$1
seeds=$2
secs=${3:-20}
name=$(basename "$fuzzer")
work=$(mktemp -d "${TMPDIR:-/tmp}/lt-fuzz-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
# libFuzzer's default exit code for a crash is 77, which meson reads as
# "skipped": a finding must fail the test.
"$fuzzer" -max_total_time="$secs" -runs=100000000 -timeout=10 \
	-error_exitcode=1 -timeout_exitcode=1 \
	-rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
	-artifact_prefix="$PWD/$name-" "$work" "$seeds"
