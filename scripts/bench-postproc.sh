#!/bin/sh
# bench-postproc.sh — post-processing at scale: "report" (every view, the
# timeline included) on synthetic 256-thread profiles of 1 and 4 minutes
# (build/bench/genprofile, written with the profile writer), extrapolated to
# one hour; "fit" on 10^5 runs lines, with the default forms and with
# --search; "predict --grid" over 10^6 points.  Wall time and peak memory
# from /usr/bin/time.  The one-hour profile's size with zstd -3 says what
# a compression library would buy.
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
for s in 60 240; do
	timed "$tmp/gen$s" "$gen" "$tmp/p$s.data" "$s" 256 16
	: > "$tmp/rep$s"
	echo "$views" | tr '|' '\n' | while read -r v; do
		# shellcheck disable=SC2086
		timed "$tmp/one" ./lostcycles report $v "$tmp/p$s.data"
		cat "$tmp/one" >> "$tmp/rep$s"
	done
	echo "bench-postproc: ${s} s profile: $(wc -c < "$tmp/p$s.data") bytes; report views (s KB): $(tr '\n' ' ' < "$tmp/rep$s")" >&2
done
z=$(zstd -q -3 -c "$tmp/p60.data" | wc -c)
awk -v a="$(wc -c < "$tmp/p60.data")" -v b="$(wc -c < "$tmp/p240.data")" -v z="$z" \
    -v r1="$(awk '$1 > t { t = $1 } $2 > m { m = $2 } END { print t, m }' "$tmp/rep60")" \
    -v r4="$(awk '$1 > t { t = $1 } $2 > m { m = $2 } END { print t, m }' "$tmp/rep240")" 'BEGIN {
	split(r1, x, " "); split(r4, y, " ")
	hour = b * 15; zh = hour * z / a
	printf "row|5 post-processing|one-hour 256-thread profile (10 ms windows)|%.0f MB (1 min %.1f MB, 4 min %.1f MB); zstd -3: %.0f MB|%.1f x goal|<= 100 MB|MISSED x%.0f: a row of ~22 bytes per thread per 10 ms window; zstd -3 gives x%.1f, %s\n",
	       hour / 1e6, a / 1e6, b / 1e6, zh / 1e6, hour / 1e8, hour / 1e8, a / z,
	       zh <= 1e8 ? "enough" : "not enough: needs rows that store only changes"
	th = x[1] + (y[1] - x[1]) / 3 * 59; mh = x[2] + (y[2] - x[2]) / 3 * 59
	printf "row|5 post-processing|report, slowest of 7 views (timeline incl.)|1 min %.2f s %.0f MB; 4 min %.2f s %.0f MB; 1 h (extrapolated) %.0f s %.1f GB|%.2f x 1 min (time), %.2f x (memory) at 4x length|<= 1 s; memory independent of length|%s\n",
	       x[1], x[2] / 1e3, y[1], y[2] / 1e3, th, mh / 1e6, y[1] / x[1], y[2] / x[2],
	       y[2] / x[2] < 1.5 ? "memory met" : "MISSED: the reader holds every window in memory (not streaming); memory and time grow with length"
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
