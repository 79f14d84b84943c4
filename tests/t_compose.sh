#!/bin/sh
# t_compose.sh — "lostcycles compose" end to end: --extract on an annotated
# source gives the expected structure; bad structures are refused with one
# line naming the node and line; --tune equals brute force on models with a
# known minimum; a fit --emit-comment comment, pasted into a source and
# extracted, composes to what predict says of the same model; and a reduced
# 2D FFT case study (examples/fft2d) on real runs (n = 128, 256, 512; p = 1,
# 2): the fragments of the task-parallel program are measured (lostcycles
# sweep) and fitted, the data-parallel program is composed from them and
# compared with its own runs, which the models never saw; the prediction
# must be within 75 % of the measurement on average (why, below).  Then
# --critical-path over the case study's trace of the task-parallel program.
# Run from the top of the tree with sh; exits non-zero on failure.
. tests/lib.sh
skip_under_tsan t_compose "the OpenMP FFT programs run on GCC's libgomp, which ThreadSanitizer cannot see into: it reports their pragmas' synchronization as races and the case study's timings lose their meaning"
set -u

LC=./lostcycles
D=tests/data/compose
[ -x "$LC" ] || { echo "t_compose: $LC is missing (run make)" >&2; exit 1; }
lc_tmpdir
# refuse NAME PATTERN ARGS...: exit 1 or 2 with one stderr line holding PATTERN.
refuse() {
	name=$1; pat=$2; shift 2
	"$LC" compose "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -ne 1 ] && [ "$st" -ne 2 ]; then fail "$name: exit status $st"; return; fi
	if ! grep -qF -- "$pat" "$tmp/err" || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		fail "$name: wanted one line with '$pat':"; sed 's/^/      /' "$tmp/err"; return
	fi
	ok "$name"
}
# close A B TOL: |A - B| <= TOL * |B|
close() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= t * m) }'; }

# ---- --extract -------------------------------------------------------------
if "$LC" compose --extract "$D/annotated.c" >"$tmp/x.lcm" 2>"$tmp/err" && diff -u "$D/annotated.lcm" "$tmp/x.lcm"; then
	ok "--extract gives the expected structure"
else
	fail "--extract"; cat "$tmp/err"
fi
# a name that is taken is changed, with a note naming the line
printf '/* lcm: name: main\n   lcm: model: rt(n,p) = 1 */\nLC_FRAGMENT_BEGIN(1); f(); LC_FRAGMENT_END(1);\n/* lcm: name: main\n   lcm: model: rt(n,p) = 2 */\nLC_FRAGMENT_BEGIN(2); g(); LC_FRAGMENT_END(2);\n' >"$tmp/names.c"
"$LC" compose --extract "$tmp/names.c" >"$tmp/out" 2>"$tmp/err"
if grep -q "^serial main: main_2 main_3" "$tmp/out" &&
   grep -qF "note: $tmp/names.c:3: node 'main' renamed 'main_2': 'main' is the root node" "$tmp/err" &&
   grep -qF "note: $tmp/names.c:6: node 'main' renamed 'main_3': 'main' is the root node" "$tmp/err"; then
	ok "--extract: renamed nodes are noted with their lines"
else
	fail "--extract renaming notes"; sed 's/^/      /' "$tmp/out" "$tmp/err"
fi
"$LC" compose --extract "$D/annotated.c" --at "n=256 p=4 k=4" --explain >"$tmp/out" 2>&1
# task1 takes 0.0593101 s, task2 0.0330957 s: task2, the faster, ends one of
# its 4 iterations after task1: 0.0593101 + 0.0330957/4 = 0.067584 s
has_lines "--explain names the rules; T by hand 0.067584 s" "$tmp/out" "load imbalance LI+" \
	"pipeline: task2 waits for the first of 4 iterations of task1" "^T(E) = sum C(E)/p = 0.067584 s"

