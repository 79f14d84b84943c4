#!/bin/sh
# t_where.sh — "report --where" end to end on unmodified programs recorded
# through the layers, against what the programs measured of themselves:
#   - OpenMP (tests/layers/omp_where.c, built with -g): a balanced loop in
#     balanced() and a skewed loop in skewed(); by load imbalance the skewed
#     loop's place (its file:line, in skewed()) ranks first, its LI within
#     5 % of the total time of the idle time the threads measured at its
#     barrier, and the balanced loop's row under a tenth of that (or, when
#     a busy machine made the balanced loop's threads wait that long, within
#     5 % of what they measured);
#   - MPI (tests/mpi/where.c, 2 ranks): one row per function for MPI_Recv
#     and MPI_Allreduce, each with SL + CL within 3 % of the total time of
#     the time the ranks measured in it;
#   - pthreads (tests/layers/pt_where.c, PIE): a static lock and a malloc'd
#     one of different contention, the static one's rows named by its
#     symbol, the heap one's by its address (never by a symbol), SL within
#     5 % of the total time of the waits the program measured for each;
#   - every exclusive table adds up to the report's totals (text's (total)
#     row is the report's Total Time).
# A profile that carries no places (a build whose layers do not record
# them) is not judged: the test skips with that reason.  A miss on a
# machine measured too busy to judge it (lib.sh's machine_busy) is not
# judged either.  Exits 77 when the layers or MPICH are missing.
SUB=where
. tests/lib.sh
skip_under_tsan t_where
noplaces=

# places LABEL DATA: the where table of DATA as CSV in $tmp/LABEL.csv and
# the report's summary in $tmp/LABEL.sum; 1 (and noted) without places
places() {
	if ! "$LC" report --where --format csv "$2" >"$tmp/$1.csv" 2>"$tmp/$1.werr"; then
		if grep -q 'holds no places' "$tmp/$1.werr"; then
			noplaces="$noplaces $1"
		else
			fail "$1: report --where: $(cat "$tmp/$1.werr")"
		fi
		return 1
	fi
	"$LC" report --format csv "$2" >"$tmp/$1.sum" 2>/dev/null
}

# adds LABEL: the CSV's category columns add up to the report's (in ns)
adds() {
	awk -F, 'FNR == NR && NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		FNR == NR { for (k in col) if (k ~ /^(li|ip|sl|cl|rc|ml|bl|wc|rt)$/ && $(col[k]) != "na") { v = $(col[k]); gsub(/\./, "", v); s[k] += v }; next }
		$1 ~ /^(li|ip|sl|cl|rc|ml|bl|wc|rt)$/ && $3 != "na" { v = sprintf("%.9f", $3); gsub(/\./, "", v); if (s[$1] + 0 != v + 0) { print "  " $1 ": rows " s[$1] " ns, report " v " ns"; bad = 1 } }
		END { exit bad }' "$tmp/$1.csv" "$tmp/$1.sum"
}

# tt LABEL: the report's total time, s
tt() { awk -F, '$1 == "tt" { print $3 }' "$tmp/$1.sum"; }

# judge LABEL OKMSG PROG FILE...: the awk judgment PROG (tt set) over
# FILE...; ok, not judged on a busy machine, or failed; then the rows of
# LABEL must add up to the totals
judge() {
	label=$1 okmsg=$2 prog=$3
	shift 3
	if awk -F, -v tt="$(tt "$label")" "$prog" "$@" >"$tmp/j"; then
		ok "$okmsg"
	else
		unjudged "$okmsg" "$tmp/$label.err" || { fail "$okmsg"; cat "$tmp/$label.csv"; }
	fi
	cat "$tmp/j"
	adds "$label" && ok "$label: the rows add up to the totals to the ns" ||
		fail "$label: the rows do not add up to the totals"
}

OMPLIB=build/liblostcycles-omp.so
OMPWL=build/layers/omp_where
if [ -f "$OMPLIB" ] && [ -x "$OMPWL" ] && [ -z "${LC_SAN:-}" ]; then
	OMP_NUM_THREADS=2 "$LC" record -q --omp -o "$tmp/omp.data" -- "$OMPWL" \
		>"$tmp/omp.out" 2>"$tmp/omp.err"
	if places omp "$tmp/omp.data"; then
		"$LC" report --where=li --format csv "$tmp/omp.data" >"$tmp/omp.li" 2>"$tmp/omp.lierr"
		judge omp "OpenMP: the skewed loop's place first by LI, with its measured idle time" '
			FNR == NR { n = split($0, f, " "); for (i = 2; i <= n; i++) { split(f[i], kv, "="); t[kv[1]] = kv[2] }; next }
			FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			FNR == 2 { first = $1; ffn = $(col["function"]); fli = $(col["li"]) }
			$(col["function"]) == "balanced" && $(col["kind"]) == "omp loop" { bli = $(col["li"]) }
			END {
				printf "  first by li: %s in %s(): li %.4f s; measured %.4f s; balanced loop li %.4f s (measured %.4f s); total %.3f s\n", first, ffn, fli, t["li_skewed"], bli, t["li_balanced"], tt
				d = fli - t["li_skewed"]; if (d < 0) d = -d
				db = bli - t["li_balanced"]; if (db < 0) db = -db
				# the balanced loop under a tenth, unless the machine made
				# it wait that much itself: then its own measured wait
				bal = bli < fli / 10
				if (!bal && t["li_balanced"] >= t["li_skewed"] / 10 && db <= 0.05 * tt) {
					print "  (the balanced loop itself waited over a tenth as long: its row is judged against that)"
					bal = 1
				}
				exit !(ffn == "skewed" && first ~ /^omp_where\.c:[0-9]+/ && d <= 0.05 * tt && bal && t["li_skewed"] > 0.05)
			}' "$tmp/omp.out" "$tmp/omp.li"
		# a line of two constructs (rounds() inlined twice): two places of
		# distinct names, and -t of that line refused, not one picked
		dup=$("$LC" report --tags "$tmp/omp.data" | grep -o 'omp_where\.c:[0-9]*' | sort | uniq -d | head -n 1)
		if [ -n "$dup" ]; then
			"$LC" report -t "$dup" "$tmp/omp.data" >"$tmp/dup.out" 2>"$tmp/dup.err"
			rc=$?
			# A region's place holds only the time its threads spent
			# outside its loops, which may be none on a given run: each
			# region row there is, is named apart ("$dup via ..."), and
			# -t of the line is refused, unless one place alone holds it
			# (then -t shows that place, by its whole name).
			if { { [ $rc -eq 1 ] && grep -q "names several fragment tags" "$tmp/dup.err"; } ||
				{ [ $rc -eq 0 ] && grep -q "^\*\* place $dup via " "$tmp/dup.out"; }; } &&
				[ "$(grep -c "^$dup," "$tmp/omp.csv")" -eq 0 ]; then
				ok "OpenMP: $dup holds two regions: each row of them named apart, -t $dup refused or the one place shown"
			else
				fail "OpenMP: $dup of two regions"; cat "$tmp/dup.err" "$tmp/dup.out" "$tmp/omp.csv"
			fi
		fi
	fi
