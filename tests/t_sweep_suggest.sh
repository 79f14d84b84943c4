#!/bin/sh
# t_sweep_suggest.sh — "sweep --suggest" through the table emitter: the
# same points in text, CSV and JSON (--format), the rows of each equal to
# the others' (the text's rounded), the text's heading free of control
# characters from a file name, an empty table when every point is
# measured, and --format refused without --suggest or with an unknown word.
# Needs no recording: the model is fitted to the runfast fixture.
# Run from the top of the tree.
. tests/lib.sh
set -u
LC=$(pwd)/lostcycles
R=$(pwd)/tests/data/fit/runfast.runs
[ -x "$LC" ] || { echo "t_sweep_suggest: $LC missing (make)" >&2; exit 1; }
command -v python3 >/dev/null || skip t_sweep_suggest "python3 is not installed"
lc_tmpdir
cd "$tmp" || exit 1

"$LC" fit -c li -v "n p" -f "$R" --emit m.model "n*log(n)*p" >/dev/null 2>&1
"$LC" fit -c rt -v "n p" -f "$R" --emit m.model "n^2*log2(n)+1" >/dev/null 2>&1
"$LC" fit -c ip -v "n p" -f "$R" --emit m.model "n^2*p" >/dev/null 2>&1
[ -s m.model ] || { fail "fit --emit wrote no model"; exit 1; }

sg() {	# FORMAT OUT: the suggestions of the grid below as FORMAT into OUT
	"$LC" sweep -o "$R" -v n=16,256,1024,4096 -v p=1,26,64 --suggest m.model --top 5 \
		--format "$1" >"$2" 2>"$2.err"
}
sg text s.txt && sg csv s.csv && sg json s.json && ok "--format text, csv and json: exit 0" ||
	fail "--format: $(cat s.txt.err s.csv.err s.json.err)"

if python3 - s.txt s.csv s.json >py 2>&1 <<'PY'
import csv, json, sys
text, rows, doc = open(sys.argv[1]).read().splitlines(), list(csv.reader(open(sys.argv[2]))), json.load(open(sys.argv[3]))
keys = ["n", "p", "narrows_pct", "T", "half90", "half90_pct"]
assert rows[0] == keys, rows[0]
data = rows[1:]
assert len(data) == 5 and len(doc) == 5, (len(data), len(doc))
assert text[0].startswith("points of the grid not in ") and text[1].split() == keys, text[:2]
measured = {("16", "26"), ("256", "1"), ("1024", "26")}
for r, j, t in zip(data, doc, text[2:]):
    assert list(j) == keys, list(j)
    assert (r[0], r[1]) not in measured, r
    for k, v in zip(keys, r):
        assert abs(float(v) - j[k]) <= 1e-9 * abs(j[k]), (k, v, j[k])
    t = t.split()
    assert t[0] == r[0] and t[1] == r[1], (t, r)
    assert t[2] == "%.1f%%" % float(r[2]) and t[5] == "%.1f%%" % float(r[5]), (t, r)
    assert float(t[3]) == float("%.6g" % float(r[3])), (t, r)
    assert abs(j["half90_pct"] - 100 * j["half90"] / j["T"]) < 1e-3, j
n = [float(r[2]) for r in data]
assert n == sorted(n, reverse=True), n
print("%d rows alike in the three formats, the most narrowing first: %s" % (len(data), ",".join(data[0])))
PY
then
	ok "$(cat py)"
else
	fail "the formats disagree: $(cat py)"; cat s.txt s.csv s.json
fi

# A file name with an escape sequence reaches the text's heading as '?'.
bad=$(printf 'r\033[2Jx.runs')
"$LC" sweep -o "$bad" -v n=16,256 -v p=1 --suggest m.model >esc.txt 2>err
if [ $? -eq 0 ] && grep -q '^points of the grid not in r?\[2Jx.runs ' esc.txt &&
   ! grep -q "$(printf '\033')" esc.txt; then
	ok "a control character of a file name is not written to the terminal"
else
	fail "escape in the heading: $(od -c esc.txt | head -3) $(cat err)"
fi

# Every point of the grid measured: text says so, CSV and JSON are empty
# tables (the note on standard error).
"$LC" sweep -o "$R" -v n=16,64 -v p=26 --suggest m.model >e.txt 2>e.err &&
"$LC" sweep -o "$R" -v n=16,64 -v p=26 --suggest m.model --format csv >e.csv 2>e.cerr &&
"$LC" sweep -o "$R" -v n=16,64 -v p=26 --suggest m.model --format json >e.json 2>e.jerr
rc=$?
if [ $rc -eq 0 ] && grep -q '^no point to suggest' e.txt && [ "$(cat e.csv)" = "n,p,narrows_pct,T,half90,half90_pct" ] &&
   python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == []' e.json &&
   grep -q 'no point to suggest' e.cerr; then
	ok "no point to suggest: a line of text, an empty CSV and JSON table"
else
	fail "no point: exit $rc: $(cat e.txt e.csv e.json e.cerr)"
fi

"$LC" sweep -o x.runs -v n=1 --format csv -- true >/dev/null 2>err
[ $? -eq 2 ] && grep -q -- '--format goes with --suggest' err && ok "--format without --suggest refused" ||
	fail "--format without --suggest: $(cat err)"
"$LC" sweep -o "$R" -v n=16 -v p=1 --suggest m.model --format xml >/dev/null 2>err
[ $? -eq 2 ] && ok "--format xml refused: $(head -1 err)" || fail "--format xml: $(cat err)"
[ $nfail -eq 0 ]
