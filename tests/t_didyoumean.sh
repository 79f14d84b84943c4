#!/bin/sh
# t_didyoumean.sh — what a mistyped word gets: an unknown subcommand, tool
# option, long option or enum value names the nearest one ("did you mean
# 'report'?") with exit status 2, a word near nothing names none, and
# "lostcycles help COMMAND" prints COMMAND's own --help (not the top-level
# usage).
set -u
SUB=report
. tests/lib.sh

top() {	# top WANT-STATUS PATTERN ARGS...: the top-level command's one message
	want=$1; pat=$2; shift 2
	"$LC" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -eq "$want" ] && grep -qF -- "$pat" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		ok "lostcycles $*: $pat"
	else
		fail "lostcycles $*: status $st, want $want and '$pat':"; sed 's/^/      /' "$tmp/err"
	fi
}
top 2 "'reprot' is not a command; did you mean 'report'?" reprot
top 2 "did you mean 'record'?" recrod -- true
top 2 "did you mean 'export'?" exprt
top 2 "did you mean '--version'?" --versoin
top 2 "'zzzzzz' is not a command; see 'lostcycles --help'" zzzzzz
top 2 "'nope' is not a command" help nope

refuse "an unknown long option names the nearest" 2 "unknown option '--fromat'; did you mean '--format'?" \
	--fromat json
refuse "with a value too" 2 "unknown option '--colr=never'; did you mean '--color'?" --colr=never
refuse "a word near no option names none" 2 "unknown option '--zzzzzz' (see" --zzzzzz
refuse "an enum value names the nearest word" 2 "did you mean 'json'?" --format=jsn
SUB=record refuse "record's options too" 2 "did you mean '--output'?" --outptu x -- true

"$LC" help report >"$tmp/h1" 2>&1; st=$?
"$LC" report --help >"$tmp/h2" 2>&1
check "lostcycles help report prints report --help" \
	'head -n 1 "$tmp/h1" | grep -q "^usage: lostcycles report" && cmp -s "$tmp/h1" "$tmp/h2"'
"$LC" help >"$tmp/h3" 2>&1; st=$?
check "lostcycles help alone still prints the commands" 'grep -q "^commands:" "$tmp/h3"'
finish
