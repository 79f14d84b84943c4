#!/bin/sh
# make install puts every file under DESTDIR/PREFIX; make uninstall removes
# exactly those files and leaves a user's file beside them; make clean never
# names the user's profile.
set -u
top=${LC_TOP:-$(pwd)}
cd "$top" || exit 1
. tests/lib.sh
lc_tmpdir
d=$tmp
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

make -s --no-print-directory install DESTDIR="$d" PREFIX=/usr >"$d.log" 2>&1 ||
	{ cat "$d.log"; rm -f "$d.log"; echo "FAIL: make install"; exit 1; }
rm -f "$d.log"
for f in usr/bin/lostcycles usr/lib/liblostcycles.a usr/include/lostcycles.h \
	 usr/lib/pkgconfig/lostcycles.pc usr/share/lostcycles/models.txt \
	 usr/share/man/man1/lostcycles.1 usr/share/man/man3/lostcycles.3; do
	[ -f "$d/$f" ] || fail "install did not put $f"
done
ls "$d"/usr/lib/liblostcycles.so.* >/dev/null 2>&1 || fail "install did not put the shared library"
grep -q '^prefix=/usr$' "$d/usr/lib/pkgconfig/lostcycles.pc" || fail "lostcycles.pc does not say prefix=/usr"

# A file of the user's in the data folder and in the man folder survives.
echo mine >"$d/usr/share/lostcycles/my-models.txt"
echo mine >"$d/usr/share/man/man1/other.1"
make -s --no-print-directory uninstall DESTDIR="$d" PREFIX=/usr >/dev/null 2>&1 || fail "make uninstall"
left=$(find "$d" -type f | sed "s|^$d/||" | sort | tr '\n' ' ')
[ "$left" = "usr/share/lostcycles/my-models.txt usr/share/man/man1/other.1 " ] ||
	fail "after uninstall the files left are: $left"

make -n clean | grep -q 'lostcycles\.data' && fail "make clean would delete lostcycles.data"

[ "$fails" -eq 0 ] || exit 1
echo "ok: install, uninstall and clean touch exactly their own files"
