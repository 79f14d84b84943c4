#!/bin/sh
# Run every cmocka test binary and every shell integration test given as
# arguments; print each result and a closing "N passed, N failed, N skipped"
# line.  A test that exits 77 could not run here, or measured that the
# machine was too busy to judge it (tests/lib.sh's skip, machine_busy): it
# is reported as SKIP with the last line of its output as the reason, and
# counted apart.  Exits
# non-zero when any test failed.  Output of a failing test is shown; of a
# passing one, its lines that start with "NOTE: " (e.g. a retried run).
set -u
top=$(pwd)
export LC_TOP="$top"
# LC_SAN: the sanitizers the build has (make check SAN=...), for tests that
# build programs or cannot run under them.  ASan's check that its runtime
# is the first library fails whenever a layer is preloaded (LD_PRELOAD)
# into an instrumented program; the runtime is loaded all the same.
export LC_SAN="${LC_SAN:-}"
case $LC_SAN in
*address*) export ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" ;;
# TSan refuses a child that starts threads after a fork of a threaded
# process; the registry tests fork children that start a fresh registry
# (and nothing of the parent's threads) under an alarm, which is safe.
# history_size=7 keeps the stacks of earlier accesses, so that the
# suppressions (which match frames) also match the earlier write of a race.
# UCX (under MPICH, in the MPI layer that exec and record --mpi preload)
# hooks madvise, which glibc calls as a thread exits, after TSan has let
# the thread go: its lock there crashes the program (SIGSEGV in TSan's
# MutexPreReadLock, t_exec_lock's program under exec).  Its mmap-family
# hooks serve only its registration cache; they are left out.
*thread*) export TSAN_OPTIONS="suppressions=$top/tests/tsan.supp:die_after_fork=0:history_size=7${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
	export UCX_MEM_MMAP_HOOK_MODE="${UCX_MEM_MMAP_HOOK_MODE:-none}" ;;
esac
export PATH="$top:$PATH"
log=$(mktemp -d /tmp/lostcycles-tests.XXXXXX)
limit=${LC_TEST_TIMEOUT:-1200}
pass=0
fail=0
skip=0
failed=""
for t in "$@"; do
	name=${t##*/}
	case "$t" in
	*.sh) cmd="sh $t" ;;
	*)    cmd="$t" ;;
	esac
	start=$(date +%s)
	# no test may hang the suite: one that outlives LC_TEST_TIMEOUT
	# seconds (default 1200, sanitizer builds included) is killed and fails
	timeout -k 10 "$limit" $cmd >"$log/$name.out" 2>&1
	st=$?
	if [ "$st" -eq 124 ] || [ "$st" -eq 137 ]; then
		echo "killed after $limit s: the test hung (LC_TEST_TIMEOUT)" >>"$log/$name.out"
		st=124
	fi
	secs=$(( $(date +%s) - start ))
	if [ "$st" -eq 0 ]; then
		pass=$((pass + 1))
		printf '  PASS  %-40s %3ss\n' "$name" "$secs"
		grep '^NOTE: ' "$log/$name.out" | sed 's/^/        | /'
	elif [ "$st" -eq 77 ]; then
		skip=$((skip + 1))
		why=$(sed '/^[[:space:]]*$/d' "$log/$name.out" | tail -n 1)
		case $why in *": SKIP: "*) why=${why#*: SKIP: } ;; esac
		printf '  SKIP  %-40s %3ss  (reason: %s)\n' "$name" "$secs" "${why:-none given}"
	else
		fail=$((fail + 1))
		failed="$failed $name"
		printf '  FAIL  %-40s %3ss  (exit status %s)\n' "$name" "$secs" "$st"
		sed 's/^/        | /' "$log/$name.out" | tail -n 60
	fi
done
rm -rf "$log"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
