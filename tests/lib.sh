# lib.sh — helpers for the shell tests of one subcommand.  Source it after
# setting SUB (the subcommand: fit, predict, ...); it sets LC, tmp (removed
# at exit), and the counters that finish reports.
#
#   run ARGS...               run lostcycles ARGS; output in $tmp/out, status in $st
#   check NAME COND           the last run exited 0 and COND (eval'd) holds
#   refuse NAME ST PAT ARGS   lostcycles SUB ARGS exits ST with one stderr
#                             line "lostcycles SUB: ..." containing PAT (and
#                             at most indented lines under it)
#   verdict NAME ST FILE      show FILE indented, then NAME passes when ST is 0
#   gap_below NAME MS ERR     record's stderr in ERR names no tick gap of MS
#                             ms or more (it names its longest when it fell
#                             behind)
#   finish                    print the tally; exit status 1 if any failed
LC=./lostcycles
[ -x "$LC" ] || { echo "t_$SUB: $LC is missing (run make)" >&2; exit 1; }
tmp=$(mktemp -d "/tmp/lc-t_$SUB.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
nfail=0
ntest=0

ok() { ntest=$((ntest + 1)); echo "ok    $*"; }
fail() { ntest=$((ntest + 1)); nfail=$((nfail + 1)); echo "FAIL  $*"; }

run() {
	"$LC" "$@" >"$tmp/out" 2>&1
	st=$?
}

check() {
	name=$1; shift
	if [ "$st" -ne 0 ]; then
		fail "$name: exit status $st"; sed 's/^/      /' "$tmp/out"; return
	fi
	if eval "$@"; then ok "$name"; else fail "$name"; sed 's/^/      /' "$tmp/out"; fi
}

refuse() {
	name=$1; want=$2; pat=$3; shift 3
	"$LC" "$SUB" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -ne "$want" ]; then
		fail "$name: exit status $st, want $want"; sed 's/^/      /' "$tmp/err"; return
	fi
	if ! grep -qF -- "$pat" "$tmp/err"; then
		fail "$name: stderr lacks '$pat':"; sed 's/^/      /' "$tmp/err"; return
	fi
	# one message line; only indented lines (a caret under a formula) follow
	if [ "$(grep -c '^[^[:space:]]' "$tmp/err")" -ne 1 ] ||
	   [ "$(grep -c "^lostcycles $SUB:" "$tmp/err")" -ne 1 ]; then
		fail "$name: not one 'lostcycles $SUB:' line:"; sed 's/^/      /' "$tmp/err"; return
	fi
	ok "$name"
}

verdict() {
	sed 's/^/  /' "$3"
	if [ "$2" -eq 0 ]; then ok "$1"; else fail "$1"; fi
}

gap_below() {
	gap=$(sed -n 's/.*longest tick gap was \([0-9.]*\) ms.*/\1/p' "$3")
	if awk -v g="${gap:-0}" -v m="$2" 'BEGIN { exit !(g < m) }'; then
		ok "$1: longest tick gap ${gap:-under 10 intervals} ms"
	else
		fail "$1: longest tick gap $gap ms:"; sed 's/^/      /' "$3"
	fi
}

finish() {
	echo "t_$SUB: $((ntest - nfail))/$ntest passed"
	[ "$nfail" -eq 0 ]
}
