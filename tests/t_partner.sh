#!/bin/sh
# t_partner.sh — waits for a partner that waits for a CPU, and short
# regions, on an unmodified OpenMP program whose threads compute on the CPU
# (tests/layers/omp_partner.c, record --omp) beside two CPU-bound processes
# this test starts and ends by pid:
#   - balanced (every thread the same work per region): LI + SL <= 3 % of
#     the total time, and resource contention carries the rest of what the
#     program did not compute;
#   - skewed (thread t computes 1 + t/2 times as long): LI within 3 % of
#     the total time of the program's own probe (the CPU time the last
#     thread computed while the others waited for it);
#   - a balanced loop of short iterations and a skewed loop, in two functions:
#     report --where=li ranks the skewed loop first, and each function's
#     LI is within 3 % of the total time of the probe's;
#   - short regions (2 ms a thread): each thread's computation within 5 %
#     (and three standard errors of its tick sampling)
#     of its own CPU time in the work (the master's with its serial parts);
#   - a run of a few tenths of a second: the report's header and -l line
#     carry the machine's share, measured from its start to its end.
# A run the machine made impossible to judge exits 77 with the figure: the
# sampler missed more than a fifth of its ticks, or the program's threads
# got less than 3 % of their CPUs (the rest went to many other programs);
# the checks of resource contention are not judged either when the two
# CPU-bound processes took no CPU from the program (a machine of more
# CPUs: nothing to judge).  Run from the top of the tree.
set -u
SUB=partner
. tests/lib.sh
# the partners' rule and the two-part charge, off by default (waits.h)
export LC_PARTNER_RULE=1
skip_under_tsan t_partner
PROG=build/layers/omp_partner
hogs_trap
if [ -n "${LC_SAN:-}" ]; then
	skip t_partner "under SAN=$LC_SAN the OpenMP program and the OMPT tool are built by clang, whose sanitizer runtime cannot share a process with GCC's in liblostcycles"
fi
[ -x "$PROG" ] && [ -e build/liblostcycles-omp.so ] ||
	skip t_partner "no OpenMP layer or program (clang, libomp-dev)"
skipped=



# run LABEL ARGS...: record the program with ARGS beside the two hogs into
# $tmp/LABEL.*; its report -l line in LABEL.l; "" or why it cannot judge
# (in $why)
run_beside() {
	label=$1
	shift
	hogs
	OMP_NUM_THREADS=2 "$LC" record --force --omp -o "$tmp/$label.data" -- "$PROG" "$@" \
		>"$tmp/$label.out" 2>"$tmp/$label.err"
	st=$?
	unhog
	"$LC" report -l "$tmp/$label.data" >"$tmp/$label.l" 2>/dev/null
	miss=$(sed -n 's/.*and \([0-9]*\) ticks (\([0-9.]*\) %) were missed.*/\2/p' "$tmp/$label.err" | head -1)
	cpu=$(lfield cpu "$tmp/$label.out") wall=$(lfield wall "$tmp/$label.out")
	why=$(awk -v m="${miss:-0}" -v c="${cpu:-0}" -v w="${wall:-1}" 'BEGIN {
		if (m > 20) { printf "the sampler missed %s %% of its ticks", m; exit }
		if (c < 0.03 * 2 * w) printf "the program got %.1f %% of its 2 CPUs", 100 * c / (2 * w)
	}')
	if [ "$st" -ne 0 ] || [ -z "$cpu" ]; then
		fail "$label: record exited $st"; cat "$tmp/$label.err"
		return 1
	fi
	if [ -n "$why" ]; then
		echo "skip  $label: the machine was too busy to judge: $why"
		skipped="$skipped $label"
		return 1
	fi
	return 0
}

# quiet LABEL: the hogs took no CPU from the program (load= of its -l line
# under 20 %): resource contention has nothing to show
quiet() { awk -v l="$(lfield load "$tmp/$1.l")" 'BEGIN { exit !(l != "" && l < 20) }'; }

# ---- balanced: no load imbalance, resource contention carries the rest ----
if run_beside bal 60 10 0; then
	tt=$(lfield tt "$tmp/bal.l") li=$(lfield li "$tmp/bal.l") sl=$(lfield sl "$tmp/bal.l")
	rc=$(lfield rc "$tmp/bal.l") rt=$(lfield rt "$tmp/bal.l") ip=$(lfield ip "$tmp/bal.l")
	echo "  balanced: tt $tt: li $li sl $sl rc $rc rt $rt ip $ip, load $(lfield load "$tmp/bal.l") %"
	if awk -v tt="$tt" -v li="$li" -v sl="$sl" 'BEGIN { exit !(li + sl <= 0.03 * tt) }'; then
		ok "balanced beside two CPU-bound processes: LI + SL <= 3 % of total"
	else
		fail "balanced beside two CPU-bound processes: LI + SL = $li + $sl > 3 % of $tt"
	fi
	if quiet bal; then
		echo "skip  balanced: RC not judged: the two CPU-bound processes took no CPU from the program"
	elif awk -v tt="$tt" -v rc="$rc" -v rt="$rt" -v ip="$ip" 'BEGIN {
		exit !(rc >= tt - rt - ip - 0.03 * tt) }'; then
		ok "balanced beside two CPU-bound processes: RC carries the rest"
	else
		fail "balanced beside two CPU-bound processes: RC $rc short of $tt - $rt - $ip"
	fi
fi

