#!/bin/sh
# A full disk while recording: record says so and exits 1, the program runs
# to its end undisturbed, and the file holds every block written before (the
# report reads it and says it was cut).  Needs root to mount a small tmpfs;
# without it the test exits 77 (skipped) and says why.  The tmpfs (one page)
# is smaller than the demo's profile (about 12 kB).
set -u
. tests/lib.sh
lc_tmpdir
dir=$tmp/full
mkdir "$dir" || exit 1
trap 'umount "$dir" 2>/dev/null; rm -rf "$tmp"' EXIT
mount -t tmpfs -o size=4k tmpfs "$dir" 2>/dev/null || skip t_fulldisk "cannot mount a tmpfs here (needs root)"
fail() { echo "t_fulldisk: FAIL: $*"; exit 1; }

./lostcycles record -o "$dir/x.data" -- build/examples/demo >"$dir/../full.out.$$" 2>"$dir/../full.err.$$"
rc=$?
out=$(cat "$dir/../full.out.$$"); err=$(cat "$dir/../full.err.$$")
rm -f "$dir/../full.out.$$" "$dir/../full.err.$$"
[ "$rc" -eq 1 ] || fail "record exited $rc, expected 1"
echo "$err" | grep -q "No space left on device" || fail "no ENOSPC message: $err"
echo "$out" | grep -q "^demo: " || fail "the program did not finish its work: $out"
rep=$(./lostcycles report -f "$dir/x.data" 2>&1) || fail "report failed on the cut file: $rep"
echo "$rep" | grep -q "profile cut at byte" || fail "report does not say the file was cut: $rep"
echo "$rep" | grep -q "^Total Time" || fail "no Total Time line: $rep"
echo "t_fulldisk: ok"
