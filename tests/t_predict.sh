#!/bin/sh
# t_predict.sh — "lostcycles predict" end to end: the thesis's Table 5.3
# data- vs task-parallel 2D FFT comparison (one crossover near n = 64),
# per-category values at a point, what-if scenarios, grids with speedup,
# efficiency and scaling factor, a fit --emit / predict round trip, plots,
# the predicate profile chart, and bad input refused with one clear line.
# Run from the top of the tree with sh; exits non-zero on failure.
set -u

SUB=predict
. tests/lib.sh
D=tests/data/fit
R=$D/runfast.runs
havegp=0
command -v gnuplot >/dev/null 2>&1 && havegp=1
# is_png FILE
is_png() { [ "$(head -c 4 "$1" 2>/dev/null | tail -c 3)" = "PNG" ]; }

run predict --help
check "--help exits 0 with the usage" 'grep -q "usage: lostcycles predict" "$tmp/out"'

run predict -m $D/fft_data.model --compare $D/fft_task.model \
	--grid "n=16,32,...,1024 p=26"
check "Table 5.3: one crossover at n = 65.0163, task parallel faster below" \
	'[ "$(grep -c "faster below" "$tmp/out")" -eq 1 ] &&
	 grep -q "^  n = 65\.0163 p=26: B faster below, A faster above$" "$tmp/out"'
check "Table 5.3: B wins at n=16..64, A from n=128" \
	'[ "$(grep -c " B *$" "$tmp/out")" -eq 3 ] && [ "$(grep -c " A *$" "$tmp/out")" -eq 4 ]'

run predict -m $D/fft_data.model --at "n=64 p=26" -w balanced -w "ip=0 cl*=0.5"
check "--at: per-category values (rt = 64^2*log2(64)/3550)" \
	'grep -q "^rt .* 6\.92282 " "$tmp/out" && grep -q "^ip .* 3\.36 " "$tmp/out"'
check "--at: T(E) = sum C(E)/p" 'grep -q "^T(E) = sum C(E)/p = 0\.648336 s" "$tmp/out"'
check "--what-if: balanced and a combination, with gains" \
	'grep -q "^what-if balanced  *T = 0\.413904 s  gain 0\.2344 s (36\.2%)" "$tmp/out" &&
	 grep -q "^what-if ip=0 cl\*=0\.5 .*T = 0\.513819 s" "$tmp/out"'

rm -f "$tmp/m"
for c in li ip sl cl rt; do
	case $c in
	li) f="n*log(n)*p*sqrt(p)" ;;
	ip|cl) f="n^2*p" ;;
	sl) f="n^2*log(p)" ;;
	rt) f="n^2*log2(n)" ;;
	esac
	run fit -c $c -v "n p" -f $R "$f" --emit "$tmp/m"
	check "fit $c --emit" '[ "$(grep -c "^$c(" "$tmp/m")" -eq 1 ]'
done
run fit -c rc -v p -f $R -x "n=256" --emit "$tmp/m"
check "fit rc --emit" 'grep -q "^rc(p) = " "$tmp/m"'
run predict -m "$tmp/m" --grid "n=256 p=1,2,4,8,16,26" -w nowait
check "round trip: grid with speedup, efficiency and SF" \
	'grep -q "T(E) s .* speedup .* effic .* SF" "$tmp/out" &&
	 grep -q "^ *256  *1 .* 1  *1\.0000  *1\.0000 " "$tmp/out" &&
	 [ "$(grep -c "^ *256 " "$tmp/out")" -eq 6 ]'
check "round trip: prediction intervals are non-zero" \
	'! grep -q "^ *256  *26 .* [0-9.]*  *0  *[0-9.]*  *0\.[0-9]*  *0\.[0-9]* " "$tmp/out"'
check "T names the categories it leaves out (no model: ml bl wc)" \
	'grep -q "^note: T(E) excludes ml bl wc: .* so T counts them as 0" "$tmp/out"'
grep -v "^rc(" "$tmp/m" | grep -v "^#: rc " >"$tmp/m-norc"
run predict -m "$tmp/m-norc" --at "n=256 p=4"
check "a model without rc (runs before the scheduler was read): T, and the note names rc" \
	'grep -q "^T(E) = sum C(E)/p" "$tmp/out" && grep -q "^note: T(E) excludes rc ml bl wc" "$tmp/out"'

# p beyond the CPUs of the machine the runs were measured on (cpus= of -l)
printf 'p=1 rt=8 cpus=2\np=2 rt=4.1 cpus=2\np=2 rt=4.0 cpus=2\n' >"$tmp/c.runs"
"$LC" fit -c rt -v p -f "$tmp/c.runs" --emit "$tmp/c.model" "p^-1" >/dev/null 2>&1
"$LC" fit -c rt -v p -f "$tmp/c.runs" --emit "$tmp/c.model" "p^-1 + 1" >/dev/null 2>&1
check "fit --emit records the runs' CPUs once" '[ "$(grep -c "^%cpus 2$" "$tmp/c.model")" -eq 1 ]'
run predict -m "$tmp/c.model" --at "p=8"
check "p beyond the runs' CPUs is noted" \
	'grep -q "^note: p up to 8 exceeds the 2 CPUs of the machine the runs were measured on" "$tmp/out"'
