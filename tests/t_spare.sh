#!/bin/sh
# t_spare.sh — record --spare-cpu starts the command on the CPUs record may
# use except the sampler's (-C, or the last allowed CPU): the command sees
# that mask in /proc/self/status, its children inherit it; without the
# option the command keeps every CPU.  attach refuses the option, and a
# record allowed one CPU only refuses it before running anything.
SUB=record
. tests/lib.sh
ncpu=$(grep -c '^processor' /proc/cpuinfo 2>/dev/null)
allowed=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //')
if [ "$(nproc)" -lt 2 ]; then
	skip t_spare "this process may use $(nproc) CPU ($allowed of $ncpu): --spare-cpu needs two"
fi
mask() { sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$1"; }
# cpus_in LIST: the CPUs of a list like 0-2,5 one per line
cpus_in() { echo "$1" | tr ',' '\n' | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'; }

for cpu in $(cpus_in "$allowed" | head -n 1) $(cpus_in "$allowed" | tail -n 1); do
	run record -q --force -o "$tmp/p.data" -C "$cpu" --spare-cpu -- sh -c "grep Cpus_allowed_list /proc/self/status; sh -c 'grep Cpus_allowed_list /proc/self/status' > $tmp/child"
	got=$(mask "$tmp/out")
	check "-C $cpu --spare-cpu: the command's CPUs are $allowed without $cpu (got $got)" \
		'[ "$(cpus_in "$got" | sort -n)" = "$(cpus_in "$allowed" | grep -vx "$cpu" | sort -n)" ]'
	check "-C $cpu --spare-cpu: a child of the command inherits them" '[ "$(mask "$tmp/child")" = "$got" ]'
done
run record -q --force -o "$tmp/p.data" -- sh -c 'grep Cpus_allowed_list /proc/self/status'
got=$(mask "$tmp/out")
check "without --spare-cpu the command keeps $allowed (got $got)" \
	'[ "$(cpus_in "$got" | sort -n)" = "$(cpus_in "$allowed" | sort -n)" ]'
# the default sampler CPU is the last allowed one
run record -q --force -o "$tmp/p.data" --spare-cpu -- sh -c 'grep Cpus_allowed_list /proc/self/status'
got=$(mask "$tmp/out")
check "--spare-cpu without -C leaves out the last allowed CPU (got $got)" \
	'! cpus_in "$got" | grep -qx "$(cpus_in "$allowed" | tail -n 1)"'

one=$(cpus_in "$allowed" | head -n 1)
"$LC" record -q --force -o "$tmp/q.data" --spare-cpu -C "$one" -- true
first=$?
[ "$first" -eq 0 ] && ok "record --spare-cpu runs a command" || fail "record --spare-cpu: status $first"
# one allowed CPU: nothing left for the command; nothing runs, no profile
taskset -c "$one" "$LC" record -q -o "$tmp/none.data" --spare-cpu -- touch "$tmp/ran" 2>"$tmp/err"
st=$?
if [ "$st" -eq 2 ] && grep -q 'no CPU is left' "$tmp/err" && [ ! -e "$tmp/ran" ] && [ ! -e "$tmp/none.data" ]; then
	ok "one allowed CPU: --spare-cpu refused before the command ran"
else
	fail "one allowed CPU: status $st, ran: $([ -e "$tmp/ran" ] && echo yes || echo no)"
	sed 's/^/      /' "$tmp/err"
fi
SUB=attach
refuse "attach refuses --spare-cpu" 2 "option of 'lostcycles record' only" --spare-cpu $$
SUB=record
finish
