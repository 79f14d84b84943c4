#!/bin/sh
# t_mpi_loggp.sh — communication loss from LogGP transfer times: two ranks
# of an unmodified MPI program exchange 64 KiB messages, rank 1 computing
# before each reply.  With a LogGP file, each rank's CL is the model's
# ideal time of its messages (msgs x the time of one message) and SL + CL
# is the time the rank measured inside MPI: first with a hand-written file
# (L 2000, o 1000, G 0.5), then with the file "calibrate --mpi" wrote.
# calibrate --mpi fits the ping-pong it measured: every message size within
# a factor 1.5 of the model (a single line through sizes on both sides of
# MPICH's switch from eager to rendezvous at 16 KiB was off by 1.8; the fit
# with the switch is within 1.15 on a quiet machine; a busy one may disturb
# a size: up to 3 tries, each noted; a miss on a machine measured too busy
# to judge it, lib.sh's machine_busy, is not judged and the test skips with
# the reason).  Exits 77 when MPICH is absent.
. tests/lib.sh
set -u

LC=./lostcycles
APP=build/mpi/exchange

if ! command -v mpiexec >/dev/null 2>&1 || [ ! -x "$APP" ] ||
   [ ! -e build/liblostcycles-mpi.so ] || [ ! -x build/lostcycles-pingpong ]; then
	skip t_mpi_loggp "MPICH is not installed (mpiexec, mpicc: apt-get install mpich libmpich-dev)"
fi
lc_tmpdir
export XDG_CONFIG_HOME="$tmp/config"
unset LOSTCYCLES_LOGGP
nfail=0

fail() {
	nfail=$((nfail + 1))
	echo "FAIL  $*"
}

# A fixed model, so that the expected CL is exact: 3 us per message and
# 0.5 ns per byte (33 us for 64 KiB).
printf '# test model\nL 2000\no 1000\nG 0.5\n' >"$tmp/loggp"

# permsg FILE BYTES: the ideal time in ns of one message of BYTES under the
# LogGP file FILE (the line from S bytes on when the file has one)
permsg() {
	awk -v k="$2" '$1 ~ /^(L|o|G|S|Ls|Gs)$/ { v[$1] = $2 }
		END { if (v["S"] > 0 && k >= v["S"]) printf "%.6f", v["Ls"] + v["o"] + k * v["Gs"];
		      else printf "%.6f", v["L"] + v["o"] + k * v["G"] }' "$1"
}

# check FILE: each rank's CL against msgs x permsg(FILE, bytes per message)
check() {
	"$LC" report --per-rank --format csv "$tmp/x.data" >"$tmp/csv" 2>"$tmp/err" || {
		echo "report --per-rank failed:"; cat "$tmp/err"; return 1; }
	one=$(permsg "$1" 65536)
	awk -v one="$one" '
		FNR == NR { if ($1 == "rank") { msgs[$2] = $4; bytes[$2] = $6; wait[$2] = $8 / 1e9; run[$2] = $10 / 1e9 }; next }
		/^rank,host,pid,/ { for (i = 1; i <= NF; i++) col[$i] = i; inr = 1; next }
		inr && NF > 10 { sl[$1] = $(col["sl"]); cl[$1] = $(col["cl"]) }
		END {
			bad = 0
			for (k = 0; k < 2; k++) {
				if (!(k in sl) || !(k in wait)) { print "rank " k " missing"; bad = 1; continue }
				model = msgs[k] * one / 1e9
				d = sl[k] + cl[k] - wait[k]; if (d < 0) d = -d
				e = cl[k] - model; if (e < 0) e = -e
				printf "rank %d: cl %.5f s, model %d x %.1f ns = %.5f s; sl+cl %.4f s, measured in MPI %.4f s (|diff| %.1f%% of run)\n", k, cl[k], msgs[k], one, model, sl[k] + cl[k], wait[k], 100 * d / run[k]
				if (d > 0.05 * run[k]) bad = 1
				# rank 0 waits long enough to use all of its transfer time
				if (k == 0 && e > 0.05 * model + 0.0005) bad = 1
				# rank 1 cannot have more CL than its model time
				if (k == 1 && cl[k] > model * 1.05 + 0.0005) bad = 1
			}
			exit bad
		}' FS='[ ]' "$tmp/out" FS=',' "$tmp/csv"
}