run predict -m "$tmp/c.model" --grid "p=1,2"
check "p within the runs' CPUs: no note" '! grep -q "exceeds the 2 CPUs" "$tmp/out"'
# p beyond the CPUs was measured (4 threads on 2 CPUs): no extrapolation up to it
printf 'p=1 rt=8 cpus=2\np=2 rt=4.1 cpus=2\np=4 rt=2.1 cpus=2\n' >"$tmp/c4.runs"
"$LC" fit -c rt -v p -f "$tmp/c4.runs" --emit "$tmp/c4.model" "p^-1" >/dev/null 2>&1
run predict -m "$tmp/c4.model" --grid "p=1,2,4"
check "p beyond the CPUs but measured: no note; %pmax recorded" \
	'grep -q "^%pmax 4$" "$tmp/c4.model" && ! grep -q "exceeds the 2 CPUs" "$tmp/out"'
run predict -m "$tmp/c4.model" --at "p=8"
check "p beyond the largest measured p: the note" \
	'grep -q "^note: p up to 8 exceeds the 2 CPUs of the machine the runs were measured on and the largest p measured" "$tmp/out"'
printf 'tt(p) = 10 - 0.5*p\n' >"$tmp/neg.model"
run predict -m "$tmp/neg.model" --at "p=8"
check "a total-time model above zero: T(E) and a speedup" \
	'grep -q "^T(E) = sum C(E)/p = 0\.75 s" "$tmp/out" && ! grep -q "nan" "$tmp/out"'
refuse "a total-time model below zero at the point: refused with the reason, no -nan" 1 \
	"T(E) of $tmp/neg.model is not positive at p=32: its models are zero or below zero there" \
	-m "$tmp/neg.model" --at "p=32"
refuse "the same in a grid" 1 "is not positive at p=20" -m "$tmp/neg.model" --grid "p=1,20,40"
printf '%%cpus two\nrt(p) = p\n' >"$tmp/bad.model"
refuse "a bad %cpus line is refused with its line" 1 "bad.model:1" -m "$tmp/bad.model" --at "p=1"

if [ $havegp -eq 1 ]; then
	run predict -m "$tmp/m" --grid "p=1..26 n=64,256,1024" --plot "$tmp/t.png" --speedup
	check "--plot: speedup curves per n as a PNG" 'is_png "$tmp/t.png" && grep -q "index 2" "$tmp/t.gp"'
	run predict --profile $R -x "n=256" --plot "$tmp/pp.png"
	check "--profile: stacked-bar predicate profile" \
		'is_png "$tmp/pp.png" && grep -q "rowstacked" "$tmp/pp.gp" &&
		 [ "$(grep -c "^ *[0-9]" "$tmp/pp.data")" -eq 8 ]'
fi

printf 'li(p) = p\nbogus line\n' >"$tmp/bad.model"
refuse "model file: file:line" 1 "$tmp/bad.model:2: unknown category 'bogus'" -m "$tmp/bad.model" --at "p=2"
printf 'li(p) = p*(p\n' >"$tmp/bad.model"
refuse "model file: formula column" 1 "$tmp/bad.model:1: column 13: missing ')'" -m "$tmp/bad.model" --at "p=2"
run predict -m $D/fft_data.model --at "n=64"
check "no p: every category's C(E), and T(E) not computed" \
	'grep -q "^rt .* 6\.92282 " "$tmp/out" && grep -q "^T(E) = sum C(E)/p not computed: give p" "$tmp/out" &&
	 ! grep -q "speedup" "$tmp/out"'
printf 'rt(n) = n^2*log2(n)/3550\n' >"$tmp/rt.model"
run predict -m "$tmp/rt.model" --at "n=64"
check "one category in n alone: p not demanded, T and speedup not printed, missing ones named" \
	'grep -q "^rt .* 6\.92282 " "$tmp/out" &&
	 grep -q "^T(E) not computed: .* has no model for li ip sl cl (T = sum C(E)/p needs rt li ip sl cl, or tt alone)" "$tmp/out" &&
	 ! grep -q "speedup\|efficiency" "$tmp/out"'
run predict -m "$tmp/rt.model" --grid "n=64,128"
check "--grid over a subset prints each C(E), not C(E)/p" \
	'grep -q "^ *n  *rt *$" "$tmp/out" && grep -q "^ *64  *6\.92282 *$" "$tmp/out" && grep -q "^ *128  *32\.3065 *$" "$tmp/out"'
