# shellcheck shell=bash
# Sourced by gen.sh and the corpus tests: the one way a corpus program is run.
#
# run_guest DIR PROG STDOUT ARGS_CSV [QEMU_OPTION...]: runs DIR/PROG under qemu-riscv64
# with argv[0] "./PROG", cwd DIR, arguments ARGS_CSV split at commas ("-" for none), a
# fixed environment and a fixed AT_RANDOM seed, and stdout redirected to the file STDOUT.
# glibc's start-up code reads argv[0] and the environment, and stdio buffers differently
# for a terminal, so only runs started exactly this way execute the same PC sequence.
run_guest() {
	local dir=$1 prog=$2 stdout=$3 csv=$4 args=()
	shift 4
	if [ "$csv" != - ]; then
		IFS=, read -r -a args <<<"$csv"
	fi
	(cd "$dir" && env -i LC_ALL=C PATH=/usr/bin:/bin \
		"${QEMU_RISCV:-qemu-riscv64}" -seed 1 "$@" "./$prog" "${args[@]}" >"$stdout")
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
