# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the e2e scripts: source it, then call e2e_init "$@".
#   e2e_init IRQSTORM SCENARIO [run options]
# sets $irqstorm, $scenario, $extra (the run options, an array) and $out,
# a temporary directory removed on exit.

e2e_init() {
	irqstorm=$1
	scenario=$2
	shift 2
	extra=("$@")
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