# the transfer of a (1048576 bytes) to task2's 2 processors, priced from a
# calibrate --memory file: 1048576/64 lines x 40 ns = 0.00065536 s each
printf 'format=1\ntransfer_ns=40\ndram_ns=280\n' >"$tmp/mem"
"$LC" compose --extract "$D/annotated.c" --at "n=256 p=4 k=4" --memory="$tmp/mem" >"$tmp/out" 2>&1
has_lines "--memory: communication loss from the per-machine file" "$tmp/out" "^cl .* 0.00131072 "
refuse "--memory missing file" "run 'lostcycles calibrate --memory'" --extract "$D/annotated.c" --at "n=1 p=2 k=1" --memory="$tmp/nothere"

# ---- refusals --------------------------------------------------------------
printf 'serial main: fa code1\nfragment fa\n    model: rt(n,p) = n\nleaf code1\n' >"$tmp/h.lcm"
refuse "non-homogeneous node" "h.lcm:1: node 'main': children must be all nodes or all leaves" -s "$tmp/h.lcm" --at "n=1 p=1"
printf 'serial main: x\nparallel x: y\nserial y: main\n' >"$tmp/c.lcm"
refuse "cycle" "node 'main': the structure has a cycle: main -> x -> y -> main" -s "$tmp/c.lcm" --at "n=1 p=1"
printf 'serial main: fa\nfragment fa\n    model nothere.model\n' >"$tmp/u.lcm"
refuse "unknown model file" "u.lcm:2: node 'fa': model nothere.model: No such file or directory" -s "$tmp/u.lcm" --at "n=1 p=1"
refuse "missing structure" "nothere.lcm: No such file" -s "$tmp/nothere.lcm" --at "n=1 p=1"
printf 'serial main: f\nfragment f\n    model: rt(n,p) = n\n' >"$tmp/f.lcm"
refuse "no p" "needs p" -s "$tmp/f.lcm" --at "n=1"
refuse "bad transfer" "--transfer wants" --extract "$D/annotated.c" --at "n=1 p=2 k=1" --transfer "speed=3"
refuse "missing variable" "f.lcm:2: node 'f': its model uses 'n'" -s "$tmp/f.lcm" --at "p=2"

# ---- --tune ------------------------------------------------------------------
# T = n (p-3)^2/p + 1: the minimum is at p = 3, T = 1
printf 'serial main: f\nfragment f\n    model: rt(n,p) = n*(p-3)^2 + p\n' >"$tmp/t.lcm"
"$LC" compose -s "$tmp/t.lcm" --at "n=1" --tune "p=1..8" >"$tmp/out" 2>&1
has_lines "--tune p: minimum at p = 3 as brute force" "$tmp/out" "^search .*: n=1 p=3: T = 1 s" \
	"^brute force (8 points):  n=1 p=3: T = 1 s" "found the brute-force minimum"
# processors per task: a (6n of work) on q, b (2n) on p - q; the best split
# balances 6n/q = 2n/(8-q): q = 6, T = n
printf 'parallel main: a b\nfragment a\n    model: rt(n,p) = 6*n\n    p = q\nfragment b\n    model: rt(n,p) = 2*n\n    p = p - q\n' >"$tmp/q.lcm"
"$LC" compose -s "$tmp/q.lcm" --at "n=5 p=8" --tune "q=1..7" >"$tmp/out" 2>&1
has_lines "--tune processors per task: q = 6 of 8, T = n" "$tmp/out" \
	"^brute force (7 points):  n=5 p=8 q=6: T = 5 s" "^search .*q=6: T = 5 s"

# ---- --what-if -----------------------------------------------------------------
# a (6n) and b (2n) side by side on one processor each: T = 6n, LI = 4n;
# balanced (li=0): T = (6n + 2n)/2 = 4n; rt*=0.25: T = (2n + 4n)/2 = 3n
printf 'parallel main: a b\nfragment a\n    model: rt(n,p) = 6*n\n    p = 1\nfragment b\n    model: rt(n,p) = 2*n\n    p = 1\n' >"$tmp/w.lcm"
"$LC" compose -s "$tmp/w.lcm" --at "n=5 p=2" -w balanced -w "rt*=0.25" >"$tmp/out" 2>&1
has_lines "--what-if at a point: balanced and a scaled category, with gains" "$tmp/out" \
	"^T(E) = sum C(E)/p = 30 s" "^what-if balanced  *T = 20 s  gain 10 s (33.3%)" \
	"^what-if rt\*=0.25  *T = 15 s  gain 15 s (50.0%)"
