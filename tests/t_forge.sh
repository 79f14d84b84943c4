#!/bin/sh
# t_forge.sh — what a program writes into its segment is not believed:
#   - 16 forged slots whose tids are threads of other processes (init, a
#     child) do not count: p stays 1 (it was 17);
#   - random bytes written over a live 65536-slot segment for 2 s cost the
#     target, not the run: it is dropped with one warning, the profile stays
#     small (it grew to 173 MB in 12 s) and the ticks keep their pace (one
#     gap was 16 s);
#   - a FIFO planted under a name for a live pid does not hang attach (it
#     did, in its first scan): attach ends and says why it refused it.
SUB=forge
. tests/lib.sh
skip_under_tsan t_forge "it judges how long a garbage segment may stall the tick loop, which ThreadSanitizer, slowing the sampler 5-15x, stretches past any bound (test_registry covers the planted FIFO and forged owners under TSan)"
W=build/workloads/hostile
need_built t_forge "$W"
[ -d /proc/self/task ] || skip t_forge "no /proc here: thread ids cannot be checked"

run record --no-counters -o "$tmp/f.data" -- "$W" fakeslots 16 300
run report -f "$tmp/f.data"
p=$(sed -n 's/.*processors: \([0-9]*\).*/\1/p' "$tmp/out")
check "16 forged thread ids: p = ${p:-?}, want 1" '[ "${p:-0}" -eq 1 ]'

LOSTCYCLES_SLOTS=65536 "$LC" record --no-counters -i 100us -o "$tmp/g.data" -- "$W" garbage 2000 \
	>"$tmp/err" 2>&1
st=$?
size=$(wc -c <"$tmp/g.data")
if [ "$st" -eq 0 ] && [ "$size" -lt 4000000 ]; then
	ok "random bytes in a live segment for 2 s: profile of $size bytes"
else
	fail "random bytes in a live segment: exit status $st, profile of $size bytes"
	sed 's/^/      /' "$tmp/err"
fi
n=$(grep -c 'no library writes: dropped' "$tmp/err")
if [ "$n" -eq 1 ]; then
	ok "one warning: $(grep 'no library writes' "$tmp/err")"
else
	fail "$n warnings about the garbage, want 1:"; sed 's/^/      /' "$tmp/err"
fi
# record names its longest tick gap when it fell behind; the program's own
# writer thread shares the 2 CPUs (and other runs may load them), so single
# ticks may be late by hundreds of ms, not by the 8.9 s of old
gap_below "random bytes in a live segment" 3000 "$tmp/err"
sleep 60 &
victim=$!
mkfifo "/dev/shm/lostcycles.planted.$victim.00000000000000f1"
timeout -s KILL 60 "$LC" attach -o "$tmp/a.data" "$victim" >"$tmp/err" 2>&1
st=$?
rm -f "/dev/shm/lostcycles.planted.$victim.00000000000000f1"
kill "$victim"
if [ "$st" -eq 1 ] && grep -q "is not a regular file: skipped" "$tmp/err"; then
	ok "a planted FIFO: attach ends, saying why it refused it"
else
	fail "a planted FIFO: attach exit status $st (137: it hung and was killed)"; sed 's/^/      /' "$tmp/err"
fi
finish