printf '%%log e\nrt(n) = 1000*log(n)\n%%log 2\nli(n) = 1000*log(n)\n' >"$tmp/log.model"
run predict -m "$tmp/log.model" --at "n=64"
check "a file with %log e still reads log() as natural; log2 is the default" \
	'grep -q "^rt .* 4158\.88 " "$tmp/out" && grep -q "^li .* 6000 " "$tmp/out"'
printf 'rt(n) = 1000*log(n)\n' >"$tmp/log.model"
run predict -m "$tmp/log.model" --at "n=64"
check "without %log, log() is log2" 'grep -q "^rt .* 6000 " "$tmp/out"'
printf 'rt(n,p) = n^2*log2(n)/3550\n' >"$tmp/rt.model"
run predict -m "$tmp/rt.model" --grid "n=64,128"
check "a variable declared but not read is not demanded" \
	'grep -q "^ *128  *32\.3065$" "$tmp/out"'
refuse "what-if without T" 1 "--what-if needs T(E) = sum C(E)/p, but $tmp/rt.model has no model for li ip sl cl" \
	-m "$tmp/rt.model" --at "n=64 p=2" -w nowait
refuse "unknown variable" 1 "unknown variable 'q' (the model uses: n)" -m $D/fft_data.model --at "q=1 p=2"
refuse "missing variable" 1 "the model of rt uses 'n'; give it in --at" -m $D/fft_data.model --at "p=2"
refuse "bad what-if" 1 "what-if 'zz=0': unknown category 'zz'" -m $D/fft_data.model --at "n=64 p=2" -w zz=0
refuse "bad grid" 1 "--grid 'n=1,x p=2': n: 'x' is not a number" -m $D/fft_data.model --grid "n=1,x p=2"
refuse "no --at/--grid" 1 "give one of --at or --grid" -m $D/fft_data.model
refuse "missing model file" 1 "$tmp/none: No such file or directory" -m "$tmp/none" --at "p=1"
refuse "--profile without --plot" 2 "--profile needs --plot" --profile $R
refuse "--profile of a missing file" 1 "$tmp/none: No such file or directory" --profile "$tmp/none" --plot "$tmp/x.png"

# past the data ("%range" of the runs a model was fitted to): how far, the
# interval widened 1 + log2(ratio), and a model that turns or goes below
# zero between its runs and the point asked refused with the reason
printf 'sl(p) = 0.2/p + 0.006*log2(p)\n#: sl dof=10 s2=1e-06 cov=1e-06,0,0,1e-08\n%%range sl p=1..8\n' >"$tmp/turn.model"
printf 'sl(p) = 0.2/p + 0.006*log2(p)\n#: sl dof=10 s2=1e-06 cov=1e-06,0,0,1e-08\n' >"$tmp/norange.model"
refuse "a model that turns between its runs and --at: refused, where it turns" 1 \
	"the model of sl turns (is not monotone) at p=2" -m "$tmp/turn.model" --at p=64
refuse "the same for a --grid point" 1 "and p=32: it holds only inside them" \
	-m "$tmp/turn.model" --grid p=2,8,32
printf 'rt(p) = 1\nli(p) = 0\nip(p) = 0\ncl(p) = 0\n' >"$tmp/rest.model"
cat "$tmp/rest.model" "$tmp/norange.model" >"$tmp/a.model"
cat "$tmp/rest.model" "$tmp/turn.model" >"$tmp/b.model"
refuse "the same for the model of --compare" 1 "the model of sl turns (is not monotone)" \
	-m "$tmp/a.model" --compare "$tmp/b.model" --at p=64
printf 'rt(p) = 10 - p\n%%range rt p=1..4\n' >"$tmp/neg.model"
refuse "a model below zero between its runs and --at: refused" 1 \
	"the model of rt goes below zero at p=1" -m "$tmp/neg.model" --at p=16
run predict -m "$tmp/norange.model" --at p=16
h0=$(awk '$1 == "sl" { print $(NF-1) }' "$tmp/out")
run predict -m "$tmp/turn.model" --at p=16
h1=$(awk '$1 == "sl" { print $(NF-1) }' "$tmp/out")
check "how far past the data: p=16 is 2x the largest measured; the interval ${h1:-?} is 2x ${h0:-?}" \
	'grep -q "^past the data: p=16 is 2x the largest measured (8); the 90% intervals are widened 2x" "$tmp/out" &&
	 awk -v a="$h1" -v b="$h0" "BEGIN { r = a / b; exit !(r > 1.99 && r < 2.01) }"'
run predict -m "$tmp/turn.model" --at p=8
check "inside the data: no note, no widening" '! grep -q "past the data" "$tmp/out"'
printf 'sl(p) = 0.2/p + 0.006*log2(p)\n%%range sl p=1..x\n' >"$tmp/bad.model"
refuse "a bad %range line: its line and what it wants" 1 "bad.model:2: '%range' wants VAR=LO..HI" \
	-m "$tmp/bad.model" --at p=4

finish
