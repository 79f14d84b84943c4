#!/bin/sh
# t_emit.sh — hostile strings from a profile through the one table emitter:
# a host name with a comma, quotes, a newline and an escape sequence
# round-trips through "report --per-rank --format csv" of a merged job
# profile (one field, byte for byte), and neither the text tables nor the
# summary pass a control character to the terminal; the JSON report of a
# command line with an escape sequence and an invalid byte parses.
# The MPI part exits 77 when MPICH is absent.
set -u

SUB=report
. tests/lib.sh
APP=$(pwd)/build/mpi/imbalance
ESC=$(printf '\033')
host=$(printf 'evil,"host"\nx%s[2J' "$ESC")

# ---- a command line with an escape sequence and a byte that is not UTF-8 ----
run record -q -o "$tmp/c.data" -- true "$(printf 'a\033[2J\377,b')"
check "record a command with hostile arguments" true
run report "$tmp/c.data"
check "report's text carries no ESC byte" '! grep -q "$ESC" "$tmp/out"'
"$LC" report --format json "$tmp/c.data" >"$tmp/c.json" 2>/dev/null
python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/c.json" \
	>"$tmp/out" 2>&1
st=$?
check "report --format json of it is valid UTF-8 JSON" true

# ---- a job whose host name is hostile ------------------------------------------
if ! command -v mpiexec >/dev/null 2>&1 || [ ! -x "$APP" ] || [ ! -e build/liblostcycles-mpi.so ]; then
	finish || exit 1
	echo "t_emit: MPICH is not installed (mpiexec, mpicc: apt-get install mpich libmpich-dev)"
	exit 77
fi
LOSTCYCLES_HOST=$host "$LC" record -q --mpi -o "$tmp/node.data" -- \
	mpiexec -n 2 "$APP" 3 10 >"$tmp/out" 2>&1
st=$?
check "record --mpi with a hostile LOSTCYCLES_HOST" true
run merge -o "$tmp/job.data" "$tmp/node.data"
check "merge the node file" true
"$LC" report --per-rank --format csv "$tmp/job.data" >"$tmp/ranks.csv" 2>/dev/null
printf '%s' "$host" >"$tmp/host"
python3 - "$tmp/ranks.csv" "$tmp/host" >"$tmp/out" 2>&1 <<'EOF'
import csv, io, sys
text = open(sys.argv[1], newline="", encoding="utf-8").read()
want = open(sys.argv[2], newline="", encoding="utf-8").read()
rows = list(csv.reader(io.StringIO(text, newline="")))
at = [i for i, r in enumerate(rows) if r[:3] == ["rank", "host", "pid"]]
assert len(at) == 1, "no rank table"
head = rows[at[0]]
ranks = []
for r in rows[at[0] + 1:]:
    if not r:
        break
    ranks.append(r)
assert len(ranks) == 2, ranks
for r in ranks:
    assert len(r) == len(head), (len(r), len(head), r)
    assert r[1] == want, (r[1], want)
print("2 ranks, host read back as written")
EOF
st=$?
check "per-rank CSV: the host name is one field, read back byte for byte" true
run report --per-rank "$tmp/job.data"
check "per-rank text carries no ESC byte, and the host name no line break" \
	'! grep -q "$ESC" "$tmp/out" && ! grep -q "^x" "$tmp/out" && grep -q "^    0 evil,\"host\"?" "$tmp/out"'
finish
