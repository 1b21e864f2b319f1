#!/bin/sh
# Installs every Debian 12 package that the build, the tests and the demo need.
# Idempotent: prints nothing and installs nothing when all is there.
set -e
PKGS="build-essential meson ninja-build pkg-config python3 libelf-dev libdwarf-dev
libzstd-dev libev-dev libcapstone-dev zstd gcc-riscv64-linux-gnu libc6-dev-riscv64-cross
binutils-riscv64-linux-gnu qemu-user qemu-system-misc gcc-riscv64-unknown-elf
picolibc-riscv64-unknown-elf verilator autofdo llvm clang libclang-rt-14-dev time"
missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
echo "bootstrap: installing:$missing" >&2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
