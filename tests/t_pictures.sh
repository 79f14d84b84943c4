#!/bin/sh
# t_pictures.sh — the pictures say what the numbers say.
#  - report --html's timeline has a time axis with its unit and ticks up to
#    the run's end, a processors axis up to p, a lane per thread; a run
#    whose sampler was stopped for 0.3 s (SIGSTOP) has the windows that
#    missed ticks marked there, and the page warns of it; the load and
#    shared-CPU notes of the text report are on the page too; Chromium
#    (when installed) renders the axes.
#  - predict --plot puts the grid variable that varies on x ("n=256
#    p=1..26": p, 26 points), or --x's; an unknown --x is refused.
#  - calibrate -g plots the noise that decided the recommendation: the
#    bound it judged (overhead + noise / 2) and the recommended interval
#    (or why there is none), as its table says.
#  - every chart colours a category as the HTML table does (report --plot,
#    fit -g, predict --profile).
SUB=pictures
. tests/lib.sh
DEMO=build/examples/demo
[ -x "$DEMO" ] || { echo "t_pictures: $DEMO is missing (run make examples)" >&2; exit 1; }
havegp=0
command -v gnuplot >/dev/null 2>&1 && havegp=1

# ---- the HTML timeline --------------------------------------------------
"$LC" record -q -o "$tmp/d.data" -- "$DEMO" >"$tmp/rec.out" 2>&1 &
rpid=$!
sleep 0.3
kill -STOP $rpid 2>/dev/null
sleep 0.3
kill -CONT $rpid 2>/dev/null
wait $rpid || { cat "$tmp/rec.out"; fail "record of the demo"; finish; }
"$LC" report "$tmp/d.data" >"$tmp/text" 2>&1
run report -f "$tmp/d.data" --html "$tmp/r.html"
check "--html writes the page" '[ -s "$tmp/r.html" ]'
sed -n '/<svg id="timeline"/,/<\/svg>/p' "$tmp/r.html" >"$tmp/tl"
p=$(sed -n 's/.*: p = \([0-9]*\) processors.*/\1/p' "$tmp/r.html" | head -n 1)
wall=$(sed -n 's/.*<p>The run.s \([0-9.]*\) s: .*/\1/p' "$tmp/r.html")
unit=$(sed -n 's/.*time since the start (\([^)]*\)).*/\1/p' "$tmp/tl")
ticks=$(sed -n '/id="time-axis"/,/<\/g>/p' "$tmp/tl" | grep -o 'text-anchor="middle">[0-9.e+-]*<' |
	sed 's/.*>\(.*\)</\1/' | tr '\n' ' ')
st=0
check "time axis in $unit with ticks $ticks(run of $wall s)" \
	'[ -n "$unit" ] && [ "$(echo $ticks | wc -w)" -ge 3 ] &&
	 echo "$ticks" | awk -v u="$unit" -v w="$wall" "{ s = u == \"s\" ? 1 : u == \"ms\" ? 1e-3 : 1e-6
		for (i = 2; i <= NF; i++) if (\$i <= \$(i - 1)) exit 1
		exit !(\$1 == 0 && \$NF * s <= w * 1.0001 && \$NF * s >= w / 2) }"'
top=$(sed -n '/id="procs-axis"/,/<\/g>/p' "$tmp/tl" | grep -o 'text-anchor="end">[0-9.]*<' |
	sed 's/.*>\(.*\)</\1/' | tail -n 1)
check "processors axis from 0 to p = $p (top tick $top)" '[ -n "$p" ] && [ "$top" = "$p" ] &&
	grep -q ">processors</text>" "$tmp/tl"'
nthr=$(grep -o "<text x=\"0\" y=\"[0-9]*\" font-size=\"12\">thread [0-9]* (tid" "$tmp/tl" | wc -l)
want=$(sed -n '/<svg id="threads"/,/<\/svg>/p' "$tmp/r.html" | grep -c '>thread [0-9]* (tid')
check "a lane per thread: $nthr of $want" '[ "$nthr" -eq "$want" ] && [ "$nthr" -ge 2 ]'
nmiss=$(grep -c 'class="missed"' "$tmp/tl")
stopped=$(grep -o 'class="missed"[^>]*><title>[0-9.]* s' "$tmp/tl" | sed 's/.*<title>\([0-9.]*\) s/\1/' |
	awk '$1 >= 0.2 && $1 <= 1.2 { n++ } END { print n + 0 }')
check "the stop's missed ticks are marked ($nmiss windows, $stopped between 0.2 and 1.2 s)" \
	'[ "$stopped" -ge 1 ] && grep -q "id=\"timeline-missed\"" "$tmp/r.html" &&
	 grep -Eq "id=\"(stall|missed)\"" "$tmp/r.html" && grep -q "sampler stalled\|fell behind" "$tmp/text"'
if grep -q "^\*\* note: other processes and the hypervisor held" "$tmp/text"; then
	check "the machine's load (text report) is marked on the timeline" \
		'grep -q "class=\"load\"" "$tmp/tl" && grep -q "id=\"timeline-load\"" "$tmp/r.html"'