"$LC" compose -s "$tmp/w.lcm" --grid "n=5,10 p=2" -w nowait -w li=0 >"$tmp/out" 2>&1
has_lines "--what-if over a grid: a column and gain per scenario" "$tmp/out" \
	"li=0  *gain%" "^ *10  *2  *60  .*  60  *0\.0  *40  *33\.3$"
refuse "--what-if: a bad scenario" "what-if 'zz=0': unknown category 'zz'" -s "$tmp/w.lcm" --at "n=5 p=2" -w zz=0
refuse "--what-if with --tune" "--what-if and --tune: give one of them" -s "$tmp/w.lcm" --at "n=5" --tune "p=1,2" -w balanced

# ---- fit --emit-comment round trip -------------------------------------------
R=tests/data/fit/runfast.runs
if "$LC" fit -c rt -v "n p" -f "$R" --emit "$tmp/rt.model" "n^2*log2(n) + 1" >/dev/null &&
   "$LC" fit -c rt -v "n p" -f "$R" --emit-comment "n^2*log2(n) + 1" >"$tmp/fit.out"; then
	{ echo "void f(void) {"; sed -n '/^\/\* lcm:/,/^ \*\//p' "$tmp/fit.out"; echo "LC_FRAGMENT_BEGIN(1); g(); LC_FRAGMENT_END(1); }"; } >"$tmp/src.c"
	"$LC" compose --extract "$tmp/src.c" --at "n=512 p=4" >"$tmp/c.out" 2>&1
	"$LC" predict -m "$tmp/rt.model" --at "n=512 p=4" >"$tmp/p.out" 2>&1
	# the rt line: C(E), its half width and C(E)/p
	a=$(grep "^rt " "$tmp/c.out")
	b=$(grep "^rt " "$tmp/p.out")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		ok "fit --emit-comment -> --extract -> compose = predict ($a)"
	else
		fail "emit-comment round trip: compose '$a' predict '$b'"; cat "$tmp/fit.out" "$tmp/c.out"
	fi
else
	fail "fit --emit-comment"
fi

# ---- --compare with a model file ------------------------------------------------
# one fragment whose model is the Table 5.3 task-parallel model: the same T
# as predict on that model file, at every point
printf 'serial main: f\nfragment f\n    model %s/tests/data/fit/fft_task.model\n' "$PWD" >"$tmp/one.lcm"
"$LC" compose -s "$tmp/one.lcm" --grid "n=16,64,256,1024 p=26" --compare tests/data/fit/fft_task.model >"$tmp/out" 2>&1
if [ "$(grep -c ' equal$' "$tmp/out")" -eq 4 ]; then
	ok "--compare MODEL: a one-fragment structure equals predict on its model"
else
	fail "--compare MODEL"; sed 's/^/      /' "$tmp/out"
fi
refuse "--compare neither" "neither a structure" -s "$tmp/one.lcm" --at "n=1 p=1" --compare "$D/annotated.c"

# ---- the reduced case study on real runs ---------------------------------------
# The tolerance: the mean relative error of the composed data-parallel
# prediction over the 6 points must be below 75 %.  Why so wide: the runs
# are short (10 to 400 ms at n = 128..512), each point is the median of 3,
# and this machine has 2 CPUs shared with other jobs.  Measured here (the
# reduced study run 18 times at load averages 6 to 11): the mean error was
# 10 to 53 % in 15 runs, and 111, 127 and 369 % in three, each with a point
# predicted 4 to 7 times its measurement (median of the 18: 38 %).  So the
# bound cannot be tighter, and a run above it is tried once more (noted)
# before the test fails: a systematic error fails both (unless the machine
# was measured too busy to judge them, lib.sh's machine_busy: then the test
# skips with the reason).
case_study() {
	rm -rf "$tmp/fft"
	# PICK=median: the rule the bound above was measured with (the
	# script's default now takes the fastest run)
	NS="128 256 512" PS="1 2" K=8 REPEATS=3 PICK=median sh examples/fft2d/case-study.sh "$tmp/fft" >"$tmp/cs.out" 2>&1
	st=$?
	err=$(sed -n 's/^mean relative error \([0-9.]*\)%.*/\1/p' "$tmp/fft/dp-error.txt" 2>/dev/null)
}
if [ ! -x build/examples/fft2d_tp ] || [ ! -x build/examples/fft2d_dp ]; then
	fail "case study: build/examples/fft2d_tp and fft2d_dp are missing (make examples)"
