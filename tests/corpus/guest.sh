# shellcheck shell=bash
# Sourced by gen.sh and the corpus tests: the one way a corpus program is run.
#
# run_guest DIR PROG STDOUT ARGS_CSV [QEMU_OPTION...]: runs DIR/PROG under qemu-riscv64
# with argv[0] "./PROG", cwd DIR, arguments ARGS_CSV split at commas ("-" for none), a
# fixed environment, the riscv64 libraries for dynamic programs, a fixed AT_RANDOM seed, and stdout redirected to the file STDOUT.
# glibc's start-up code reads argv[0] and the environment, and stdio buffers differently
# for a terminal, so only runs started exactly this way execute the same PC sequence.
run_guest() {
	local dir=$1 prog=$2 stdout=$3 csv=$4 args=()
	shift 4
	if [ "$csv" != - ]; then
		IFS=, read -r -a args <<<"$csv"
	fi
	(cd "$dir" && env -i LC_ALL=C PATH=/usr/bin:/bin \
		"${QEMU_RISCV:-qemu-riscv64}" -L "${QEMU_LD_PREFIX:-/usr/riscv64-linux-gnu}" \
		-seed 1 "$@" "./$prog" "${args[@]}" >"$stdout")
}

# link_flags PROG_SRC_DIR: how the program is linked: -static, or, when its `link` file
# says "pie", position-independent and dynamic (gcc's default on Debian), so that the
# loader runs it at an address of its choosing with libc from the code map.
link_flags() {
	if [ "$(cat "$1/link" 2>/dev/null)" = pie ]; then
		echo -pie
	else
		echo -static
	fi
}

# args_csv PROG_SRC_DIR: prints the program's arguments (from its args file) as a
# comma-separated list, or "-" when it takes none.
args_csv() {
	local a
	if [ -s "$1/args" ]; then
		a=$(tr -s ' \n' ',,' <"$1/args")
		echo "${a%,}"
	else
		echo -
	fi
}
