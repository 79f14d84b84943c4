#!/bin/sh
# t_waitcpu.sh — waiting for a CPU is resource contention, and p is the most
# threads that could run at once, on unmodified programs:
#   - a balanced OpenMP program (tests/layers/omp_waitcpu.c: equal
#     iterations per thread, a barrier per region; record --omp) beside two
#     CPU-bound processes this test starts: load imbalance + synchronization
#     loss stay within 10 % of the total time, and resource contention
#     carries the rest of what the program did not compute;
#   - a pigz-shaped pthread program (tests/layers/pt_pigz.c: compressors fed
#     through a condition-variable queue by a reader, a writer waiting for
#     results, no team declared; record --pthread): p is the compressors that
#     could run (at most the CPUs allowed), record and report say which rule
#     chose p, SL stays within 5 % of the total time, and computation is the
#     compressors' own CPU time (CLOCK_THREAD_CPUTIME_ID) within 5 %;
#   - report --source trace of a run with run-queue time: RC is measured
#     from the same scheduler data as the sampled profile (within 5 % of the
#     total time of it), never 0; with --sched=none it is na with the reason;
#   - where the wake-up tracepoint cannot be opened (an unprivileged user),
#     the wake-ups come from schedstat, the report says so and why, and the
#     pigz-shaped program's SL stays within 5 % of the total time.
# A run in which the machine was too busy to judge exits 77 with the figure:
# the sampler missed more than a fifth of its ticks, or the program's
# threads got less than a fifth of their CPUs (beside the two CPU-bound
# processes alone they get half: less means other programs crowd the
# machine, every thread waits many time slices for its turn, and the time
# a thread waits for a partner that waits for a CPU, which stays LI or SL,
# grows with the crowd).  Run from the top of the tree.
set -u
SUB=waitcpu
. tests/lib.sh
skip_under_tsan t_waitcpu
OMP=build/layers/omp_waitcpu
PIGZ=build/layers/pt_pigz
hogs_trap
need_built t_waitcpu "$PIGZ"
ncpu=$(nproc)
skipped=


# too_busy ERR CPU P WALL: the reason the machine was too busy to judge a
# run (record's stderr in ERR; the program's CPU seconds, p, wall), or ""
too_busy() {
	miss=$(sed -n 's/.*and \([0-9]*\) ticks (\([0-9.]*\) %) were missed.*/\2/p' "$1" | head -1)
	awk -v m="${miss:-0}" -v c="$2" -v p="$3" -v w="$4" 'BEGIN {
		if (m > 20) { printf "the sampler missed %s %% of its ticks", m; exit }
		if (c < 0.2 * p * w) printf "the program got %.1f %% of its %d CPUs", 100 * c / (p * w), p
	}'
}


# ---- a balanced OpenMP program beside two CPU-bound processes -------------
if [ -n "${LC_SAN:-}" ]; then
	echo "skip  OpenMP beside two CPU-bound processes: under SAN=$LC_SAN the OpenMP program and the OMPT tool are built by clang, whose sanitizer runtime cannot share a process with GCC's in liblostcycles"
