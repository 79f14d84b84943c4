#!/bin/sh
# t_emit.sh — hostile strings from a profile through the one table emitter:
# a host name with a comma, quotes, a newline and an escape sequence
# round-trips through "report --per-rank --format csv" of a merged job
# profile (one field, byte for byte), and neither the text tables nor the
# summary pass a control character to the terminal; the JSON report of a
# command line with an escape sequence and an invalid byte parses; a
# synchronization object named "=HYPERLINK(...)" is written to CSV as the
# text "'=HYPERLINK(...)" (no spreadsheet runs it), numbers unchanged.
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

# ---- a name a spreadsheet would run as a formula: CSV quotes it as text -----------
W=build/workloads/evilname
if [ -x "$W" ]; then
	run record --force -q -o "$tmp/f.data" -- "$W" '=HYPERLINK("http://x","y")' '@SUM(1+1)'
	check "record a program with a synchronization object named '=HYPERLINK(...)'" true
	"$LC" report --sync --format csv "$tmp/f.data" >"$tmp/f.csv" 2>/dev/null
	python3 - "$tmp/f.csv" >"$tmp/out" 2>&1 <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
names = [r["name"] for r in rows]
if not names:
    print("note: the sampler saw no synchronization object (busy machine): not judged")
    sys.exit(0)
assert "'=HYPERLINK(\"http://x\",\"y\")" in names, names
assert not any(n[:1] in "=+-@" for n in names), names
for r in rows:
    int(r["pid"]); float(r["seconds"])	# numbers stay numbers
print("the name reads back as '=HYPERLINK(...), text; numbers as they were")
EOF
	st=$?
	check "report --sync --format csv: a formula-like name is quoted text (OWASP), numbers kept" true
fi

# ---- a command line that would be gnuplot commands stays a title ---------------
if command -v gnuplot >/dev/null 2>&1; then
	run record -q -o "$tmp/g.data" -- sh -c 'exec "$0"' "$(pwd)/build/workloads/serial" \
		"\"; system(\"touch $tmp/pwned\"); \"" "'; system('touch $tmp/pwned'); '"
	check "record a command with gnuplot in its arguments" true
	run report --plot "$tmp/g.png" "$tmp/g.data"
	check "report --plot runs none of it" '[ -s "$tmp/g.png" ] && [ ! -e "$tmp/pwned" ]'
fi

# ---- one palette: predict --profile colours each category as report does ------
printf 'p=1 li=0.5 sl=0.25 rt=2 tt=2.75\np=2 li=1 sl=0.5 rt=2 tt=3.5\np=4 li=2 sl=1 rt=2 tt=5\n' \
	>"$tmp/pp.runs"
"$LC" predict --profile "$tmp/pp.runs" --plot "$tmp/pp.png" >/dev/null 2>&1
"$LC" report --plot "$tmp/rp.png" "$tmp/c.data" >/dev/null 2>&1
# colour of key $2 in the predicate profile's script $1 (linetypes in column order)
pp_colour() {
	cols=$(sed -n 's/^ *p  *//p' "$tmp/pp.data" | head -n 1)
	i=0; for k in $cols; do i=$((i + 1)); [ "$k" = "$2" ] && break; done
	sed -n "s/^set linetype $i lc rgb '\\(#[0-9a-f]*\\)'/\\1/p" "$1"
}
# colour of key $1 in report --plot's script (linetypes in category order)
rp_colour() {
	i=0; for k in li ip sl cl rc ml bl wc rt; do i=$((i + 1)); [ "$k" = "$1" ] && break; done
	sed -n "s/^set linetype $i lc rgb '\\(#[0-9a-f]*\\)'/\\1/p" "$tmp/rp.gp"
}
same=1
for k in li sl rt; do
	a=$(pp_colour "$tmp/pp.gp" $k); b=$(rp_colour $k)
	echo "      $k: predict --profile $a, report --plot $b"
	[ -n "$a" ] && [ "$a" = "$b" ] || same=0
done
st=0
check "predict --profile and report --plot colour li, sl and rt alike" '[ "$same" -eq 1 ]'

# ---- a job whose host name is hostile ------------------------------------------
if ! command -v mpiexec >/dev/null 2>&1 || [ ! -x "$APP" ] || [ ! -e build/liblostcycles-mpi.so ]; then
	finish || exit 1
	skip t_emit "MPICH is not installed (mpiexec, mpicc: apt-get install mpich libmpich-dev)"
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
