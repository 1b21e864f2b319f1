#!/bin/sh
# Regenerates the bundled sample (sample.elf + sample.lt) with the QEMU
# plugin: sh tests/sample/make-sample.sh build/sinks/qemu/libltpipe-qemu.so
set -e
cd "$(dirname "$0")"
riscv64-linux-gnu-gcc -O2 -g -static -o sample.elf sample.c
env -i qemu-riscv64 -plugin "$1,out=sample.lt,mode=bt" ./sample.elf