elif [ -x "$OMP" ] && [ -e build/liblostcycles-omp.so ]; then
	hogs
	OMP_NUM_THREADS=2 "$LC" record --force --omp -o "$tmp/omp.data" -- "$OMP" 8 150 \
		>"$tmp/omp.out" 2>"$tmp/omp.err"
	st=$?
	unhog
	"$LC" report -l "$tmp/omp.data" >"$tmp/omp.l" 2>/dev/null
	cpu=$(sed -n 's/.* cpu=\([0-9.]*\).*/\1/p' "$tmp/omp.out")
	wall=$(sed -n 's/.* wall=\([0-9.]*\).*/\1/p' "$tmp/omp.out")
	why=$(too_busy "$tmp/omp.err" "${cpu:-0}" 2 "${wall:-1}")
	if [ "$st" -ne 0 ] || [ -z "$cpu" ]; then
		fail "OpenMP beside two CPU-bound processes: record exited $st"; cat "$tmp/omp.err"
	elif [ -n "$why" ]; then
		echo "skip  OpenMP beside two CPU-bound processes: the machine was too busy to judge: $why"
		skipped="$skipped omp"
	else
		tt=$(lfield tt "$tmp/omp.l") li=$(lfield li "$tmp/omp.l") sl=$(lfield sl "$tmp/omp.l")
		rc=$(lfield rc "$tmp/omp.l") rt=$(lfield rt "$tmp/omp.l") ip=$(lfield ip "$tmp/omp.l")
		echo "  tt $tt: li $li sl $sl rc $rc rt $rt ip $ip (threads' CPU $cpu s, wall $wall s)"
		if awk -v tt="$tt" -v li="$li" -v sl="$sl" -v rc="$rc" -v rt="$rt" -v ip="$ip" 'BEGIN {
			exit !(li + sl <= 0.10 * tt && rc >= tt - rt - ip - 0.10 * tt) }'; then
			ok "OpenMP beside two CPU-bound processes: LI + SL <= 10 % of total, RC carries the rest"
		else
			unjudged "OpenMP beside two CPU-bound processes: LI + SL" "$tmp/omp.err" ||
				fail "OpenMP beside two CPU-bound processes: LI + SL > 10 % of total, or RC short"
			cat "$tmp/omp.l"
		fi
	fi
else
	echo "skip  OpenMP beside two CPU-bound processes: no OpenMP layer or program (clang, libomp-dev)"
fi

# ---- a pigz-shaped pthread program ---------------------------------------
want=2
[ "$ncpu" -lt 2 ] && want=$ncpu
"$LC" record --force --pthread -o "$tmp/pz.data" -- "$PIGZ" 2 300 >"$tmp/pz.out" 2>"$tmp/pz.err"
st=$?
"$LC" report "$tmp/pz.data" >"$tmp/pz.rep" 2>/dev/null
"$LC" report -l "$tmp/pz.data" >"$tmp/pz.l" 2>/dev/null
cpu=$(sed -n 's/.* cpu=\([0-9.]*\).*/\1/p' "$tmp/pz.out")
wall=$(sed -n 's/.* wall=\([0-9.]*\).*/\1/p' "$tmp/pz.out")
why=$(too_busy "$tmp/pz.err" "${cpu:-0}" "$want" "${wall:-1}")
if [ "$st" -ne 0 ] || [ -z "$cpu" ]; then
	fail "pigz-shaped program: record exited $st"; cat "$tmp/pz.err"
else
	tt=$(lfield tt "$tmp/pz.l") sl=$(lfield sl "$tmp/pz.l") rt=$(lfield rt "$tmp/pz.l")
	p=$(sed -n 's/^p=\([0-9]*\) .*/\1/p' "$tmp/pz.l")
	echo "  p $p: tt $tt sl $sl rt $rt (compressors' CPU $cpu s, wall $wall s)"
	if [ "$p" = "$want" ] && grep -q "p = $want (most runnable at once.*4 threads existed" "$tmp/pz.err" &&
	   grep -q "processors: $want (most runnable at once.*4 threads existed" "$tmp/pz.rep"; then
		ok "pigz-shaped program: p = $want, the compressors that could run; record and report say why"
	else
		fail "pigz-shaped program: p = $p, want $want, with the rule named"
		grep "p = " "$tmp/pz.err"; grep processors "$tmp/pz.rep"
	fi
	if [ -n "$why" ]; then
		echo "skip  pigz-shaped program: SL and computation not judged: the machine was too busy: $why"
		skipped="$skipped pigz"
	else
		# (a lock holder or the reader preempted by other programs
		# makes its partners wait: SL that grows with the crowd)
		if awk -v tt="$tt" -v sl="$sl" 'BEGIN { exit !(sl <= 0.05 * tt) }'; then
			ok "pigz-shaped program: SL <= 5 % of total"
		else
			unjudged "pigz-shaped program: SL $sl of $tt" "$tmp/pz.err" ||
				fail "pigz-shaped program: SL $sl > 5 % of total $tt"
		fi
		if awk -v rt="$rt" -v c="$cpu" 'BEGIN { d = rt - c; if (d < 0) d = -d; exit !(d <= 0.05 * c) }'; then
			ok "pigz-shaped program: computation = the compressors' CPU time within 5 %"
		else
			unjudged "pigz-shaped program: computation $rt, CPU $cpu" "$tmp/pz.err" ||
				fail "pigz-shaped program: computation $rt, the compressors' CPU time $cpu"
		fi
	fi
