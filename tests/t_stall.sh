#!/bin/sh
# t_stall.sh — the sampler never waits for the disk.
#
# The profile goes into a pipe whose reader stops reading for 1.5 s while
# the program runs (as a write throttled by the kernel's dirty-page limits
# or a slow device would block): with 1 ms windows the pipe fills within
# that time, so a sampler that wrote its blocks itself would stop ticking.
# The longest tick gap must stay far below the reader's pause, and the
# profile must arrive whole once the reader drains the pipe.
SUB=stall
. tests/lib.sh
W=build/workloads/helpers
need_built t_stall "$W"
mkfifo "$tmp/pipe" || skip t_stall "cannot make a FIFO in $tmp"

# the reader: opens the pipe at once, reads nothing for 1.5 s, then all
sh -c 'exec 3<"$1"; sleep 1.5; cat <&3 >"$2"' sh "$tmp/pipe" "$tmp/p.data" &
reader=$!
"$LC" record -i 1ms -w 1ms -o "$tmp/pipe" -- "$W" 4 0 2500 >/dev/null 2>"$tmp/err"
st=$?
wait $reader
run report "$tmp/p.data"
if [ "$st" -eq 0 ] && [ "$(wc -c <"$tmp/p.data")" -gt 65536 ] && ! grep -q 'cut\|incomplete' "$tmp/out"; then
	ok "record into a stalled pipe finishes and writes everything ($(wc -c <"$tmp/p.data") bytes)"
else
	fail "record into a stalled pipe: status $st"; cat "$tmp/err" "$tmp/out"
fi
# record reports its longest tick gap when it fell behind: it must stay far
# below the reader's 1.5 s pause (the program's 4 spinning threads on this
# machine's CPUs may delay single ticks by a few ms, never by the pause)
gap_below "the pipe stalled 1.5 s" 500 "$tmp/err"
finish
