#!/bin/sh
# t_evilname.sh — hostile strings in a profile (a synchronization object
# named by LC_NAME and a command line with escape sequences, a carriage
# return, a newline and bytes that are not UTF-8) reach no terminal and
# break no machine-readable output: every text report (pp, --sync,
# --per-thread, --timeline, --tags, --advise, -t, --counters) holds no
# control character but newline and no byte that is not UTF-8; every CSV
# and JSON report and the HTML page are valid UTF-8, and every JSON report
# parses with Python's json.loads.
SUB=evilname
. tests/lib.sh
W=build/workloads/evilname
[ -x "$W" ] || { echo "t_evilname: $W is missing (run make workloads)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || skip t_evilname "python3 is not installed"

name=$(printf 'L\033]0;pwn\007\033[2J\377\376x\r\nforged line')
arg=$(printf 'arg\033[31m\377\300\200')
run record --force -q -o "$tmp/ev.data" -- "$W" "$name" "$arg"
check "record a program with hostile names" true

# clean FILE TEXT: 0 when FILE is UTF-8 and, with TEXT=1, holds no control
# character but newline (tab allowed in JSON/CSV/HTML only as data)
clean() {
	python3 - "$1" "$2" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
try:
    s = b.decode('utf-8')
except UnicodeDecodeError as e:
    print('not UTF-8:', e); sys.exit(1)
if sys.argv[2] == '1':
    bad = [c for c in s if (ord(c) < 32 and c != '\n') or 0x7f <= ord(c) < 0xa0]
    if bad:
        print('control characters:', [hex(ord(c)) for c in bad[:5]]); sys.exit(1)
PY
}

for mode in "" --sync --per-thread --timeline --tags --advise "-t 7" --counters; do
	# shellcheck disable=SC2086
	"$LC" report $mode "$tmp/ev.data" >"$tmp/t.out" 2>&1
	clean "$tmp/t.out" 1 >"$tmp/out" 2>&1
	st=$?
	check "report $mode (text) passes no control character or invalid byte" true
	[ "$mode" = --tags ] || [ "$mode" = --advise ] && continue
	for fmt in csv json; do
		# shellcheck disable=SC2086
		"$LC" report $mode --format $fmt "$tmp/ev.data" >"$tmp/m.out" 2>/dev/null
		clean "$tmp/m.out" 0 >"$tmp/out" 2>&1
		st=$?
		check "report $mode --format $fmt is UTF-8" true
	done
	# shellcheck disable=SC2086
	"$LC" report $mode --format json "$tmp/ev.data" 2>/dev/null |
		python3 -c 'import json, sys; json.loads(sys.stdin.buffer.read())' >"$tmp/out" 2>&1
	st=$?
	check "report $mode --format json parses (json.loads)" true
done
"$LC" report --html "$tmp/ev.html" "$tmp/ev.data" >/dev/null 2>&1
clean "$tmp/ev.html" 1 >"$tmp/out" 2>&1
st=$?
check "the HTML page is UTF-8 without control characters" true
finish
