#!/bin/sh
# t_analysis_opens.sh — analysis opens only regular files by the names a
# profile or a folder gives it (docs/security.md, "Files the analysis
# opens"): a profile whose program was replaced by a FIFO after the run,
# and whose library's path names a character device (/dev/zero), is
# reported by report --where, --html, --advise, --timeline and export
# --otf2 without waiting (before: each hung for ever on the FIFO), its
# places named by address with the reason; merge --job passes over a FIFO
# planted among a folder's *.data files, and merge refuses one named on
# its command line (before: both hung).  Every command runs under timeout,
# so a hang fails the test instead of blocking it.
SUB=report
. tests/lib.sh
GEN=build/tests/test_where
need_built t_analysis_opens "$GEN" tests
for tool in nm timeout; do	# binutils, coreutils
	command -v $tool >/dev/null || skip t_analysis_opens "$tool is missing"
done
T=20	# seconds: far beyond what a report of a 2 ms profile takes

cat >"$tmp/prog.c" <<'EOF'
int lock_a[4];
__attribute__((noinline)) int region(int x) { return x * 3 + lock_a[x & 3]; }
int main(int argc, char **argv) { (void)argv; return region(argc); }
EOF
echo '__attribute__((noinline)) int lib_func(int x) { return x * 7 + 2; }' >"$tmp/lib.c"
cc -O1 -shared -fPIC -o "$tmp/libwh.so" "$tmp/lib.c" && cc -O1 -g -o "$tmp/prog" "$tmp/prog.c" ||
	skip t_analysis_opens "cc cannot build a program and a shared library"
sym() { nm "$1" 2>/dev/null | awk -v s="$2" '$3 == s { print $1; exit }'; }
r=$(printf '%x' $((0x$(sym "$tmp/prog" region) + 4)))
l=$(printf '%x' $((0x$(sym "$tmp/libwh.so" lib_func) + 4)))
"$GEN" --write "$tmp/a.data" "$tmp/prog" "$tmp/libwh.so" "o:$r" "l:$l" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; echo "t_analysis_opens: the generator failed"; exit 1; }
"$LC" report --where "$tmp/a.data" >"$tmp/before" 2>&1
grep -q 'prog.c:2' "$tmp/before" ||
	{ fail "the program's place is not named before it is replaced"; cat "$tmp/before"; }

# the program becomes a FIFO nobody writes, the library a link to a device
rm "$tmp/prog" "$tmp/libwh.so"
mkfifo "$tmp/prog" || skip t_analysis_opens "mkfifo failed"
ln -s /dev/zero "$tmp/libwh.so"
# within NAME ARGS...: lostcycles ARGS under timeout; fails on a hang
within() {
	name=$1; shift
	timeout -k 5 $T "$LC" "$@" >"$tmp/out" 2>&1
	st=$?
	if [ $st -eq 124 ] || [ $st -eq 137 ]; then
		fail "$name: still waiting after $T s"
		st=0
		return 1
	fi
	return 0
}
within "report --where" report --where "$tmp/a.data" &&
	check "report --where: places named by address, the reason said" \
		'grep -q "prog is not a regular file: not opened" "$tmp/out" &&
		 grep -q "libwh.so is not a regular file" "$tmp/out" && ! grep -q "prog.c:2" "$tmp/out"'
within "report --advise" report --advise "$tmp/a.data" &&
	check "report --advise does not wait for the FIFO" true
within "report --html" report --html "$tmp/a.html" "$tmp/a.data" &&
	check "report --html does not wait for the FIFO" '[ -s "$tmp/a.html" ]'
within "report --timeline" report --timeline --format perfetto "$tmp/a.data" &&
	check "report --timeline --format perfetto does not wait for the FIFO" '[ -s "$tmp/out" ]'
if "$LC" export --otf2 "$tmp/o" "$tmp/none.data" 2>&1 | grep -q "no OTF2 support"; then
	echo "note  this build has no OTF2 support: export --otf2 is not run"
else
	rm -rf "$tmp/o"
	within "export --otf2" export --otf2 "$tmp/o" "$tmp/a.data" &&
		check "export --otf2 does not wait for the FIFO" '[ -f "$tmp/o/traces.otf2" ]'
fi

# merge: a FIFO among a folder's *.data files, or named on the command line
mkdir "$tmp/job"
mkfifo "$tmp/job/a.data"
cp "$tmp/a.data" "$tmp/job/b.data"
if within "merge --job over a folder with a FIFO" merge -o "$tmp/j.data" --job 7 "$tmp/job"; then
	[ $st -eq 1 ] && grep -q "no node file of job 7 among the 1 profile looked at" "$tmp/out"
	verdict "merge --job passes over the FIFO (1 profile looked at)" $? "$tmp/out"
fi
if within "merge of a FIFO" merge -o "$tmp/k.data" "$tmp/job/a.data"; then
	[ $st -eq 1 ] && grep -q "a.data: a FIFO, not a regular file: not opened" "$tmp/out"
	verdict "merge refuses a FIFO named on its command line" $? "$tmp/out"
fi
finish