# ---- skewed: LI is the partner's extra computation -------------------------
if run_beside skew 60 10 0.5; then
	tt=$(lfield tt "$tmp/skew.l") li=$(lfield li "$tmp/skew.l") truth=$(lfield li "$tmp/skew.out")
	echo "  skewed: tt $tt: li $li, the probe's $truth"
	if awk -v tt="$tt" -v li="$li" -v t="$truth" 'BEGIN {
		d = li - t; if (d < 0) d = -d; exit !(t > 0 && d <= 0.03 * tt) }'; then
		ok "skewed beside two CPU-bound processes: LI within 3 % of total of the probe's"
	else
		fail "skewed beside two CPU-bound processes: LI $li, the probe's $truth, total $tt"
	fi
fi

# ---- a balanced and a skewed loop: --where ranks the skewed one first ------
# (each round a balanced region of 20 iterations of 0.5 ms a thread, then a
# skewed one of 10 and 15 ms)
if run_beside where 30 10 0.5 where; then
	"$LC" report --where=li --format csv "$tmp/where.data" >"$tmp/where.csv" 2>"$tmp/where.werr"
	"$LC" report -l "$tmp/where.data" >"$tmp/where.l" 2>/dev/null
	if awk -F, -v tt="$(lfield tt "$tmp/where.l")" '
		FNR == NR { n = split($0, f, " "); for (i = 2; i <= n; i++) { split(f[i], kv, "="); t[kv[1]] = kv[2] }; next }
		FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		FNR == 2 { first = $(col["function"]) }
		$(col["kind"]) ~ /^omp (loop|for|parallel for)$/ { li[$(col["function"])] += $(col["li"]) }
		END {
			printf "  first by li: %s; skewed() li %.3f s (probe %.3f), balanced() li %.3f s (probe %.3f), total %.2f s\n", first, li["skewed"], t["li_skewed"], li["balanced"], t["li_balanced"], tt
			ds = li["skewed"] - t["li_skewed"]; if (ds < 0) ds = -ds
			db = li["balanced"] - t["li_balanced"]; if (db < 0) db = -db
			exit !(first == "skewed" && ds <= 0.03 * tt && db <= 0.03 * tt)
		}' "$tmp/where.out" "$tmp/where.csv"; then
		ok "report --where beside two CPU-bound processes: the skewed loop first by LI, each loop's LI within 3 % of total of the probe's"
	else
		fail "report --where beside two CPU-bound processes: ranking or LI off the probe's"
		cat "$tmp/where.csv" "$tmp/where.werr"
	fi
fi

# ---- short regions: each thread's computation is its own CPU time ----------
if run_beside short 400 2 0; then
	"$LC" report --per-thread --format csv "$tmp/short.data" >"$tmp/short.csv" 2>/dev/null
	# the tolerance: 5 % of the CPU time and three standard errors of the
	# thread's tick sampling (from the summary's: its slot observations)
	if awk -F, 'FNR == NR { split($0, f, " "); if (f[1] == "thread") cpu[f[2]] = substr(f[3], 5); next }
		$1 == "rt" && !on { R = $3; S = $7 }
		$1 == "tt" && !on { T = $3 }
		$1 == "p" && !on { P = $3 }
		$1 == "thread" { for (i = 1; i <= NF; i++) col[$i] = i; on = 1; next }
		on && $1 ~ /^[0-9]+$/ {
			c = cpu[$1]; rt = $(col["rt"]); d = rt - c; if (d < 0) d = -d
			F = R / T; N = S > 0 ? F * (1 - F) * T * T / (S * S) / P : 0
			w = T / P; fr = rt / w; se = N > 0 ? sqrt(fr * (1 - fr) / N) * w : 0
			printf "  thread %d: computation %.4f s, its CPU time %.4f s (%+.1f %%; 3 se %.4f s)\n", $1, rt, c, 100 * (rt - c) / c, 3 * se
			n++; if (!(c > 0 && d <= 0.05 * c + 3 * se)) bad = 1
		}
		END { exit bad || n != 2 }' "$tmp/short.out" "$tmp/short.csv"; then
		ok "short regions beside two CPU-bound processes: each thread's computation within 5 % of its CPU time (and the sampling's 3 se)"
	else
		fail "short regions beside two CPU-bound processes: a thread's computation off its CPU time"
		cat "$tmp/short.out"
	fi
fi

# ---- a short run (~0.3 s): the machine's share is measured over all of it --
hogs
OMP_NUM_THREADS=2 "$LC" record --force --omp -o "$tmp/run.data" -- "$PROG" 10 5 0 \
	>"$tmp/run.out" 2>"$tmp/run.err"
st=$?
unhog
"$LC" report "$tmp/run.data" >"$tmp/run.rep" 2>/dev/null
"$LC" report -l "$tmp/run.data" >"$tmp/run.l" 2>/dev/null
share=$(grep '^\*\* the machine:' "$tmp/run.rep")
echo "  short run: wall $(lfield wall "$tmp/run.out") s; $share"
if [ "$st" -eq 0 ] && echo "$share" | grep -q 'other processes [0-9.]* %.*(/proc/stat over' &&
   [ -n "$(lfield load "$tmp/run.l")" ]; then
	ok "a short run beside two CPU-bound processes: the report has the machine's share of all of it"
else
	fail "a short run beside two CPU-bound processes: no machine's share (record exited $st)"
	cat "$tmp/run.err" "$tmp/run.rep"
fi

if [ -n "$skipped" ] && [ "$nfail" -eq 0 ]; then
	finish
	echo "t_partner: SKIP: the machine was too busy to judge:$skipped"
	exit 77
fi
finish