else
	case_study
	if [ "$st" -eq 0 ] && [ -n "$err" ] && ! awk -v e="$err" 'BEGIN { exit !(e < 75) }'; then
		echo "note  case study: mean relative error $err % (limit 75 %): measuring again"
		sed 's/^/      /' "$tmp/fft/dp-error.txt"
		case_study
	fi
	if [ "$st" -ne 0 ] || [ -z "$err" ]; then
		fail "case study: exit $st"; tail -n 30 "$tmp/cs.out" | sed 's/^/      /'
	elif awk -v e="$err" 'BEGIN { exit !(e < 75) }'; then
		ok "case study: the data-parallel program, composed from the task-parallel program's fragments alone, within $err % of its measurement (mean over 6 points, median of 3 runs each; limit 75 %)"
	else
		cat "$tmp/fft/dp-error.txt"
		unjudged "case study: mean relative error $err % (limit 75 %)" ||
			fail "case study: mean relative error $err % (limit 75 %)"
	fi
fi

# ---- --critical-path on a recorded run ---------------------------------------
# The case study's step 6 recorded the task-parallel program in trace mode
# (n = 512, p = 2, k = 8) and kept its trace files.  Composed over that
# trace at the same point: 4 tags x 8 matrices = 32 instances of the 2
# tasks; task2's first transpose waits for task1's first matrix, so the
# longest path starts with init#1; and the critical path agrees with the
# pipeline rule (the same pipeline, by another route) within 25 %.
refuse "--critical-path missing trace" "--critical-path $tmp/notrace: No such file" \
	--extract "$D/annotated.c" --at "n=1 p=2 k=1" --critical-path "$tmp/notrace"
if [ -f "$tmp/fft/tp.lcm" ] && [ -d "$tmp/fft/trace" ]; then
	"$LC" compose -s "$tmp/fft/tp.lcm" --at "n=512 p=2 k=8" --critical-path "$tmp/fft/trace" --explain >"$tmp/out" 2>&1
	tcp=$(sed -n 's/^T(E) = sum C(E)\/p = \([^ ]*\) s.*/\1/p' "$tmp/out")
	tpf=$("$LC" compose -s "$tmp/fft/tp.lcm" --at "n=512 p=2 k=8" 2>&1 | sed -n 's/^T(E) = sum C(E)\/p = \([^ ]*\) s.*/\1/p')
	if grep -q "critical path over $tmp/fft/trace: 32 fragment instances of 2 tasks, [1-9][0-9]* waits*" "$tmp/out" &&
	   grep -q "^ *path: init#1 " "$tmp/out" && [ -n "$tcp" ] && [ -n "$tpf" ] && close "$tcp" "$tpf" 0.25; then
		ok "--critical-path on a recorded run: 32 instances, the path starts at init#1, T = $tcp s (pipeline rule $tpf s)"
	else
		sed 's/^/      /' "$tmp/out"
		# the two times come from different runs: on a busy machine only
		# their agreement is not judged
		{ grep -q "critical path over $tmp/fft/trace: 32 fragment instances of 2 tasks, [1-9][0-9]* waits*" "$tmp/out" &&
		  grep -q "^ *path: init#1 " "$tmp/out" && [ -n "$tcp" ] && [ -n "$tpf" ] &&
		  unjudged "--critical-path T $tcp s against the pipeline rule's $tpf s"; } ||
			fail "--critical-path on a recorded run (T $tcp, pipeline rule $tpf)"
	fi
else
	fail "--critical-path: the case study left no structure or trace"
fi

echo "$ntest tests, $nfail failed"
end_unjudged t_compose
[ "$nfail" -eq 0 ]
