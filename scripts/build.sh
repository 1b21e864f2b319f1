#!/bin/sh
# Configures (once) and builds ltpipe into ./build. Used by the demo and the
# test command; safe to run repeatedly.
set -e
cd "$(dirname "$0")/.."
sh scripts/bootstrap.sh
if [ ! -f build/build.ninja ]; then
	meson setup build --buildtype=debugoptimized >/dev/null
fi
ninja -C build >/dev/null
