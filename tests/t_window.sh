#!/bin/sh
# t_window.sh — the timeline's window schedule, end to end.
#
# phase (one thread, busy for the first half of every millisecond for 2 s:
# the truth is half computation, half load imbalance) is recorded at 100us
# with "-w 1ms --window-grow 8" and with "-w 1ms" (fixed windows).  The
# growing run's timeline (report --timeline --format csv) has contiguous
# windows on the schedule: 8 of 1 ms, then 4 of 2 ms, 4 of 4 ms, ...,
# judged from consecutive start times; every window of the fixed run is
# 1 ms long.  Both runs are recorded with --trace: each one's sampled busy
# share is within 0.15 of its exact trace share (as in t_jitter.sh, whose
# header says why the truth is not one half on a busy machine; a run that
# misses it while its sampler fell behind is tried again, up to three
# times), their wall times agree within 5 % and lie within 2.0-2.3 s, each
# timeline adds up to its run's totals, and the growing profile is under a
# quarter of the fixed one's size.  With --trace, the trace source's windows are the
# sampled source's.  Bad --window-grow values (odd, 1, negative, text) are
# refused by record and exec with exit 2 and one message, creating nothing.
# Shares and wall times that miss on a machine measured too busy to judge
# them (lib.sh's machine_busy) are not judged: the test skips with the
# reason.
SUB=window
. tests/lib.sh
skip_under_tsan t_window "its sampled times are judged against the program's within tolerances that ThreadSanitizer, slowing the sampler and the program 5-15x, does not leave"
# refuse_by CMD ...: lib.sh's refuse for subcommand CMD
refuse_by() {
	keep=$SUB; SUB=$1; shift
	refuse "$@"
	SUB=$keep
}
W=build/workloads/phase
need_built t_window "$W"

# timeline FILE: "index start total" per window of FILE's timeline, by the
# CSV's column names (columns may be added)
timeline() {
	"$LC" report --timeline --format csv "$1" 2>/dev/null | awk -F, '
		/^window,start,/ { for (i = 1; i <= NF; i++) col[$i] = i; t = 1; next }
		t && NF > 3 { print $(col["window"]), $(col["start"]), $(col["total"]) }'
}

# totals FILE: "share wall tt trace-share" — the busy share (rt and rc, as
# t_jitter.sh counts it, over those and li), the wall time and the total
# time of the sampled source, and the trace source's busy share
totals() {
	ts=$("$LC" report --source trace --format csv "$1" 2>/dev/null | awk -F, '
		$1 == "rt" || $1 == "rc" { b += $3 } $1 == "li" { li = $3 }
		END { if (b + li > 0) printf "%.4f", b / (b + li) }')
	"$LC" report --format csv "$1" 2>/dev/null | awk -F, -v ts="$ts" '
		$1 == "rt" || $1 == "rc" { b += $3 } $1 == "li" { li = $3 }
		$1 == "wall" { wall = $3 } $1 == "tt" { tt = $3 }
		END { if (b + li > 0) printf "%.4f %.6f %.9f %s\n", b / (b + li), wall, tt, ts }'
}

# rec NAME ARGS...: record phase into $tmp/NAME.data with its timeline in
# NAME.tl and its totals in NAME.tot; 1 when its sampled share is off the
# trace's while the sampler fell behind (try again), 2 when record failed
rec() {
	name=$1; shift
	rm -f "$tmp/$name.data"
	"$LC" record --trace -i 100us "$@" -o "$tmp/$name.data" -- "$W" 2>"$tmp/$name.err" || return 2
	[ -s "$tmp/$name.data" ] || return 2
	timeline "$tmp/$name.data" >"$tmp/$name.tl"
	totals "$tmp/$name.data" >"$tmp/$name.tot"
	awk '{ d = $1 - $4; exit !(NF == 4 && d > -0.15 && d < 0.15) }' "$tmp/$name.tot" ||
		! grep -q "fell behind" "$tmp/$name.err"
}

for run in grow fixed; do
	if [ $run = grow ]; then set -- -w 1ms --window-grow 8; else set -- -w 1ms; fi
	for try in 1 2 3; do
		rec $run "$@"
		r=$?
		[ $r -ne 1 ] && break
		echo "NOTE: $run try $try: busy share $(cut -d' ' -f1 "$tmp/$run.tot") (trace $(cut -d' ' -f4 "$tmp/$run.tot")); $(grep "fell behind" "$tmp/$run.err")"
	done
	if [ $r -eq 2 ]; then
		fail "record $* failed"; sed 's/^/      /' "$tmp/$run.err"; finish; exit 1
	fi
done

# the growing run: window i on the schedule of base 1 ms and growth 8 (the
# rule of lc_window_span), each as long as the next one's start says
awk -v b=0.001 -v g=8 '
	function abs(x) { return x < 0 ? -x : x }
	{ idx[n] = $1; st[n] = $2; n++ }
	END {
		for (k = 0; k < n; k++) {
			i = idx[k]
			if (i != k) { printf "window %d is numbered %d: not contiguous\n", k, i; exit 1 }
			if (i < g) { s = i * b; l = b }
			else { lv = 1 + int((i - g) / (g / 2)); l = b * 2 ^ lv; s = g * b * 2 ^ (lv - 1) + ((i - g) % (g / 2)) * l }
			if (abs(st[k] - s) > 1e-7) { printf "window %d starts at %.9f s, the schedule says %.9f s\n", i, st[k], s; bad = 1 }
			if (k + 1 < n && abs(st[k + 1] - st[k] - l) > 1e-7) {
				printf "window %d is %.6f s long (to the next start), the schedule says %.6f s\n", i, st[k + 1] - st[k], l; bad = 1
			}
			if (k + 1 < n) { len = sprintf("%g ms", (st[k + 1] - st[k]) * 1000); if (len != last) { if (last != "") out = out cnt " x " last ", "; cnt = 0; last = len }; cnt++ }
		}
		printf "%d windows: %s%d x %s, and the last\n", n, out, cnt, last
		exit bad || n < 30 || n > 60
	}' "$tmp/grow.tl" >"$tmp/j" 2>&1
verdict "-w 1ms --window-grow 8: contiguous windows whose lengths double as the schedule says" $? "$tmp/j"

awk -v b=0.001 '
	function abs(x) { return x < 0 ? -x : x }
	{ idx[n] = $1; st[n] = $2; n++ }
	END {
		for (k = 0; k < n; k++) {
			if (idx[k] != k) { printf "window %d is numbered %d\n", k, idx[k]; exit 1 }
			if (k + 1 < n && abs(st[k + 1] - st[k] - b) > 1e-7) { printf "window %d is %.6f s long\n", k, st[k + 1] - st[k]; bad = 1 }
		}
		printf "%d windows, all %g ms long\n", n, b * 1000
		exit bad || n < 1900
	}' "$tmp/fixed.tl" >"$tmp/j" 2>&1
verdict "-w 1ms: fixed windows, all of the same length" $? "$tmp/j"

# each timeline adds up to its run's total time
for run in grow fixed; do
	awk 'FNR == NR { tt = $3; next } { s += $3; n++ }
		END { d = s - tt; if (d < 0) d = -d; printf "%s: %d windows add up to %.9f s, total %.9f s\n", FILENAME, n, s, tt; exit !(n > 0 && d < 1e-5) }' \
		"$tmp/$run.tot" "$tmp/$run.tl" >"$tmp/j" 2>&1
	sed -i "s|$tmp/||" "$tmp/j"
	verdict "$run: the timeline adds up to the totals" $? "$tmp/j"
done

# both runs against the program's truth and against each other
read gs gw gt gx <"$tmp/grow.tot"
read fs fw ft fx <"$tmp/fixed.tot"
awk -v gs="$gs" -v gw="$gw" -v gx="$gx" -v fs="$fs" -v fw="$fw" -v fx="$fx" 'BEGIN {
	printf "busy share: growing %.3f (trace %.3f), fixed %.3f (trace %.3f); wall: growing %.3f s, fixed %.3f s (the program: 2 s)\n", gs, gx, fs, fx, gw, fw
	d = gs - gx; if (d < 0) d = -d; c = fs - fx; if (c < 0) c = -c; e = gw - fw; if (e < 0) e = -e
	exit !(gx != "" && fx != "" && d < 0.15 && c < 0.15 &&
	       gw >= 2.0 && gw < 2.3 && fw >= 2.0 && fw < 2.3 && e < 0.05 * fw)
}' >"$tmp/j" 2>&1
st=$?
sed 's/^/  /' "$tmp/j"
if [ "$st" -eq 0 ]; then
	ok "growing and fixed windows: the shares of the trace, the program's wall time"
