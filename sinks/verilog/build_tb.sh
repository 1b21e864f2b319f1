#!/bin/sh
# build_tb.sh OUT MDIR BytePrinter.sv tb_main.cpp LIBLTPIPE_DPI_A
# Verilates BytePrinter.sv with the C++ testbench into OUT (meson's
# verilator_tb target). The C side (ltpipe_dpi.c + libltpipe-sink) comes
# prebuilt as one static archive, so only Verilator's C++ is compiled here.
set -eu
out=$(realpath -m "$1")
mdir=$(realpath -m "$2")
sv=$(realpath "$3")
cpp=$(realpath "$4")
lib=$(realpath "$5")
mkdir -p "$mdir"
if ! verilator --cc --exe --build -j 2 -Wall -Wno-DECLFILENAME \
	-Wno-UNUSEDSIGNAL --Mdir "$mdir" --top-module BytePrinter -o Vtb \
	-CFLAGS -O1 "$sv" "$cpp" -LDFLAGS "$lib -lzstd" >"$mdir/build.log" 2>&1
then
	cat "$mdir/build.log" >&2
	exit 1
fi
cp "$mdir/Vtb" "$out"
