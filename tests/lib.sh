# lib.sh — helpers for the shell tests; source it from the top of the tree
# first thing in a test.  It always defines the helpers below and notes the
# start of the test's span (for machine_busy).  With SUB set (the
# subcommand: fit, predict, ...) it also sets LC, tmp (lc_tmpdir) and the
# counters that finish reports.
#
# For every test:
#   lc_tmpdir                 make $tmp, a fresh directory removed at exit
#   skip NAME REASON          print "NAME: SKIP: REASON" and exit 77
#   skip_under_tsan NAME [WHY]  skip when the build has ThreadSanitizer
#                             (make check SAN=thread): WHY says why the test
#                             cannot judge under it (default: its sampled
#                             times, against exact ones, within tolerances)
#   machine_busy [ERR...]     whether the machine was measured too busy to
#                             judge a time or a share since the test began:
#                             record's stderr in ERR says the sampler fell
#                             behind (missed ticks), the 1-minute load of
#                             /proc/loadavg is over the CPUs, other processes
#                             took over a quarter of the CPUs, or steal over
#                             5 % of them (/proc/stat over the test's span);
#                             0 (busy) with $busy_reason naming the measures,
#                             else 1.  Ask it only when a judgment failed:
#                             the test then skips with that reason
#                             (skip_if_busy) instead of failing.
#   skip_if_busy NAME [ERR...]  machine_busy, and skip with its reason
#   unjudged WHAT [ERR...]    a judgment WHAT of a time or share failed:
#                             when machine_busy, print "busy  WHAT: ..."
#                             with the reason, count it in nbusy and return
#                             0, else return 1 (the caller fails it):
#                             unjudged "share" "$tmp/err" || fail "share"
#   not_judged WHAT REASON   count the judgment WHAT as not judged (nbusy)
#                             for the measured REASON, and say so: for a
#                             test that measures busyness its own way
#   end_unjudged NAME         when nothing failed (nfail 0) but a judgment
#                             was left unjudged, skip with the reason
#                             (finish does this for SUB tests)
#   ok WHAT                   print "ok    WHAT" and count it in ntest
#   fail WHAT                 print "FAIL  WHAT" and count it in nfail and
#                             ntest
#   status_ok WHAT ST FILE    ok WHAT when the exit status ST is 0, else
#                             fail it with ST, showing FILE (the output)
#   has_lines WHAT FILE PAT...  ok WHAT when FILE has a line matching every
#                             PAT (grep's basic regular expressions), else
#                             fail it naming the first missing PAT,
#                             showing FILE
#   fd_limited N CMD...       run CMD under "ulimit -n N" (soft and hard:
#                             CMD cannot raise it)
#   need_built NAME FILE [TARGET]  exit 1 with "NAME: FILE is missing (run
#                             make TARGET)" (default: workloads) unless
#                             FILE is an executable
#   need_preload NAME FILE... skip unless every FILE exists (the layer and
#                             the program it is preloaded into), and under
#                             the sanitizers (LC_SAN: the layer would be
#                             preloaded into sh, built without them, which
#                             cannot load their runtime); then lc_tmpdir
#   need_mpi NAME WHY FILE... skip with WHY (empty: MPICH is not installed)
#                             unless mpiexec runs and the MPI layer and
#                             every FILE exist; then lc_tmpdir, a config
#                             folder of the test's own (no LogGP model),
#                             LOSTCYCLES_LOGGP unset and TMPDIR=$tmp (what
#                             mpiexec leaves goes with $tmp)
#   mpi_job_test NAME PROG    for a test of whole MPI jobs: LC and APP
#                             (PROG) as absolute paths, need_mpi NAME with
#                             APP, then in $tmp
#   need_timed_workload NAME FILE  skip_under_tsan NAME, then need_built
#                             NAME FILE: a test that judges FILE's times
#   two_nodes PREFIX N OPTS_A OPTS_B  one MPI job of $APP 5 N on two "nodes"
#                             of two ranks (LOSTCYCLES_HOST nodeA, nodeB),
#                             each under "$LC exec -o PREFIX" with its OPTS:
#                             PREFIX.nodeA.data, PREFIX.nodeB.data; output
#                             in out and err, mpiexec's status returned
#   cat_ns FILE               "key ns" for every measured category and tt of
#                             the profile FILE (report's CSV, to the ns)
#
# With SUB set:
#   run ARGS...               run lostcycles ARGS; output in $tmp/out, status in $st
#   check NAME COND           the last run exited 0 and COND (eval'd) holds
#   refuse NAME ST PAT ARGS   lostcycles SUB ARGS exits ST with one stderr
#                             line "lostcycles SUB: ..." containing PAT (and
#                             at most indented lines under it)
#   verdict NAME ST FILE      show FILE indented, then NAME passes when ST is 0
#   gap_below NAME MS ERR     record's stderr in ERR names no tick gap of MS
#                             ms or more (it names its longest when it fell
#                             behind); a longer one on a machine measured
#                             too busy (load, others) is not judged
#   await_session PID ERR     set ses to the session of the recording PID
#                             as /dev/shm shows it to every user; when it
#                             never appears (5 s), fail showing ERR, finish
#   finish                    print the tally; exit status 1 if any failed

