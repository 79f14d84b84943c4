#!/bin/sh
# t_cost.sh — the sampler's interval rule and what it cost (issue 24,
# docs/performance.md): at the default settings record samples adaptively
# (100us until the error goal, then within its CPU budget, up to 1ms) and
# says so with the mean interval, the error bars, the sampler's CPU share
# and the estimated slowdown; the profile keeps the rule (format minor 5)
# and report prints it; -i fixes the interval and both say that.  At the
# default, the sampled profile agrees with the exact trace-mode profile of
# the same run within 1 % of p x wall (runs of at least 1 s with two
# threads), and a phase locked to 1 ms (build/workloads/phase) is measured
# within three of the standard errors record printed.  The rows of make
# bench's item 6 are well formed.
SUB=cost
. tests/lib.sh
lc_tmpdir
LC=./lostcycles
pool=build/layers/pt_pool
[ -x "$pool" ] || { echo "t_cost: $pool not built (make workloads)"; exit 1; }

# worst FILE: the largest |sampled - trace| of an available category, in %
# of Total Time, and its key
worst() {
	"$LC" report --format csv "$1" 2>/dev/null > "$tmp/s.csv"
	"$LC" report --format csv --source trace "$1" 2>/dev/null > "$tmp/t.csv"
	awk -F, 'NR == FNR { if ($5 == 1 && $3 != "") t[$1] = $3; next }
		$1 == "tt" { tt = $3 }
		$5 == 1 && $3 != "" && $1 !~ /^(tt|wall|p|qe)$/ {
			d = $3 - t[$1]; if (d < 0) d = -d; if (d > m) { m = d; k = $1 } }
		END { printf "%.3f %s\n", (tt > 0 ? 100 * m / tt : 100), k }' "$tmp/t.csv" "$tmp/s.csv"
}
# the mean interval in us from a "mean N us" or "mean N ms" text
mean_us() { sed -n 's/.*mean \([0-9.]*\) \(u\|m\)s.*/\1 \2/p' "$1" | head -n 1 |
	awk '{ print $2 == "m" ? $1 * 1000 : $1 }'; }

# 1. the default: adaptive, said by record and report
run record --trace --pthread --force -o "$tmp/a.data" -- "$pool" 6000 2
cp "$tmp/out" "$tmp/a.err"
check "record names the adaptive rule and its range" \
	'grep -q "interval adaptive 100 us\.\.4 ms (100 us until the error goal 1 %.* within 2 % of a CPU up to 1 ms, from the goal on within 1 %)" "$tmp/a.err"'
check "record prints the error bars" \
	'grep -q "error bars (one standard error) at most ±[0-9.]* % of p x wall" "$tmp/a.err"'
check "record prints the sampler's CPU share and the estimated slowdown" \
	'grep -q "sampler CPU [0-9.]* s, [0-9.]* % of one CPU (its thread [0-9.]* %); estimated slowdown of the program " "$tmp/a.err"'
run report "$tmp/a.data"
cp "$tmp/out" "$tmp/a.rep"
check "report prints the rule the profile recorded" \
	'grep -q "^\*\* interval: adaptive 100 us\.\.4 ms (100 us until the error goal 1 % .* from the goal on within 1 %), mean " "$tmp/a.rep"'
check "report prints the estimated slowdown" \
	'grep -q "^\*\* estimated slowdown of the program by the sampler: " "$tmp/a.rep"'
m=$(mean_us "$tmp/a.rep")
check "the mean interval ($m us) is within the rule's range" \
	'awk -v m="$m" "BEGIN { exit !(m >= 90 && m <= 4400) }"'
if grep -q "error goal 1 % at" "$tmp/a.rep"; then
	check "after the error goal the interval grew (mean $m us)" \
		'awk -v m="$m" "BEGIN { exit !(m > 110) }"'
fi
# the mean is the profile's window over its ticks
wall=$(sed -n 's/.*: \([0-9.]*\) s, \([0-9]*\) ticks.*/\1 \2/p' "$tmp/a.err")
check "the mean interval is the run's wall time over its ticks ($wall: $m us)" \
	'echo "$wall" | awk -v m="$m" "{ w = \$1 * 1e6 / \$2; exit !(m > 0.97 * w && m < 1.03 * w) }"'

# 2. accuracy at the default against trace mode, same run
set -- $(worst "$tmp/a.data")
if awk -v w="$1" 'BEGIN { exit !(w <= 1.0) }'; then
	ok "default: sampled within 1 % of trace (worst $2, $1 %)"
elif grep -q "Total Time" "$tmp/a.rep" && ! unjudged "default: sampled within 1 % of trace (worst $2, $1 %)" "$tmp/a.err"; then
	fail "default: sampled within 1 % of trace (worst $2, $1 %)"
fi
run record --trace --force -o "$tmp/ph.data" -- build/workloads/phase
cp "$tmp/out" "$tmp/ph.err"
se=$(sed -n 's/.*at most ±\([0-9.]*\) %.*/\1/p' "$tmp/ph.err")
set -- $(worst "$tmp/ph.data")
if [ -n "$se" ] && awk -v w="$1" -v se="$se" 'BEGIN { exit !(w <= 3 * se) }'; then
	ok "a 1 ms phase at the default: within 3 x ±$se % of trace (worst $2, $1 %)"
elif ! unjudged "a 1 ms phase at the default: within 3 x ±$se % of trace (worst $2, $1 %)" "$tmp/ph.err"; then
	fail "a 1 ms phase at the default: within 3 x ±$se % of trace (worst $2, $1 %)"
fi

# 3. -i fixes the interval
run record -i 250us --force -o "$tmp/f.data" -- build/workloads/imbalance
check "record -i 250us: the rule is fixed" 'grep -q "interval fixed 250 us (-i), mean " "$tmp/out"'
run report "$tmp/f.data"
check "report: the rule is fixed" 'grep -q "^\*\* interval: fixed 250 us (-i), mean " "$tmp/out"'

# 4. make bench's item 6: well-formed rows (short runs; no figure judged).
# Not under a sanitizer build: its OpenMP stencil and the OMPT tool are
# built by clang, whose sanitizer runtime cannot share a process with GCC's
# in liblostcycles (record --omp exits 1: "incompatible ASan runtimes").
if [ -n "${LC_SAN:-}" ]; then
	echo "NOTE: t_cost: bench-cost.sh rows not run: under SAN=$LC_SAN the OpenMP stencil and the OMPT tool are built by clang, whose sanitizer runtime cannot share a process with GCC's in liblostcycles"
	finish
	exit
fi
PAIRS=1 STENCIL_STEPS=50 POOL_TASKS=50 COST_INTERVALS=default \
	sh scripts/bench-cost.sh > "$tmp/rows" 2> "$tmp/rows.err"
st=$?
cat "$tmp/rows" "$tmp/rows.err" > "$tmp/out"	# what a failed check shows
check "bench-cost.sh rows: 7 fields, breakdowns, slowdowns and the 64-thread row" \
	'awk -F"|" "NF != 7 || \$1 != \"row\" { bad = 1 } /breakdown: .*us per tick: wake-up/ { b++ } /slowdown by the sampler/ { s++ } /64 threads/ { t++ } END { exit bad || b < 2 || s < 2 || t != 1 }" "$tmp/rows"'
finish