fi

# ---- trace mode measures RC from the same scheduler data ------------------
# three compressors on at most two CPUs (and the hogs) wait for CPUs
hogs
"$LC" record --force --trace --pthread -o "$tmp/tr.data" -- "$PIGZ" 3 120 >"$tmp/tr.out" 2>"$tmp/tr.err"
st=$?
unhog
"$LC" report -l "$tmp/tr.data" >"$tmp/tr.s" 2>/dev/null
"$LC" report -l --source trace "$tmp/tr.data" >"$tmp/tr.t" 2>/dev/null
"$LC" report --source trace "$tmp/tr.data" >"$tmp/tr.rep" 2>/dev/null
rs=$(lfield rc "$tmp/tr.s") rtr=$(lfield rc "$tmp/tr.t") tt=$(lfield tt "$tmp/tr.t")
echo "  RC sampled $rs, trace $rtr of $tt"
if [ "$st" -eq 0 ] && awk -v a="$rs" -v b="$rtr" -v tt="$tt" 'BEGIN {
	d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.05 * tt) }' &&
   grep -q "Resource Contention: .*\(context-switch records\|schedstat\)" "$tmp/tr.rep"; then
	ok "report --source trace: RC measured from the scheduler's data, as the sampled profile's"
else
	fail "report --source trace: RC $rtr, sampled $rs"; cat "$tmp/tr.err" "$tmp/tr.rep"
fi
"$LC" record --force -q --trace --sched=none --pthread -o "$tmp/tn.data" -- "$PIGZ" 3 40 >/dev/null 2>&1
run report --source trace "$tmp/tn.data"
check "report --source trace --sched=none: RC na with the reason, not 0" \
	'grep -q "Resource Contention *na .*sched=none" "$tmp/out"'

# ---- without the tracepoint: wake-ups from schedstat, and the reason ------
# (as an unprivileged user tracefs cannot be mounted nor system-wide
# tracepoints opened)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	u=$(mktemp -d) && chmod 777 "$u"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LC" record -q --pthread -o "$u/u.data" \
		-- "$PIGZ" 2 150 >"$tmp/u.out" 2>"$tmp/u.err"
	"$LC" report "$u/u.data" >"$tmp/u.rep" 2>/dev/null
	"$LC" report -l "$u/u.data" >"$tmp/u.l" 2>/dev/null
	rm -rf "$u"
	tt=$(lfield tt "$tmp/u.l") sl=$(lfield sl "$tmp/u.l")
	cpu=$(sed -n 's/.* cpu=\([0-9.]*\).*/\1/p' "$tmp/u.out")
	wall=$(sed -n 's/.* wall=\([0-9.]*\).*/\1/p' "$tmp/u.out")
	why=$(too_busy "$tmp/u.err" "${cpu:-0}" "$want" "${wall:-1}")
	echo "  unprivileged: tt $tt sl $sl"
	[ -n "$why" ] && echo "  (SL not judged: the machine was too busy: $why)" && sl=0
	if grep -q "schedstat run delay for wake-ups (the sched_wakeup tracepoint: ..*)" "$tmp/u.rep" &&
	   awk -v tt="$tt" -v sl="$sl" 'BEGIN { exit !(tt > 0 && sl <= 0.05 * tt) }'; then
		ok "without the tracepoint: wake-ups from schedstat, the reason said, SL <= 5 % of total"
	elif grep -q "schedstat run delay for wake-ups (the sched_wakeup tracepoint: ..*)" "$tmp/u.rep" &&
	     unjudged "without the tracepoint: SL $sl of $tt" "$tmp/u.err"; then
		:
	else
		fail "without the tracepoint"; cat "$tmp/u.err" "$tmp/u.rep"
	fi
else
	echo "skip  without the tracepoint: needs root and setpriv to run as another user"
fi

if [ -n "$skipped" ] && [ "$nfail" -eq 0 ]; then
	finish
	echo "t_waitcpu: SKIP: the machine was too busy to judge:$skipped"
	exit 77
fi
finish
