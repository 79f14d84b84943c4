#!/bin/sh
# check-loaded.sh — run "make check" beside CPU-bound processes, as on a
# shared machine: the suite must end with 0 failed, every test that cannot
# judge on a machine this busy skipping with its reason.
#
#   sh scripts/check-loaded.sh [-n HOGS] [MAKE ARGS...]
#
# Starts HOGS (default 2) busy loops, records their pids, runs make check
# with MAKE ARGS, and stops exactly those pids when it ends (also on ^C).
# Prints the load before and after, the time taken and the suite's closing
# line; exits with make check's status.
set -u
hogs=2
if [ "${1:-}" = "-n" ]; then
	case ${2:-} in
	''|*[!0-9]*) echo "check-loaded.sh: -n needs a number of processes" >&2; exit 2 ;;
	esac
	hogs=$2
	shift 2
fi
pids=""

stop_hogs() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	for p in $pids; do
		wait "$p" 2>/dev/null
	done
	pids=""
}
trap 'stop_hogs' EXIT
trap 'stop_hogs; exit 130' INT
trap 'stop_hogs; exit 143' TERM

i=0
while [ "$i" -lt "$hogs" ]; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
echo "check-loaded: $hogs CPU-bound processes (pids$pids) on $(nproc) CPUs"
echo "check-loaded: load before: $(cut -d' ' -f1-3 /proc/loadavg)"
log=$(mktemp "${TMPDIR:-/tmp}/check-loaded.XXXXXX") || exit 1
start=$(date +%s)
# make's status through the pipe to tee: written to the log's last line
{ make check "$@" 2>&1; echo "check-loaded-status $?"; } | tee "$log" | grep --line-buffered -v '^check-loaded-status '
st=$(sed -n 's/^check-loaded-status //p' "$log")
secs=$(( $(date +%s) - start ))
stop_hogs
echo "check-loaded: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "check-loaded: make check took $((secs / 60)) min $((secs % 60)) s beside $hogs CPU-bound processes"
grep '^  SKIP' "$log" | sed 's/^/check-loaded: /'
grep -E '^[0-9]+ passed, ' "$log" | tail -n 1 | sed 's/^/check-loaded: /'
rm -f "$log"
[ "${st:-1}" = 0 ]
