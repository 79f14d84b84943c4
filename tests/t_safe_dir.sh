#!/bin/sh
# t_safe_dir.sh — "sweep" (RUNS.profiles/) and "calibrate -k DIR" put the
# profiles and the command's captured output only in a directory that
# cannot be read, swapped or emptied by another user: one planted by
# another user (uid 65534, chown'd by root), a symbolic link to a
# directory, and a directory writable by everyone without the sticky bit
# are refused with the reason (one line, exit 1) before any run; a
# directory of the caller, and one writable by everyone with the sticky
# bit, are used.  The planted-owner cases need root (chown): skipped
# otherwise, the others run.
SUB=sweep
. tests/lib.sh
set -u
WL=$(pwd)/build/workloads/control	# 0.4 s, instrumented
[ -x "$WL" ] || { echo "t_safe_dir: $WL is missing (make workloads)" >&2; exit 1; }

# the directory of a sweep writing $tmp/NAME.runs
planted() { mkdir "$tmp/$1.runs.profiles"; }

if [ "$(id -u)" -eq 0 ]; then
	planted other
	chown 65534 "$tmp/other.runs.profiles"
	refuse "another user's RUNS.profiles" 1 "belongs to another user" \
		-q -o "$tmp/other.runs" -v n=1 -- "$WL"
	[ ! -e "$tmp/other.runs" ] && [ -z "$(ls -A "$tmp/other.runs.profiles")" ] &&
		ok "nothing run, nothing put there" || fail "a run or a file despite the refusal"
	SUB=calibrate refuse "calibrate -k: another user's directory" 1 \
		"belongs to another user" -k "$tmp/other.runs.profiles"
	mkdir "$tmp/real"
	chown 65534 "$tmp/real"
	ln -s "$tmp/real" "$tmp/link.runs.profiles"
else
	echo "skip  another user's directory: not root (chown needs it)"
	mkdir "$tmp/real"
	ln -s "$tmp/real" "$tmp/link.runs.profiles"
fi
refuse "RUNS.profiles a symbolic link" 1 "is a symbolic link" -q -o "$tmp/link.runs" \
	-v n=1 -- "$WL"
[ -z "$(ls -A "$tmp/real")" ] && ok "nothing put through the link" || fail "files in the link's target"
SUB=calibrate refuse "calibrate -k: a symbolic link" 1 "is a symbolic link" \
	-k "$tmp/link.runs.profiles"
planted open
chmod 0777 "$tmp/open.runs.profiles"
refuse "RUNS.profiles writable by everyone" 1 "writable by everyone without the sticky bit" \
	-q -o "$tmp/open.runs" -v n=1 -- "$WL"
chmod 0775 "$tmp/open.runs.profiles"
refuse "RUNS.profiles writable by its group" 1 "writable by its group" \
	-q -o "$tmp/open.runs" -v n=1 -- "$WL"
SUB=calibrate refuse "calibrate -k: writable by its group" 1 "writable by its group" \
	-k "$tmp/open.runs.profiles"
planted sticky
chmod 1777 "$tmp/sticky.runs.profiles"
run sweep -q -o "$tmp/sticky.runs" -v n=1 -- "$WL"
check "a sticky directory writable by everyone is used" \
	'ls "$tmp/sticky.runs.profiles" | grep -q "\.data$"'
run sweep -q -o "$tmp/own.runs" -v n=1 -- "$WL"
check "a new RUNS.profiles of the caller is made and used" \
	'[ "$(stat -c %a "$tmp/own.runs.profiles")" = 755 ] && [ "$(grep -vc "^#" "$tmp/own.runs")" -eq 1 ]'
SUB=safe_dir
finish