lc_tmpdir() {
	tmp=$(mktemp -d "/tmp/lc-$(basename "$0" .sh).XXXXXX") || exit 1
	trap 'rm -rf "$tmp"' EXIT
}

skip() {
	echo "$1: SKIP: $2"
	exit 77
}

skip_under_tsan() {
	case ${LC_SAN:-} in *thread*)
		skip "$1" "under SAN=thread: ${2:-$lc_tsan_why} (run it without SAN=thread)" ;;
	esac
}
lc_tsan_why="its sampled times are judged against the exact ones within tolerances that ThreadSanitizer, slowing the sampler and the program 5-15x, does not leave"

# lc_own: the CPU time in 1/100 s of this shell's children so far (those
# waited for).  times must run in this shell, with its output to a file: in
# a pipe or $(...) a forked subshell would report its own children (none).
lc_own_cs() {
	times >"${TMPDIR:-/tmp}/lc-times.$$"
	lc_own=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } }
		END { printf "%d", s * 100 }' "${TMPDIR:-/tmp}/lc-times.$$")
	rm -f "${TMPDIR:-/tmp}/lc-times.$$"
}

# "busy steal" jiffies of all CPUs from /proc/stat's cpu line.
lc_cpu_jiffies() {
	awk '$1 == "cpu" { printf "%d %d", $2 + $3 + $4 + $7 + $8 + $9, $9; exit }' /proc/stat
}

lc_span_t0=$(cut -d' ' -f1 /proc/uptime)
lc_span_cpu0=$(lc_cpu_jiffies)
lc_own_cs
lc_span_own0=$lc_own

machine_busy() {
	local f w n l secs hz
	busy_reason=""
	for f in "$@"; do
		[ -f "$f" ] || continue
		w=$(sed -n 's/.*the sampler fell behind: \(.*were missed\).*/\1/p' "$f" | head -n 1)
		[ -n "$w" ] || continue
		busy_reason="missed ticks: the sampler fell behind ($w, $(basename "$f"))"
		break
	done
	n=$(nproc)
	l=$(cut -d' ' -f1 /proc/loadavg)
	awk -v l="$l" -v n="$n" 'BEGIN { exit !(l > n) }' &&
		busy_reason="${busy_reason:+$busy_reason; }load: $l runnable on $n CPUs (/proc/loadavg)"
	secs=$(awk -v t0="$lc_span_t0" '{ printf "%.2f", $1 - t0 }' /proc/uptime)
	if awk -v s="$secs" 'BEGIN { exit !(s >= 1) }'; then
		hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
		lc_own_cs
		w=$(awk -v a="$lc_span_cpu0 $(lc_cpu_jiffies)" -v o0="$lc_span_own0" -v o1="$lc_own" \
			-v hz="$hz" -v n="$n" -v s="$secs" 'BEGIN {
			split(a, c, " "); all = n * s * hz
			others = (c[3] - c[1] - c[4] + c[2]) / hz - (o1 - o0) / 100
			steal = (c[4] - c[2]) / all
			# jiffies are coarse over a short span: no more than n CPUs
			if (others > 0.25 * n * s)
				printf "others: other processes used %.1f of %d CPUs over the test'"'"'s %.0f s (/proc/stat); ", (others / s > n ? n : others / s), n, s
			if (steal > 0.05)
				printf "steal: the hypervisor took %.0f %% of the CPUs over the test'"'"'s %.0f s (/proc/stat); ", 100 * steal, s
		}')
		[ -n "$w" ] && busy_reason="${busy_reason:+$busy_reason; }${w%; }"
	fi
	[ -n "$busy_reason" ]
}

skip_if_busy() {
	local who=$1
	shift
	machine_busy "$@" && skip "$who" "the machine was too busy to judge: $busy_reason"
}

nbusy=0
unjudged() {
	local what=$1
	shift
	machine_busy "$@" || return 1
	not_judged "$what" "$busy_reason"
}

not_judged() {
	nbusy=$((nbusy + 1))
	ntest=$((${ntest:-0} + 1))
	lc_unjudged="$1"
	lc_unjudged_why=$2
	echo "busy  $1: not judged, the machine was too busy: $2"
}

end_unjudged() {
	[ "${nfail:-0}" -eq 0 ] && [ "$nbusy" -gt 0 ] &&
		skip "$1" "the machine was too busy to judge $nbusy check(s) ($lc_unjudged): $lc_unjudged_why"
	return 0
}

# lfield KEY FILE: the number after KEY= in a line of FILE (a -l line:
# 2.4e-05 whole, "na" as it is)
lfield() { sed -n "s/.*[ ^]$1=\([0-9.naeE+-]*\).*/\1/p" "$2" | head -1; }

