#!/bin/sh
# Profile the example program and print its report (run by "make demo" from
# the top of the tree, after the build).  Any failure stops the demo with a
# message and a non-zero exit status.
set -eu

data=build/demo.data

fail() {
	echo "make demo: $*" >&2
	exit 1
}

[ -x ./lostcycles ] || fail "./lostcycles is missing: build it with 'make all'"
[ -x build/examples/demo ] || fail "build/examples/demo is missing: build it with 'make examples'"

echo "\$ ./lostcycles record --force -o $data -- build/examples/demo"
./lostcycles record --force -o "$data" -- build/examples/demo ||
	fail "lostcycles record failed (exit status $?)"
echo
echo "\$ ./lostcycles report -f $data"
./lostcycles report -f "$data" || fail "lostcycles report failed (exit status $?)"
echo
echo "\$ ./lostcycles report -f $data -t 5    # fragment 5, the speculative search, alone"
./lostcycles report -f "$data" -t 5 || fail "lostcycles report -t 5 failed (exit status $?)"
echo
echo "\$ ./lostcycles report -f $data --per-thread"
./lostcycles report -f "$data" --per-thread || fail "lostcycles report --per-thread failed (exit status $?)"
echo
echo "\$ ./lostcycles report -f $data --advise    # what to change first"
./lostcycles report -f "$data" --advise || fail "lostcycles report --advise failed (exit status $?)"
echo
echo "\$ ./lostcycles report -f $data --html build/demo.html --force"
./lostcycles report -f "$data" --html build/demo.html --force || fail "lostcycles report --html failed (exit status $?)"
echo "wrote build/demo.html: open it in a browser"
