#!/bin/sh
# t_readme.sh — the README's sample output (the demo block, written from a
# real run by scripts/readme-samples.py --update) has the shape of what the
# program prints now: the commands of the block are run again into a
# scratch folder, and a sample line whose shape (numbers and ids masked; a
# table row by its columns; an advice line by its kind) no line of the run
# has, a line the run always prints that the sample lacks, or a table
# header that changed fails the test with the line.  The check that it can
# fail: a planted stale line is found.  Exits 77 when python3 or the demo
# is missing.
. tests/lib.sh
set -u
command -v python3 >/dev/null 2>&1 || skip t_readme "python3 is not installed"
need_built t_readme build/examples/demo examples
lc_tmpdir
python3 scripts/readme-samples.py --check >"$tmp/out" 2>&1
st=$?
[ "$st" -eq 77 ] && skip t_readme "$(tail -n 1 "$tmp/out")"
if [ "$st" -eq 0 ]; then
	ok "the README's samples have the program's shape"
else
	fail "the README's samples are stale:"; sed 's/^/      /' "$tmp/out"
fi
# a planted stale line (a record line the program no longer prints) is found
mkdir -p "$tmp/tree/build/examples"
cp README.md "$tmp/tree/"
ln -s "$(pwd)/lostcycles" "$tmp/tree/lostcycles"
ln -s "$(pwd)/build/examples/demo" "$tmp/tree/build/examples/demo"
ln -s "$(pwd)/share" "$tmp/tree/share"
sed -i '0,/^lostcycles record: build\/demo.data: .*/s//&\nlostcycles record: 3 threads were lost in the sampler/' "$tmp/tree/README.md"
(cd "$tmp/tree" && python3 "$OLDPWD/scripts/readme-samples.py" --check) >"$tmp/out2" 2>&1
if [ $? -eq 1 ] && grep -q "threads were lost in the sampler" "$tmp/out2"; then
	ok "a planted stale line is found"
else
	fail "a planted stale line is not found:"; sed 's/^/      /' "$tmp/out2"
fi
[ "$nfail" -eq 0 ] && echo "t_readme: the README's samples are the program's"
exit $((nfail > 0))