else
	echo "note  OpenMP case not run: no OpenMP layer or program (clang, libomp-dev), or a sanitizer build"
fi

PT=build/layers/pt_where
if [ -f build/liblostcycles-pthread.so ] && [ -x "$PT" ]; then
	# p = its five threads (-p): each waiting thread holds its processor
	"$LC" record -q --pthread -p 5 -o "$tmp/pt.data" -- "$PT" >"$tmp/pt.out" 2>"$tmp/pt.err"
	if places pt "$tmp/pt.data"; then
		# names are not timing: judged on a busy machine too
		heap=$(awk '/^waited / { print $5 }' "$tmp/pt.out")
		if awk -F, -v heap="$heap" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$(col["kind"]) != "mutex" || $1 ~ /\(object not recorded\)/ { next }
			$1 ~ /^lock_a @ / { a = 1; next }
			index($1, heap " @ ") == 1 { h = 1; next }
			{ print "  another name: " $1; bad = 1 }
			END { exit !(a && h && !bad) }' "$tmp/pt.csv"; then
			ok "pthreads: the static lock named by its symbol, the heap lock ($heap) by its address"
		else
			fail "pthreads: lock names"; cat "$tmp/pt.csv"
		fi
		judge pt "pthreads: each lock's rows with its measured waits" '
			FNR == NR && /^waited / { split($0, w, " "); wa = w[3]; heap = w[5]; wb = w[6]; next }
			FNR == NR { next }
			FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$1 ~ /^lock_a( @ |$)/ { a += $(col["sl"]); na++ }
			index($1, heap " @ ") == 1 || $1 == heap { b += $(col["sl"]); nb++ }
			END {
				printf "  lock_a: %d row(s), sl %.4f s, measured %.4f s; heap %s: %d row(s), sl %.4f s, measured %.4f s; total %.3f s\n", na, a, wa, heap, nb, b, wb, tt
				da = a - wa; if (da < 0) da = -da
				db = b - wb; if (db < 0) db = -db
				exit !(na > 0 && nb > 0 && da <= 0.05 * tt && db <= 0.05 * tt && wa > 0.1 && wb > 0.02)
			}' "$tmp/pt.out" "$tmp/pt.csv"
	fi
fi

MPIWL=build/mpi/where
if command -v mpiexec >/dev/null 2>&1 && [ -e build/liblostcycles-mpi.so ] && [ -x "$MPIWL" ]; then
	export XDG_CONFIG_HOME="$tmp/config"
	unset LOSTCYCLES_LOGGP
	"$LC" record -q --mpi -o "$tmp/mpi.data" -- mpiexec -n 2 "$MPIWL" >"$tmp/mpi.out" 2>"$tmp/mpi.err"
	if places mpi "$tmp/mpi.data"; then
		judge mpi "MPI: one row per function, SL + CL with the measured times" '
			FNR == NR && $1 ~ /^rank/ { split($0, w, " "); recv += w[4] / 1e9; allr += w[6] / 1e9; next }
			FNR == NR { next }
			FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$1 ~ /^MPI_Recv( @ |$)/ { r += $(col["sl"]) + $(col["cl"]); nr++ }
			$1 ~ /^MPI_Allreduce( @ |$)/ { a += $(col["sl"]) + $(col["cl"]); na++ }
			END {
				printf "  MPI_Recv: %d row(s), sl+cl %.4f s, measured %.4f s; MPI_Allreduce: %d row(s), sl+cl %.4f s, measured %.4f s; total %.3f s\n", nr, r, recv, na, a, allr, tt
				dr = r - recv; if (dr < 0) dr = -dr
				da = a - allr; if (da < 0) da = -da
				exit !(nr == 1 && na == 1 && dr <= 0.03 * tt && da <= 0.03 * tt && recv > 0.05 && allr > 0.05)
			}' "$tmp/mpi.out" "$tmp/mpi.csv"
	fi
else
	echo "note  MPI case not run: MPICH or the MPI layer is missing"
fi

if [ "$ntest" -eq 0 ] && [ -n "$noplaces" ]; then
	skip t_where "the profiles of$noplaces carry no places: the layers of this build do not record them yet"
fi
[ -n "$noplaces" ] && echo "note  no places in:$noplaces (not judged)"
finish
