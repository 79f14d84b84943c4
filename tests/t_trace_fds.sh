#!/bin/sh
# t_trace_fds.sh — trace mode never writes into the program's own files.
# tests/workloads/closefds records in trace mode, closes every descriptor
# from 3 up (as daemons, closefrom() and sandboxes do), opens its output
# file, which gets the number the trace file had, writes RESULT=42 and
# makes more transitions.  Its file must hold exactly its result (it held
# 24 kB of trace records after it), and the trace must be complete: the
# library opens its trace file again, so the trace profile's computation
# time agrees with the sampled one (it halves when the records after the
# close are lost).  When the program also removes its trace file, the
# trace stops and record says that it was cut.  The sampled reference is
# not judged when report says the sampler stalled over the short run.
SUB=trace_fds
. tests/lib.sh
W=build/workloads/closefds
need_built t_trace_fds "$W"

printf 'RESULT=42\n' >"$tmp/want"
"$LC" record -q --trace -o "$tmp/t.data" -- "$W" "$tmp/res" >"$tmp/rec.out" 2>&1
st=$?
if [ "$st" -eq 0 ] && cmp -s "$tmp/want" "$tmp/res"; then
	ok "the program's file holds exactly its result ($(wc -c <"$tmp/res") bytes)"
else
	fail "the program's file: exit status $st, $(wc -c <"$tmp/res" 2>/dev/null) bytes, want 10:"
	od -c "$tmp/res" | head -5 | sed 's/^/      /'; sed 's/^/      /' "$tmp/rec.out"
fi
if grep -q "trace was cut" "$tmp/rec.out"; then
	fail "the trace was cut, though its file could be opened again:"; sed 's/^/      /' "$tmp/rec.out"
else
	ok "record says nothing of a cut trace"
fi
rs=$("$LC" report -f "$tmp/t.data" -l 2>"$tmp/rs.err" | sed -n 's/.* rt=\([0-9.e-]*\) .*/\1/p')
rt=$("$LC" report -f "$tmp/t.data" -l --source trace 2>/dev/null | sed -n 's/.* rt=\([0-9.e-]*\) .*/\1/p')
# the sampled rt is the reference: a sampler that stalled over the 0.1 s
# run (under SAN=thread 150-215 ms at its first ticks, symbolizing the
# first report its suppressions match) measured none of it
stall=$(sed -n 's/.*\(the sampler stalled for [^:]*\):.*/\1/p' "$tmp/rs.err" | head -n 1)
what="the trace is complete: its rt ${rt:-?} s, sampled ${rs:-?} s"
if [ -n "$rs" ] && [ -n "$rt" ] && awk -v a="$rt" -v b="$rs" 'BEGIN { exit !(b > 0 && a / b > 0.8 && a / b < 1.25) }'; then
	ok "$what"
elif [ -n "$stall" ]; then
	not_judged "$what" "$stall"
elif ! unjudged "$what" "$tmp/rec.out"; then
	fail "the trace's rt ${rt:-?} s against the sampled ${rs:-?} s (records lost after the close?)"
fi

"$LC" record -q --trace -o "$tmp/u.data" -- "$W" "$tmp/res2" unlink >"$tmp/rec2.out" 2>&1
st=$?
if [ "$st" -eq 0 ] && cmp -s "$tmp/want" "$tmp/res2"; then
	ok "trace file removed: the program's file still holds exactly its result"
else
	fail "trace file removed: exit status $st, $(wc -c <"$tmp/res2" 2>/dev/null) bytes, want 10"
	sed 's/^/      /' "$tmp/rec2.out"
fi
if grep -q "^lostcycles record: trace: process [0-9]*: its trace was cut" "$tmp/rec2.out"; then
	ok "record says the trace was cut"
else
	fail "record does not say that the trace was cut:"; sed 's/^/      /' "$tmp/rec2.out"
fi
finish
