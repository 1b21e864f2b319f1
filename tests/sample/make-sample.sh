#!/bin/sh
# Regenerates the bundled sample with the QEMU plugin:
#   sh tests/sample/make-sample.sh build/sinks/qemu/libltpipe-qemu.so
# sample.elf is built with -ftest-coverage (sample.gcno, for the gcda
# receiver; it does not change the code) and traced in BT mode.
set -e
cd "$(dirname "$0")"
riscv64-linux-gnu-gcc -O2 -g -ftest-coverage -fno-partial-inlining \
	-c sample.c -o sample.o
riscv64-linux-gnu-gcc -static -o sample.elf sample.o
rm -f sample.o
env -i qemu-riscv64 -plugin "$1,out=sample.lt,mode=bt" ./sample.elf