# hogs: start two CPU-bound processes beside the test (their pids in h1,
# h2); unhog ends them, by pid.  A test that calls hogs ends them in its
# EXIT trap too.
hogs() {
	sh -c 'while :; do :; done' & h1=$!
	sh -c 'while :; do :; done' & h2=$!
}

unhog() {
	kill "$h1" "$h2" 2>/dev/null
	wait "$h1" "$h2" 2>/dev/null
	h1= h2=
}

# hogs_trap: end the hogs (and remove $tmp) however the test ends.
hogs_trap() {
	h1= h2=
	trap 'for h in $h1 $h2; do kill "$h" 2>/dev/null; done; rm -rf "$tmp"' EXIT INT TERM
}

nfail=0
ntest=0
ok() { ntest=$((ntest + 1)); echo "ok    $*"; }
fail() { ntest=$((ntest + 1)); nfail=$((nfail + 1)); echo "FAIL  $*"; }

status_ok() {
	if [ "$2" -eq 0 ]; then
		ok "$1"
	else
		fail "$1: exit status $2"; sed 's/^/      /' "$3"
	fi
}

has_lines() {
	local what=$1 file=$2 pat
	shift 2
	for pat in "$@"; do
		grep -q -- "$pat" "$file" && continue
		fail "$what: no line matches '$pat':"; sed 's/^/      /' "$file"
		return 1
	done
	ok "$what"
}

fd_limited() {
	local n=$1
	shift
	sh -c 'ulimit -n "$0" && exec "$@"' "$n" "$@"
}

need_built() {
	[ -x "$2" ] || { echo "$1: $2 is missing (run make ${3:-workloads})" >&2; exit 1; }
}

need_preload() {
	_name=$1
	shift
	[ -z "${LC_SAN:-}" ] || skip "$_name" "under SAN=$LC_SAN the layer is preloaded into programs built without the sanitizers (sh, a launcher), which cannot load their runtime"
	for _f in "$@"; do
		[ -e "$_f" ] || skip "$_name" "no $_f (make workloads)"
	done
	lc_tmpdir
}

need_mpi() {
	_name=$1 _why=${2:-"MPICH is not installed (mpiexec, mpicc: apt-get install mpich libmpich-dev)"}
	shift 2
	command -v mpiexec >/dev/null 2>&1 || skip "$_name" "$_why"
	for _f in build/liblostcycles-mpi.so "$@"; do
		[ -e "$_f" ] || skip "$_name" "$_why"
	done
	lc_tmpdir
	export XDG_CONFIG_HOME="$tmp/config"
	unset LOSTCYCLES_LOGGP
	export TMPDIR="$tmp"
}

mpi_job_test() {
	LC=$(pwd)/lostcycles
	APP=$(pwd)/$2
	need_mpi "$1" "" "$APP"
	cd "$tmp" || exit 1
}

need_timed_workload() {
	skip_under_tsan "$1"
	need_built "$1" "$2"
}

two_nodes() {
	mpiexec -n 2 -env LOSTCYCLES_HOST nodeA "$LC" exec -o "$1" $3 -- "$APP" 5 "$2" : \
		-n 2 -env LOSTCYCLES_HOST nodeB "$LC" exec -o "$1" $4 -- "$APP" 5 "$2" >out 2>err
}

cat_ns() {
	"$LC" report --format csv "$1" |
		awk -F, '$5 == 1 && $1 != "p" && $1 != "wall" && $1 != "qe" { printf "%s %.0f\n", $1, $3 * 1e9 }'
}

[ -n "${SUB:-}" ] || return 0
LC=./lostcycles
[ -x "$LC" ] || { echo "t_$SUB: $LC is missing (run make)" >&2; exit 1; }
lc_tmpdir

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
		# the gap is what is judged: busy by load and others' CPU time
		unjudged "$1: longest tick gap $gap ms (want < $2 ms)" ||
			{ fail "$1: longest tick gap $gap ms:"; sed 's/^/      /' "$3"; }
	fi
}

await_session() {
	ses=
	for _i in $(seq 1 100); do
		ses=$(ls /dev/shm 2>/dev/null |
			sed -n "s/^lostcycles\.\(lc$1-[0-9a-f]*\)\..*/\1/p" | head -n 1)
		[ -n "$ses" ] && return 0
		sleep 0.05
	done
	wait "$1"
	fail "the recording's segment never appeared in /dev/shm"; cat "$2"
	finish
	exit 1
}

finish() {
	if [ "$nbusy" -gt 0 ]; then
		echo "t_$SUB: $((ntest - nfail - nbusy))/$ntest passed, $nbusy not judged"
	else
		echo "t_$SUB: $((ntest - nfail))/$ntest passed"
	fi
	end_unjudged "t_$SUB"
	[ "$nfail" -eq 0 ]
}