else
	unjudged "growing and fixed windows' totals" "$tmp/grow.err" "$tmp/fixed.err" ||
		fail "growing and fixed windows: the same totals, the program's"
fi

gb=$(wc -c <"$tmp/grow.data"); fb=$(wc -c <"$tmp/fixed.data")
echo "  profile size: growing $gb bytes, fixed $fb bytes"
if [ "$gb" -gt 0 ] && [ $((gb * 4)) -lt "$fb" ]; then ok "the growing profile is under a quarter of the fixed one"
else fail "the growing profile ($gb bytes) is not under a quarter of the fixed one ($fb bytes)"; fi

# trace mode replays the log through the same schedule: its windows are
# the sampled ones
"$LC" record -q --trace -i 100us -w 1ms --window-grow 8 -o "$tmp/tr.data" -- "$W" 2>"$tmp/tr.err"
for src in sampled trace; do
	"$LC" report --source $src --timeline --format csv "$tmp/tr.data" 2>/dev/null |
		awk -F, '/^window,start,/ { t = 1; next } t && NF > 3 { print $1, $2 }' >"$tmp/tr.$src"
done
if [ "$(wc -l <"$tmp/tr.trace")" -gt 30 ] && cmp -s "$tmp/tr.sampled" "$tmp/tr.trace"; then
	ok "--trace: the trace source's $(wc -l <"$tmp/tr.trace") windows are the sampled source's"
else
	fail "--trace: the trace source's windows differ from the sampled ones"
	diff "$tmp/tr.sampled" "$tmp/tr.trace" | head -5 | sed 's/^/      /'; sed 's/^/      /' "$tmp/tr.err"
fi

# bad growths: refused before anything is created
for bad in 3 1 -2 abc 2x ""; do
	refuse_by record "record --window-grow='$bad' refused" 2 "bad --window-grow" --window-grow="$bad" -o "$tmp/bad.data" -- true
	[ ! -e "$tmp/bad.data" ] || { fail "record --window-grow='$bad' created its output"; rm -f "$tmp/bad.data"; }
done
refuse_by exec "exec --window-grow=7 refused" 2 "bad --window-grow" --window-grow=7 -o "$tmp/bad" -- true
refuse_by exec "exec --window-grow=-4 refused" 2 "bad --window-grow" --window-grow=-4 -o "$tmp/bad" -- true
finish
