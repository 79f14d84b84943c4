#!/bin/sh
# t_tickdue.sh — a tick is charged by the slots as they were when it was
# due, not when the sampler ran (docs/shm-abi.md, "Stamps"): without a spare
# CPU the sampler's wake-up preempts one thread of a barrier-bound OpenMP
# program (tests/layers/omp_stencil.c, a barrier every ~50 us, record --omp)
# and the other reaches the barrier meanwhile; read then, the ticks saw
# load imbalance of 25-30 % of the run where the trace of the same run had
# 4 %.  Here the sampled load imbalance must agree with the trace of the
# same run (record --trace) within 2.5 % of the total time plus three
# standard errors, at the default interval and at -i 1ms.  (What is left
# is the wait a tick causes after it was due, about 11 us a tick: 1 % of
# the run at 1 ms.)  A run on a machine too busy to judge is not judged.
# Run from the top of the tree.
set -u
SUB=tickdue
. tests/lib.sh
lc_tmpdir
skip_under_tsan t_tickdue
[ -n "${LC_SAN:-}" ] && skip t_tickdue "under SAN=$LC_SAN the OpenMP program is built by clang, whose sanitizer runtime cannot share a process with GCC's in liblostcycles"
ST=build/layers/omp_stencil
need_built t_tickdue "$ST"
[ -e build/liblostcycles-omp.so ] || skip t_tickdue "build/liblostcycles-omp.so is not built (no OMPT-capable OpenMP runtime)"

# li FILE [SOURCE]: "percent se-percent" of the load imbalance of FILE
li() {
	"$LC" report --format csv ${2:+--source $2} "$1" 2>/dev/null | awk -F, '
		$1 == "li" { pct = $4; sec = $3; se = $7 }
		END { if (pct == "") exit 1
		      printf "%s %.4f", pct, (sec > 0 && se != "" ? se / sec * pct : 0) }'
}

for opt in default 1ms; do
	name="omp_stencil at $opt: sampled LI agrees with the trace"
	set -- --trace --force --omp
	[ "$opt" = default ] || set -- "$@" -i "$opt"
	OMP_NUM_THREADS=2 "$LC" record "$@" -o "$tmp/$opt.data" -- "$ST" 10000 \
		>"$tmp/$opt.out" 2>"$tmp/$opt.err"
	st=$?
	s=$(li "$tmp/$opt.data") || s=
	t=$(li "$tmp/$opt.data" trace) || t=
	if [ "$st" -ne 0 ] || [ -z "$s" ] || [ -z "$t" ]; then
		fail "$name: record exited $st, sampled '${s:-}', trace '${t:-}'"
		sed 's/^/      /' "$tmp/$opt.err"
		continue
	fi
	if awk -v s="$s" -v t="$t" 'BEGIN { split(s, a, " "); split(t, b, " ");
		d = a[1] - b[1]; d = d < 0 ? -d : d; exit !(d <= 2.5 + 3 * a[2]) }'; then
		ok "$name (sampled ${s% *} % +- ${s#* }, trace ${t% *} %)"
	else
		unjudged "$name (sampled ${s% *} %, trace ${t% *} %)" "$tmp/$opt.err" ||
			fail "$name: sampled ${s% *} % +- ${s#* }, trace ${t% *} %"
	fi
done
finish
