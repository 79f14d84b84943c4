#!/bin/sh
# bench-postproc.sh — post-processing at scale: "report" (every view, the
# timeline included) on synthetic 256-thread profiles of 1 minute, 4 minutes
# and one hour (build/bench/genprofile, written with the profile writer and
# record's default window schedule: 10 ms, doubling after 4096 windows); the
# profile's size, and what fixed 10 ms windows would give (1 minute x 60);
# "fit" on 10^5 runs lines, with the default forms and with --search;
# "predict --grid" over 10^6 points.  Wall time and peak memory from
# /usr/bin/time.
#
# Prints the benchmark table's rows ("row|5 post-processing|...") on stdout.
set -eu
gen=build/bench/genprofile
[ -x "$gen" ] || { echo "bench-postproc: $gen not built (make bench)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/lostcycles-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# timed OUT CMD...: "seconds peakKB" of CMD into OUT (its output discarded)
timed() {
	out=$1
	shift
	/usr/bin/time -f '%e %M' -o "$out" "$@" > /dev/null 2>&1 || { echo "bench-postproc: $* failed" >&2; exit 1; }
}
views="|--per-thread|--timeline|--tags|--counters|-t 1|--format json"
for s in 60 240 3600; do
	timed "$tmp/gen$s" "$gen" "$tmp/p$s.data" "$s" 256 16
	: > "$tmp/rep$s"
	echo "$views" | tr '|' '\n' | while read -r v; do
		# shellcheck disable=SC2086
		timed "$tmp/one" ./lostcycles report $v "$tmp/p$s.data"
		cat "$tmp/one" >> "$tmp/rep$s"
	done
	echo "bench-postproc: ${s} s profile: $(wc -c < "$tmp/p$s.data") bytes; report views (s KB): $(tr '\n' ' ' < "$tmp/rep$s")" >&2
done
# The same minute with fixed 10 ms windows (-w 10ms): what an hour of them is.
timed "$tmp/genfix" "$gen" "$tmp/fixed.data" 60 256 16 10 0
fixed=$(wc -c < "$tmp/fixed.data")
rm -f "$tmp/fixed.data"
slow() { awk '$1 > t { t = $1 } $2 > m { m = $2 } END { print t, m }' "$1"; }
awk -v a="$(wc -c < "$tmp/p60.data")" -v b="$(wc -c < "$tmp/p240.data")" -v h="$(wc -c < "$tmp/p3600.data")" \
    -v fixed="$fixed" -v r1="$(slow "$tmp/rep60")" -v r4="$(slow "$tmp/rep240")" -v rh="$(slow "$tmp/rep3600")" 'BEGIN {
	split(r1, x, " "); split(r4, y, " "); split(rh, z, " ")
	printf "row|5 post-processing|one-hour 256-thread profile (record'"'"'s default windows: 10 ms, doubling after 4096)|%.1f MB (1 min %.1f MB, 4 min %.1f MB); fixed 10 ms windows (-w 10ms): %.0f MB an hour (1 min x 60)|%.2f x goal|<= 100 MB|%s\n",
	       h / 1e6, a / 1e6, b / 1e6, fixed * 60 / 1e6, h / 1e8,
	       h <= 1e8 ? "met" : sprintf("MISSED by %.0f %%", (h / 1e8 - 1) * 100)
	printf "row|5 post-processing|report, slowest of 7 views (timeline incl.)|1 min %.2f s %.0f MB; 4 min %.2f s %.0f MB; 1 h %.2f s %.0f MB|%.2f x 1 min (memory at 60 x length)|<= 1 s; memory independent of length|%s\n",
	       x[1], x[2] / 1e3, y[1], y[2] / 1e3, z[1], z[2] / 1e3, z[2] / x[2],
	       (z[1] <= 1 ? "time met" : sprintf("time MISSED by %.0f %%", (z[1] - 1) * 100)) "; " \
	       (z[2] / x[2] < 1.5 ? "memory met" : sprintf("memory MISSED: %.1f x at 60 x the length", z[2] / x[2]))
}'
# 10^5 runs lines: li = 0.01 n log2 p, sl = 0.001 n p, +-2.5 % noise
awk 'BEGIN { srand(1); for (i = 0; i < 100000; i++) {
	p = 2 ^ (i % 7); n = 1024 * 2 ^ (int(i / 7) % 5); li = 0.01 * n * log(p) / log(2) * (1 + 0.05 * (rand() - .5))
	printf "n=%d p=%d li=%.6f ip=0 sl=%.6f cl=0 rc=0 ml=na bl=0 wc=0 cpus=2 rt=%.6f tt=%.6f\n",
	       n, p, li, 0.001 * p * n * (1 + 0.05 * (rand() - .5)), n * 0.1, n * 0.1 + li } }' > "$tmp/runs"
timed "$tmp/fit" ./lostcycles fit -c sl -v p -x n=1024 -f "$tmp/runs"
timed "$tmp/search" ./lostcycles fit -c li -v "n p" -f "$tmp/runs" --search --emit "$tmp/model"
timed "$tmp/pred" ./lostcycles predict -m "$tmp/model" --grid "n=1..1000 p=1..1000"
for k in fit search pred; do
	case $k in
	fit) what="fit, default forms, 10^5 runs lines" ;;
	search) what="fit --search over n p, 10^5 runs lines" ;;
	pred) what="predict --grid, 10^6 points" ;;
	esac
	awk -v what="$what" '{ printf "row|5 post-processing|%s|%.2f s, %.0f MB peak|-|-|\n", what, $1, $2 / 1e3 }' "$tmp/$k"
done