# cl FILE WHAT: record the exchange with the LogGP file FILE and check it,
# up to 3 tries
cl() {
	tries=0
	while :; do
		tries=$((tries + 1))
		if ! "$LC" record --force --mpi --loggp="$1" -o "$tmp/x.data" -- \
			mpiexec -n 2 "$APP" 65536 200 500 >"$tmp/out" 2>"$tmp/err"; then
			fail "$2: record --mpi --loggp exited non-zero"
			cat "$tmp/err"
			break
		fi
		if check "$1" >"$tmp/res"; then
			sed "s/^/$2: /" "$tmp/res"
			[ "$tries" -gt 1 ] && echo "NOTE: $2: passed on try $tries"
			break
		fi
		if [ "$tries" -ge 3 ]; then
			sed "s/^/$2: /" "$tmp/res"
			unjudged "$2: CL against the LogGP model, SL + CL against the time in MPI" "$tmp/err" ||
				fail "$2: CL does not follow the LogGP model, or SL + CL is not the time in MPI"
			break
		fi
		sed "s/^/NOTE: $2 try $tries: /" "$tmp/res"
	done
}
cl "$tmp/loggp" "hand-written model"

# calibrate --mpi: a file with L, o and G that record --mpi accepts, and a
# fit within a factor 1.5 of every size it measured
FACTOR=1.5
tries=0
while :; do
	tries=$((tries + 1))
	if ! "$LC" calibrate --mpi --force -o "$tmp/cal" >"$tmp/calout" 2>&1; then
		fail "calibrate --mpi failed"
		cat "$tmp/calout"
		break
	fi
	if ! grep -q '^L ' "$tmp/cal" || ! grep -q '^o ' "$tmp/cal" || ! grep -q '^G ' "$tmp/cal"; then
		fail "calibrate --mpi wrote no L, o and G"
		cat "$tmp/cal"
		break
	fi
	# the table: bytes, measured(us), model(us), ratio; every size within
	# FACTOR, and the ratio is model / measured
	if awk -v f="$FACTOR" '
		$1 ~ /^[0-9]+$/ && NF == 4 {
			n++; r = $3 / $2; if (r < 1) r = 1 / r
			if (r > worst) { worst = r; at = $1 }
			# the printed ratio is model / measured (both printed to 1 ns)
			d = $4 - $3 / $2; if (d < 0) d = -d
			if (d > 0.0005 * ($2 + $3) / ($2 * $2) + 0.0006) { print "ratio of " $1 " bytes is not model/measured"; bad = 1 }
		}
		END { printf "calibrate: %d sizes, the worst (%d bytes) off the model by a factor %.3f (want <= %.2f)\n", n, at, worst, f
		      exit !(n >= 10 && !bad && worst <= f) }' "$tmp/calout" >"$tmp/calres"; then
		cat "$tmp/calres"
		echo "calibrate: $(grep '^L = ' "$tmp/calout")"
		[ "$tries" -gt 1 ] && echo "NOTE: calibrate passed on try $tries"
		break
	fi
	if [ "$tries" -ge 3 ]; then
		cat "$tmp/calres" "$tmp/calout"
		unjudged "calibrate --mpi: every size within a factor $FACTOR of the model" ||
			fail "calibrate --mpi: a size is off the model by more than a factor $FACTOR"
		break
	fi
	echo "NOTE: calibrate try $tries: $(cat "$tmp/calres")"
done
# CL with the calibrated model
[ -s "$tmp/cal" ] && cl "$tmp/cal" "calibrated model"
# the default place: record --mpi finds it there
mkdir -p "$tmp/config/lostcycles" && cp "$tmp/cal" "$tmp/config/lostcycles/loggp" 2>/dev/null
"$LC" record --mpi -o "$tmp/y.data" -- mpiexec -n 2 "$APP" 1024 20 100 >/dev/null 2>"$tmp/err"
grep -q "no LogGP" "$tmp/err" && fail "record --mpi did not find the calibrated file"
"$LC" report "$tmp/y.data" 2>/dev/null | grep -q "^Communication Loss *na" &&
	fail "CL is na although a LogGP file exists"
# bad input: a bad --max for calibrate --mpi, a LogGP file with garbage
"$LC" calibrate --mpi -m 12x >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "bad --max" "$tmp/err" || fail "calibrate --mpi -m 12x: not a usage error"
printf 'L fast\n' >"$tmp/bad"
"$LC" record --mpi --loggp="$tmp/bad" -- true 2>"$tmp/err" && fail "a bad LogGP file accepted"
grep -q "bad:1" "$tmp/err" || { fail "a bad LogGP file: no line number"; cat "$tmp/err"; }

end_unjudged t_mpi_loggp
[ "$nfail" -eq 0 ] && echo "t_mpi_loggp: all passed"
exit $((nfail > 0))
