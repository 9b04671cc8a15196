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

# g NAME KEY: a value of run $out/NAME's guest result line; a per-channel
# one (a list in summary.json) as v0,v1,...; empty when absent.
g() {
	jq -r ".counts.guest.$2 // empty | if type == \"array\" then map(tostring) | join(\",\") else . end" \
		"$out/$1/summary.json"
}

# dyn_run NAME CMDLINE [run options]: run the scenario into $out/NAME on
# the dyn kernel booted with preempt=full CMDLINE; it must end with exit
# status 0 (or one of $dyn_run_ok, e.g. "0 3").
dyn_run() {
	local name=$1 cmdline=$2 status=0
	shift 2
	"$irqstorm" run "$scenario" --out "$out/$name" --quiet "$@" --set kernel.flavour=dyn \
		--set "kernel.cmdline=preempt=full $cmdline" || status=$?
	case " ${dyn_run_ok:-0} " in
	*" $status "*) ;;
	*) cat "$out/$name/INCOMPLETE" >&2 2>/dev/null || true
	   fail "$name: exit status $status" ;;
	esac
}
