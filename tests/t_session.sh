#!/bin/sh
# t_session.sh — the processes of a session beyond the command itself:
#   - a launcher that the program replaces by exec() (a launch script): the
#     program goes on in the launcher's segment, so the profile has one row
#     per thread, not a second row with the same pid and tid;
#   - a background child that outlives the command: record waits for it,
#     says so, and its computation is in the profile;
#   - --no-wait: record ends with the command and says how many processes
#     it left running;
#   - a segment name left by a process killed with SIGKILL (no destructor
#     ran) is removed by the next process of any session that starts;
#   - the caller's LD_PRELOAD is not loaded into the sampling process
#     (record's /proc/PID/maps), and the command still gets it.
# Runs the pthread layer (LD_PRELOAD) and tests/layers/pt_start.c.  Run from
# the top of the tree (make check does).
. tests/lib.sh
set -u
LC=./lostcycles
WL=build/layers/pt_start
need_preload t_session "$WL" build/liblostcycles-pthread.so
unset LD_PRELOAD LOSTCYCLES_SESSION
now() { date +%s.%N; }

# A launcher that uses a pthread lock (so the pthread layer registers it,
# as it would an interpreter) and then execs its arguments.
cat >"$tmp/launch.c" <<'C'
#include <pthread.h>
#include <unistd.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(int argc, char **argv)
{
	(void)argc;
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
	execv(argv[1], argv + 1);
	return 127;
}
C
cc -o "$tmp/launch" "$tmp/launch.c" -pthread || skip t_session "no C compiler for the launcher"

# 1. exec: every (pid, tid) has one row
"$LC" record --force --pthread -q -o "$tmp/x.data" -- "$tmp/launch" "$WL" 0.3 >/dev/null 2>"$tmp/x.err"
"$LC" report -f "$tmp/x.data" --per-thread 2>/dev/null >"$tmp/x.rep"
sed -n '/per thread/,$p' "$tmp/x.rep" | sed 's/^/      /'
rows=$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/' "$tmp/x.rep" | wc -l)
dups=$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { print $1, $2 }' "$tmp/x.rep" | sort | uniq -d | wc -l)
if [ "$rows" -eq 3 ] && [ "$dups" -eq 0 ]; then
	ok "an exec'd launcher: one row per thread ($rows rows)"
else
	fail "an exec'd launcher: $rows thread rows, $dups (pid, tid) pairs twice"
fi

# 2. a background child outliving the command: waited for, and profiled
t0=$(now)
"$LC" record --force --pthread -o "$tmp/b.data" -- sh -c "$WL 1.0 >$tmp/b.out &" 2>"$tmp/b.err"
t1=$(now)
"$LC" report -f "$tmp/b.data" -l >"$tmp/b.l" 2>/dev/null
sed 's/^/      /' "$tmp/b.err" "$tmp/b.out" "$tmp/b.l"
# (the child's main thread computes SERIAL s, then its two threads 0.3 s
# each; record must have lasted the child's wall time)
if grep -q "waiting for 1 process of the session" "$tmp/b.err" &&
   awk -v a="$t0" -v b="$t1" -v l="$(cat "$tmp/b.l")" -v s="$(sed -n 's/.* serial=\([0-9.]*\).*/\1/p' "$tmp/b.out")" \
	-v w="$(sed -n 's/.* wall=\([0-9.]*\).*/\1/p' "$tmp/b.out")" 'BEGIN {
	n = split(l, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], x, "="); v[x[1]] = x[2] }
	c = v["rt"] + v["rc"]
	printf "      record took %.2f s (the child %.2f s); the child computed %.3f s (rt + rc), %.3f s measured\n", b - a, w, c, s + 0.6
	exit !(s > 0 && b - a >= w && c >= 0.9 * (s + 0.6)) }'; then
	ok "a background child: record waits for it and profiles it"
elif ! grep -q "waiting for 1 process of the session" "$tmp/b.err"; then
	fail "a background child: not waited for"
else
	unjudged "a background child's computation" "$tmp/b.err" ||
		fail "a background child: its computation is not in the profile"
fi

# 3. --no-wait: record ends with the command and says what it left
t0=$(now)
"$LC" record --force --pthread --no-wait -o "$tmp/n.data" -- \
	sh -c "$WL 1.0 >$tmp/n.out & echo \$! >$tmp/n.pid" 2>"$tmp/n.err"
t1=$(now)
sed 's/^/      /' "$tmp/n.err"
if grep -q -- "--no-wait: left 1 process of the session running" "$tmp/n.err" &&
   awk -v a="$t0" -v b="$t1" 'BEGIN { printf "      record took %.2f s\n", b - a; exit !(b - a < 1.0) }'; then
	ok "--no-wait: ends with the command, says it left 1 process"
elif ! grep -q -- "--no-wait: left 1 process of the session running" "$tmp/n.err"; then
	fail "--no-wait: did not say what it left"
else
	unjudged "--no-wait: how long record took" "$tmp/n.err" ||
		fail "--no-wait: did not end with the command"
fi
pid=$(cat "$tmp/n.pid" 2>/dev/null)

# 4. a process killed by SIGKILL leaves its name; the next one removes it
if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
	alive=$(ls /dev/shm | grep -c "^lostcycles\..*\.$pid\.")
	kill -9 "$pid"
	sleep 0.2
	before=$(ls /dev/shm | grep -c "^lostcycles\..*\.$pid\.")
	"$LC" record --force --pthread -q -o "$tmp/r.data" -- "$WL" 0 >/dev/null 2>&1
	after=$(ls /dev/shm | grep -c "^lostcycles\..*\.$pid\.")
	echo "      names of the killed process $pid: $before before, $after after the next session"
	if [ "$before" -ge 1 ] && [ "$after" -eq 0 ]; then
		ok "the name a killed process left is removed"
	elif [ "$alive" -ge 1 ] && [ "$before" -eq 0 ]; then
		# another session started on this machine in those 0.2 s and
		# removed it first: that is the rule at work, but not this test's
		echo "NOTE: t_session: another session on this machine removed the killed process's name first: the stale-name check is left out"
	else
		fail "the name a killed process left is still there ($before before, $after after)"
	fi
else
	echo "NOTE: t_session: the background process had ended before it could be killed: the stale-name check is left out"
fi

# 5. the caller's LD_PRELOAD: not in the tool's process, still in the command's
printf 'void lc_t_session_mark(void) {}\n' >"$tmp/mark.c"
if cc -shared -fPIC -o "$tmp/mark.so" "$tmp/mark.c"; then
	LD_PRELOAD="$tmp/mark.so" "$LC" record -q --force -o "$tmp/p.data" -- \
		sh -c 'echo "$(grep -c mark.so /proc/$PPID/maps) $LD_PRELOAD"' >"$tmp/p.out" 2>&1
	echo "      tool's mappings of mark.so, command's LD_PRELOAD: $(cat "$tmp/p.out")"
	if [ "$(cat "$tmp/p.out")" = "0 $tmp/mark.so" ]; then
		ok "the caller's LD_PRELOAD goes to the command, not into the tool"
	else
		fail "the caller's LD_PRELOAD: $(cat "$tmp/p.out")"
	fi
fi

[ "$nfail" -eq 0 ] || { echo "t_session: $nfail failed"; exit 1; }
end_unjudged t_session
echo "t_session: all passed"