fi
if grep -q "the sampler shared CPU" "$tmp/text"; then
	check "the shared CPU (text report) is said under the timeline" \
		'grep -q "id=\"timeline-shared\"" "$tmp/r.html"'
else
	check "no shared CPU in the text report, none on the page" \
		'! grep -q "id=\"timeline-shared\"" "$tmp/r.html"'
fi
if command -v chromium >/dev/null 2>&1; then
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" --dump-dom "file://$tmp/r.html" >"$tmp/dom" 2>/dev/null
	check "Chromium renders both axes and the marks" \
		'grep -q "<g id=\"time-axis\"" "$tmp/dom" && grep -q "<g id=\"procs-axis\"" "$tmp/dom" &&
		 grep -q "class=\"missed\"" "$tmp/dom"'
else
	echo "NOTE: t_pictures: chromium is not installed: the page is checked as written"
fi

# ---- predict --plot: the variable that varies -------------------------------
M=tests/data/fit/fft_data.model
run predict -m $M --grid "n=256 p=1..26" --plot "$tmp/t.png"
check "--grid \"n=256 p=1..26\": p on x, 26 points" \
	'grep -q "^set xlabel .p.$" "$tmp/t.gp" &&
	 [ "$(grep -v "^#" "$tmp/t.data" | awk "NF" | cut -d" " -f1 | tr "\n" " ")" = "$(seq 1 26 | tr "\n" " ")" ]'
run predict -m $M --grid "n=64,256,1024 p=1,2" --x n --plot "$tmp/n.png"
check "--x n: n on x, a curve per p" \
	'grep -q "^set xlabel .n.$" "$tmp/n.gp" && grep -q "index 1 using" "$tmp/n.gp" &&
	 ! grep -q "index 2 using" "$tmp/n.gp" && grep -q "^64 " "$tmp/n.data"'
[ $havegp -eq 0 ] || check "gnuplot drew it" '[ -s "$tmp/n.png" ]'
"$LC" predict -m $M --grid "n=256 p=1,2" --x q --plot "$tmp/q.png" >/dev/null 2>"$tmp/err"
e=$?
st=0
check "--x of no grid variable is refused (status $e)" \
	'[ $e -eq 1 ] && grep -q "^lostcycles predict: --x q: not a variable of --grid$" "$tmp/err" &&
	 [ ! -e "$tmp/q.gp" ]'
"$LC" predict -m $M --grid "n=256 p=1,2" --x p >/dev/null 2>"$tmp/err"
e=$?
check "--x without --plot is a usage error (status $e)" \
	'[ $e -eq 2 ] && grep -q "^lostcycles predict: --x needs --plot FILE.png$" "$tmp/err"'

# ---- calibrate -g: the noise that decided -----------------------------------
"$LC" calibrate -q -r 2 -i 100us,1ms -k "$tmp/cal" -g "$tmp/cal.png" >"$tmp/cal.out" 2>&1
st=$?
check "calibrate -g: its data holds the noise and the bound (bound = overhead + noise / 2)" \
	'awk "NF != 5 || \$5 < \$2 - 1e-6 || (\$5 - \$2 - \$4 / 2) ^ 2 > 1e-6 { bad = 1 } END { exit bad || NR != 2 }" \
	 "$tmp/cal/calibrate.dat" && grep -q "yerrorlines" "$tmp/cal/calibrate.gp" &&
	 grep -q "title .budget (1 %)" "$tmp/cal/calibrate.gp"'
rec=$(sed -n 's/^recommended: \(-i [0-9]*us\) (the smallest.*/\1/p' "$tmp/cal.out")
if [ -n "$rec" ]; then
	check "calibrate -g marks the recommended $rec" 'grep -q "recommended: $rec" "$tmp/cal/calibrate.gp"'
else
	check "calibrate -g says no interval was shown under the budget, as the table does" \
		'grep -q "no interval shown under the budget" "$tmp/cal/calibrate.gp" &&
		 grep -q "^recommended: .*the default" "$tmp/cal.out"'
fi
[ $havegp -eq 0 ] || check "gnuplot drew it" '[ -s "$tmp/cal.png" ]'

# ---- one palette ---------------------------------------------------------
# the table's swatch of each category, in order
sed -n 's/.*<span class="sw" style="background:\(#[0-9a-f]*\)"><\/span>.*/\1/p' "$tmp/r.html" >"$tmp/pal"
run report -f "$tmp/d.data" --plot "$tmp/p.png"
check "report --plot: the HTML table's colours, category by category" \
	'[ -s "$tmp/pal" ] && sed -n "s/^set linetype [0-9]* lc rgb .\(#[0-9a-f]*\).$/\1/p" "$tmp/p.gp" |
	 cmp -s - "$tmp/pal"'
run fit -c li -v p -f tests/data/fit/runfast.runs -x "n=256" -g "$tmp/li"
check "fit -g: li's measured points in li's colour" \
	'grep -q "title .measured" "$tmp/li.gp" && grep -q "lc rgb .$(head -n 1 "$tmp/pal")." "$tmp/li.gp"'
finish
