# shellcheck shell=bash
# Helpers shared by the test-data generators (tests/corpus/gen.sh,
# tests/baremetal/gen.sh). Set gen_name before sourcing.

# die MESSAGE...: prints "<gen_name>: MESSAGE" on stderr and exits 1.
die() {
	echo "${gen_name:-gen.sh}: $*" >&2
	exit 1
}

# up_to_date OUT INPUT...: true when OUT exists and is newer than every INPUT.
up_to_date() {
	local out=$1 f
	shift
	[ -e "$out" ] || return 1
	for f in "$@"; do
		[ "$out" -nt "$f" ] || return 1
	done
}
