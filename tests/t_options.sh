#!/bin/sh
# t_options.sh — small option faults: a long interval brings its default
# window along (-i 20ms works; an explicit shorter -w is still refused); a
# word after "report -l" that is not var=value pairs is not silently taken
# as the file when -f names one; a user attaching to another user's process
# is told "permission denied" (run as nobody when root can drop to it).
set -u

SUB=record
. tests/lib.sh

run record -q -i 20ms -o "$tmp/long.data" -- sleep 0.1
check "-i 20ms records (the default window follows the interval)" \
	'"$LC" report -f "$tmp/long.data" >/dev/null 2>&1'
refuse "-i 20ms -w 10ms: an explicit window shorter than the interval is refused" 2 \
	"the window (-w) must not be shorter than the interval" -q -i 20ms -w 10ms -o "$tmp/x.data" -- true
SUB=exec refuse "exec: the same for its window" 2 "the interval must be 1us..10s" -i 20ms -w 10ms -- true

SUB=report
refuse "report -l bad_note -f FILE names the bad note" 2 "-l: note 'bad_note' is not var=value pairs" \
	-l bad_note -f "$tmp/long.data"
refuse "report -f FILE -l bad_note too" 2 "-l: note 'bad_note' is not var=value pairs" \
	-f "$tmp/long.data" -l bad_note
refuse "two files are refused" 2 "more than one FILE" -f "$tmp/long.data" "$tmp/long.data"
run report -l n=4 -f "$tmp/long.data"
check "report -l NOTE -f FILE still works" 'grep -q "n=4" "$tmp/out"'
run report -l "$tmp/long.data"
check "report -l FILE still takes FILE" '[ -n "$(cat "$tmp/out")" ]'

# attach to another user's process, as nobody
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=65534 --regid=65534 --clear-groups "$LC" --version >/dev/null 2>&1; then
	sleep 30 &
	victim=$!
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LC" attach -o /tmp/lc-t_options.$$.data \
		"$victim" >"$tmp/out" 2>"$tmp/err"
	st=$?
	kill "$victim"
	rm -f /tmp/lc-t_options.$$.data
	if [ "$st" -eq 1 ] && grep -q "^lostcycles attach: process $victim: permission denied" "$tmp/err"; then
		ok "attach of another user's process: permission denied"
	else
		fail "attach of another user's process: status $st"; sed 's/^/      /' "$tmp/err"
	fi
else
	echo "NOTE: t_options: the attach check needs root and setpriv to run as nobody; not run"
fi
SUB=options
finish
