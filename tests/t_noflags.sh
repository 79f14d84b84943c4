#!/bin/sh
# t_noflags.sh — a program recorded without its layer and without the
# macros (tests/layers/pt_balanced: two threads, no flag ever set):
#   - its own CPU time is the program's in the machine's share, not "other
#     processes": the share report --format json gives the program is at
#     least half the CPU time the program measured itself (it was 0, and
#     other processes 99 %, before);
# SKIP 77 when the machine is too busy to tell (the program got less than a
# third of its CPUs).
SUB=record
. tests/lib.sh
P=build/layers/pt_balanced
need_built t_noflags "$P" layer-workloads
"$LC" record -o "$tmp/n.data" -- "$P" 2 12 >"$tmp/rec" 2>&1 ||
	{ cat "$tmp/rec"; echo "t_noflags: record failed"; exit 1; }
"$LC" report --format json "$tmp/n.data" >"$tmp/j" 2>/dev/null
python3 - "$tmp/j" "$tmp/rec" >"$tmp/py" 2>&1 <<'PY'
import json, re, sys
m = json.load(open(sys.argv[1]))["machine"]["percent"]
t = re.search(r"truth p=\d+ cpu=([\d.]+) wall=([\d.]+)", open(sys.argv[2]).read())
cpu, wall = float(t.group(1)), float(t.group(2))
own = 100 * cpu / (wall * m["cpus"])	# the program's share by its own clocks
print("program %.1f %%, other %.1f %% of %d CPUs; the program measured %.1f %%" %
      (m["program"], m["other"], m["cpus"], own))
if own < 33: sys.exit(77)
sys.exit(0 if m["program"] >= own / 2 else 1)
PY
r=$?
[ "$r" -eq 77 ] && skip t_noflags "the machine is too busy: $(cat "$tmp/py")"
st=0
check "the program's own CPU is the program's, not other processes' ($(cat "$tmp/py"))" '[ "$r" -eq 0 ]'
finish
