#!/bin/sh
# Configures (once) and builds ltpipe into ./build. Used by the demo and the
# test command; safe to run repeatedly. Quiet unless something fails.
set -e
cd "$(dirname "$0")/.."
sh scripts/bootstrap.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [ ! -f build/build.ninja ]; then
	if ! meson setup build --buildtype=debugoptimized >"$log" 2>&1; then
		cat "$log" >&2
		echo "build.sh: meson setup failed" >&2
		exit 1
	fi
fi
if ! ninja -C build >"$log" 2>&1; then
	cat "$log" >&2
	echo "build.sh: build failed" >&2
	exit 1
fi
