#!/bin/sh
# t_header.sh — the public header lostcycles.h compiles warning-free as C99,
# C11 and C++, with and without -DLC_DISABLE; the programs link against
# build/liblostcycles.so and run; every macro argument is evaluated exactly
# once in every build.  Run from the top of the tree (make check does).
. tests/lib.sh
set -eu

top=$(pwd)
lib="$top/build"
[ -f "$lib/liblostcycles.so" ] || { echo "t_header: $lib/liblostcycles.so missing (run make)"; exit 1; }
lc_tmpdir

cat >"$tmp/use.c" <<'EOF'
/* Uses every macro of lostcycles.h; exits 0 when each argument with a side
 * effect was evaluated exactly once. */
#include <lostcycles.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
	int i = 0;
	uint64_t id = 41;

	LC_TEAM(2 + 0 * i++);
	LC_PARALLEL_BEGIN();
	LC_FRAGMENT_BEGIN(i++);
	LC_BUSY();
	LC_TASK_BEGIN(i++);
	LC_SYNC_BEGIN();
	LC_SYNC_END();
	LC_COMM_BEGIN();
	LC_COMM_END();
	LC_QUEUE_EMPTY(i++);
	LC_TASK_WASTED(++id);
	LC_TASK_END(i++);
	LC_IDLE();
	LC_FRAGMENT_END(i++ - 5);
	LC_SOLUTION_FOUND();
	LC_PARALLEL_END();
	if (i != 6 || id != 42) {
		fprintf(stderr, "arguments evaluated wrongly: i=%d id=%llu\n", i,
			(unsigned long long)id);
		return 1;
	}
	return 0;
}
EOF
cp "$tmp/use.c" "$tmp/use.cc"

fail=0
# build NAME COMPILER ARGS... : compile and link $tmp/NAME, report failures.
build() {
	name=$1
	shift
	if ! "$@" -Wall -Wextra -Werror -I"$top/flaglib" -o "$tmp/$name" \
		-L"$lib" -llostcycles -Wl,-rpath,"$lib" -pthread 2>"$tmp/$name.err"; then
		echo "FAIL compile $name: $*"
		cat "$tmp/$name.err"
		fail=1
		return 1
	fi
}

# run NAME [ENV...] : run $tmp/NAME, report a non-zero exit.
run() {
	name=$1
	shift
	if ! env "$@" "$tmp/$name"; then
		echo "FAIL run $name $*"
		fail=1
	fi
}

for std in c99 c11; do
	for dis in "" "-DLC_DISABLE"; do
		n="c-$std${dis:+-disabled}"
		build "$n" gcc -std=$std $dis "$tmp/use.c" && run "$n" && echo "ok $n"
	done
done
for std in c++11 c++17; do
	for dis in "" "-DLC_DISABLE"; do
		n="cxx-$std${dis:+-disabled}"
		build "$n" g++ -std=$std $dis "$tmp/use.cc" && run "$n" && echo "ok $n"
	done
done

# The enabled program also runs in a session, normal and trace mode.
if [ -x "$tmp/c-c11" ]; then
	s="theader$$"
	run c-c11 LOSTCYCLES_SESSION="$s"
	run c-c11 LOSTCYCLES_SESSION="$s" LOSTCYCLES_TRACE=1 LOSTCYCLES_TRACE_DIR="$tmp"
	if ls "$tmp"/lostcycles-trace."$s".* >/dev/null 2>&1; then
		echo "ok trace file written"
	else
		echo "FAIL no trace file in $tmp"
		fail=1
	fi
	if ls /dev/shm/lostcycles."$s".* >/dev/null 2>&1; then
		echo "FAIL segment left in /dev/shm after exit"
		rm -f /dev/shm/lostcycles."$s".*
		fail=1
	fi
fi

# With LC_DISABLE the program does not need the library at all.
if gcc -std=c11 -DLC_DISABLE -Wall -Wextra -Werror -I"$top/flaglib" \
	-o "$tmp/nolib" "$tmp/use.c" 2>"$tmp/nolib.err" && "$tmp/nolib"; then
	echo "ok LC_DISABLE without the library"
else
	echo "FAIL LC_DISABLE build needs the library"
	cat "$tmp/nolib.err"
	fail=1
fi
exit $fail
