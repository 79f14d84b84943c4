#!/bin/sh
# t_noflags.sh — a program recorded without its layer and without the
# macros (tests/layers/pt_balanced: two threads, no flag ever set):
#   - its own CPU time is the program's in the machine's share, not "other
#     processes": the share report --format json gives the program is at
#     least half the CPU time the program measured itself (it was 0, and
#     other processes 99 %, before);
#   - record says that no thread set a flag and names the layer: the
#     threads the program ran -> --pthread; a program linking libomp
#     (tests/layers/omp_names) -> --omp; an MPI program run alone
#     (examples/mpi/stencil, when built) -> --mpi; and report says the
#     same from the program's runtime (or lists the layers).
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
st=0
check "record: no thread set a flag; the threads it ran: --pthread" \
	'grep -q "no thread set a flag.*ran [0-9]* threads: record it with --pthread" "$tmp/rec"'
run report "$tmp/n.data"
check "report: no thread set a flag, and the layers named" \
	'grep -q "^\*\* note: no thread set a flag.*--pthread if it creates threads" "$tmp/out"'
if [ -x build/layers/omp_names ]; then
	OMP_NUM_THREADS=2 "$LC" record -o "$tmp/o.data" -- build/layers/omp_names >"$tmp/orec" 2>&1
	check "record of an OpenMP program without --omp: --omp" \
		'grep -q "no thread set a flag.*links an OpenMP runtime: record it with --omp" "$tmp/orec"'
	run report "$tmp/o.data"
	check "report of it: --omp" 'grep -q "^\*\* note: no thread set a flag.*record it with --omp" "$tmp/out"'
fi
if [ -x build/examples/mpi/stencil ] && "$LC" record -o "$tmp/m.data" -- \
	build/examples/mpi/stencil >"$tmp/mrec" 2>&1; then
	check "record of an MPI program without --mpi: --mpi" \
		'grep -q "links an MPI library: record it with --mpi" "$tmp/mrec"'
fi
st=0
if [ "$r" -eq 77 ]; then
	echo "note  the machine share not judged: the machine is too busy: $(cat "$tmp/py")"
else
	check "the program's own CPU is the program's, not other processes' ($(cat "$tmp/py"))" '[ "$r" -eq 0 ]'
fi
finish
