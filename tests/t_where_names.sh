#!/bin/sh
# t_where_names.sh — how "report --where" names places (docs/where.md):
# profiles written by build/tests/test_where --write with place words at
# known addresses of programs built here, PIE and not, with and without -g,
# stripped, a shared library's function, and a program rebuilt after the
# run.  A construct is "file:line" with -g, "function+0xOFF" without, an
# address when stripped (and said so); a static lock is its symbol (in a PIE
# program too, by the load bias the profile recorded; never by a guessed
# one: a heap lock is its address); a rebuilt or removed file names nothing and says why; two
# places of one text get distinct names and -t accepts every printed name.
SUB=where_names
. tests/lib.sh
GEN=build/tests/test_where
[ -x "$GEN" ] || { echo "t_where_names: $GEN is missing (make build/tests/test_where)" >&2; exit 1; }
command -v nm >/dev/null && command -v strip >/dev/null || skip t_where_names "nm and strip (binutils) are missing"
lc_tmpdir

cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
int lib_func(int x);
int lock_a[6] = { 1 }, lock_b[6] = { 2 };
__attribute__((noinline)) int region(int x) { return x * 3 + lock_a[x & 3] + VARIANT; }
int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", region(argc) + lib_func(argc) + lock_b[argc & 3]);
	return 0;
}
EOF
printf '%s\n' '__attribute__((noinline)) int lib_func(int x) { return x * 7 + 2; }' >"$tmp/lib.c"

# build NAME FLAGS...: the program as $tmp/NAME, linked with $tmp/libwh.so
build() {
	n=$1; shift
	cc -O1 "$@" -DVARIANT=1 -o "$tmp/$n" "$tmp/prog.c" -L"$tmp" -lwh -Wl,-rpath,"$tmp"
}
cc -O1 -shared -fPIC -o "$tmp/libwh.so" "$tmp/lib.c" || skip t_where_names "cc cannot build a shared library"
build nopie_g -g -no-pie -fno-pie && build nopie -no-pie -fno-pie && build pie_g -g -fpie -pie &&
	build pie -fpie -pie || skip t_where_names "cc cannot build PIE and non-PIE programs"
cp "$tmp/pie" "$tmp/stripped" && strip "$tmp/stripped"

# sym FILE NAME: the link-time address of symbol NAME in FILE (hex)
sym() { nm "$1" 2>/dev/null | awk -v s="$2" '$3 == s { print $1; exit }'; }
# add HEX N: HEX + N in hex
add() { printf '%x' $((0x$1 + $2)); }

# names FILE: the place names of the profile FILE, one a line, in $tmp/names
names() {
	"$LC" report --where --format csv "$1" >"$tmp/csv" 2>"$tmp/err" || return 1
	awk -F, 'NR > 1 { print $1 }' "$tmp/csv" >"$tmp/names"
}
has() { grep -qxF "$1" "$tmp/names"; }
line=$(grep -n 'int region' "$tmp/prog.c" | cut -d: -f1)

# profile NAME: a profile of program NAME with a region in region(), a loop
# at the same address (one text: two names), MPI_Recv (index 5) called
# from two sites in main, waits on lock_b at two sites in main, a region in
# the library's lib_func, a condition wait whose object was not recorded and
# a join (no object)
# (a stripped program's addresses are those of the program it was made of)
# PIE programs are loaded at bias 555555554000 (pie_nobase: a profile
# that did not record it), and get two heap locks, at HEAP + the link-time
# addresses of lock_a and lock_b (a base no module was loaded at: never to
# be named by those symbols).
HEAP=5555557a0000
profile() {
	p=$tmp/${1%_nobase}; s=$p; at=
	[ "$1" = stripped ] && s=$tmp/pie
	r=$(sym "$s" region); m=$(sym "$s" main); b=$(sym "$s" lock_b); a=$(sym "$s" lock_a)
	set -- "$1"
	case $1 in pie*|stripped)
		set -- "$1" "s:4:$(add "$m" 24):$(add $HEAP $((0x$a)))" "s:4:$(add "$m" 28):$(add $HEAP $((0x$b)))"
		b=$(add 555555554000 $((0x$b))); at=@555555554000 ;;
	esac
	case $1 in *_nobase) at= ;; esac
	lf=$(sym "$tmp/libwh.so" lib_func)
	"$GEN" --write "$tmp/$1.data" "$p$at" "$tmp/libwh.so" "o:$(add "$r" 4)" "w:$(add "$r" 4)" \
		"m:5:$(add "$m" 8)" "m:5:$(add "$m" 12)" "s:1:$(add "$m" 16):$b" \
		"s:1:$(add "$m" 20):$b" "l:$(add "$lf" 4)" "s:3:$(add "$m" 32):0" "s:5:$(add "$m" 36):0" "$@"
}

for v in nopie_g nopie pie_g pie pie_nobase stripped; do
	profile $v || fail "$v: the generator failed"
done
# heap LABEL: the two heap locks of profile LABEL are named by address
heap() {
	grep '^0x' "$tmp/names" | grep -q "^0x$(add $HEAP $((0x$(sym "$tmp/pie" lock_a)))) @ " &&
		grep '^0x' "$tmp/names" | grep -q "^0x$(add $HEAP $((0x$(sym "$tmp/pie" lock_b)))) @ " &&
		! grep -q '^lock_a' "$tmp/names"
}

names "$tmp/nopie_g.data"
if has "prog.c:$line" && has "prog.c:$line#2" && grep -q '^MPI_Recv @ prog.c:' "$tmp/names" &&
	grep -q "^lock_b @ " "$tmp/names" && has "libwh.so:lib_func+0x4"; then
	ok "non-PIE with -g: file:line (and #2), MPI_Recv @ file:line, lock_b, libwh.so:lib_func+0x4"
else
	fail "non-PIE with -g"; cat "$tmp/names" "$tmp/err"
fi

names "$tmp/nopie.data"
if has "region+0x4" && has "region+0x4#2" && has "MPI_Recv @ main+0x8" && grep -q "^lock_b @ " "$tmp/names" &&
	has "condition (object not recorded) @ main+0x20" && has "join @ main+0x24"; then
	ok "non-PIE without -g: function+0xOFF, MPI_Recv @ main+0x8, lock_b @ main+0x10, a wait without its object"
else
	fail "non-PIE without -g"; cat "$tmp/names" "$tmp/err"
fi

names "$tmp/pie_g.data"
if has "prog.c:$line" && grep -q '^MPI_Recv @ prog.c:' "$tmp/names" && grep -q "^lock_b @ " "$tmp/names" &&
	heap; then
	ok "PIE with -g: file:line, the static lock by its symbol at its recorded load bias, heap locks by address"
else
	fail "PIE with -g"; cat "$tmp/names" "$tmp/err"
fi

names "$tmp/pie.data"
if has "region+0x4" && grep -q "^lock_b @ " "$tmp/names" && heap; then
	ok "PIE without -g: function+0xOFF, lock_b, heap locks by address"
else
	fail "PIE without -g"; cat "$tmp/names" "$tmp/err"
fi

names "$tmp/pie_nobase.data"
"$LC" report --where "$tmp/pie_nobase.data" >"$tmp/text" 2>&1
if has "region+0x4" && ! grep -q "^lock_" "$tmp/names" && heap &&
	grep -q "0x$(add 555555554000 $((0x$(sym "$tmp/pie" lock_b)))) @ " "$tmp/names" &&
	grep -q 'no load address of the program was recorded' "$tmp/text"; then
	ok "PIE without a recorded load bias: every lock by address, and said so"
else
	fail "PIE without a recorded load bias"; cat "$tmp/names" "$tmp/text"
fi

names "$tmp/stripped.data"
"$LC" report --where "$tmp/stripped.data" >"$tmp/text" 2>&1
if has "0x$(add "$(sym "$tmp/pie" region)" 4)" && grep -q 'stripped' "$tmp/text" &&
	has "libwh.so:lib_func+0x4"; then
	ok "stripped: addresses, and the report says the file is stripped"
else
	fail "stripped"; cat "$tmp/names" "$tmp/text"
fi

# every printed name is accepted by -t
names "$tmp/nopie_g.data"
bad=
while IFS= read -r n; do
	"$LC" report -t "$n" "$tmp/nopie_g.data" >/dev/null 2>"$tmp/err" || bad="$bad '$n'"
done <"$tmp/names"
while IFS= read -r n; do
	"$LC" report --where -t "$n" "$tmp/nopie_g.data" >/dev/null 2>"$tmp/err" || bad="$bad '$n'"
done <"$tmp/names"
"$LC" report --where --inclusive --format csv "$tmp/nopie_g.data" | awk -F, 'NR > 1 { print $1 }' >"$tmp/inames"
while IFS= read -r n; do
	"$LC" report -t "$n" "$tmp/nopie_g.data" >"$tmp/out" 2>"$tmp/err" &&
		grep -q '^tid 300 ' "$tmp/out" || bad="$bad '$n'"
done <"$tmp/inames"
grep -qx 'main()' "$tmp/inames" && grep -qx 'MPI_Recv' "$tmp/inames" || bad="$bad (inclusive rows: $(tr '\n' ' ' <"$tmp/inames"))"
[ -z "$bad" ] && ok "-t accepts every printed name, exclusive and inclusive" || fail "-t refused:$bad"
"$LC" report -t lock_b "$tmp/nopie.data" >/dev/null 2>"$tmp/err"
if [ $? -ne 1 ] || ! grep -q "'lock_b' names 2 places: 'lock_b @ main+0x10' 'lock_b @ main+0x14'" "$tmp/err"; then
	fail "-t lock_b of two call sites: not refused with both"; cat "$tmp/err"
elif "$LC" report -t "prog.c:$line#" "$tmp/nopie_g.data" >/dev/null 2>&1; then
	fail "-t of no place's name accepted"
else
	ok "-t lock_b of two call sites refused with both; a name of none refused"
fi

# tags of one name (two at one line): "tag NUMBER = NAME" in text, and
# --where -t accepts a tag's row in each of its forms
r=$(sym "$tmp/nopie_g" region)
"$GEN" --write "$tmp/tags.data" "$tmp/nopie_g" - "o:$(add "$r" 4)" "t:$(add "$r" 4)" "t:$(add "$r" 5)"
t1=$((0x4f << 56 | 0x$(add "$r" 4)))
"$LC" report --where --inclusive "$tmp/tags.data" >"$tmp/text" 2>&1
bad=
grep -q "^tag $t1 = prog.c:$line (region) " "$tmp/text" || bad="$bad (text: no name beside the number)"
for t in "tag $t1" "tag $t1 = prog.c:$line (region)"; do
	"$LC" report --where -t "$t" "$tmp/tags.data" >"$tmp/out" 2>"$tmp/err" &&
		"$LC" report -t "$t" "$tmp/tags.data" >"$tmp/out2" 2>&1 && cmp -s "$tmp/out" "$tmp/out2" ||
		bad="$bad '--where -t $t': $(cat "$tmp/err")"
done
[ -z "$bad" ] && ok "tags of one name: 'tag NUMBER = NAME', and --where -t takes a tag's row" ||
	{ fail "tags of one name:$bad"; cat "$tmp/text"; }

# bad input: one line and status 2
bad=
for args in "--where=xx" "--inclusive" "--where --per-thread" "--where --per-rank" "--where -t 7" "--where --advise"; do
	"$LC" report $args "$tmp/nopie.data" >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] || bad="$bad '$args'"
done
grep -q "a category key: li ip sl cl rc ml bl wc rt" "$tmp/err" || "$LC" report --where=xx "$tmp/nopie.data" 2>&1 |
	grep -q "a category key: li ip sl cl rc ml bl wc rt" || bad="$bad (--where=xx's keys)"
"$LC" report --where --per-rank "$tmp/nopie.data" 2>&1 | grep -q -- "-t PLACE (an MPI function or call site) shows that place per rank" ||
	bad="$bad (--where --per-rank does not say to use -t PLACE)"
[ -z "$bad" ] && ok "bad options: one line, status 2" || fail "bad options:$bad"
# -t of an MPI function: per thread, the count column is its call sites
"$LC" report --where -t MPI_Recv "$tmp/nopie.data" >"$tmp/out" 2>&1
if grep -q ' places slowest ' "$tmp/out" && ! grep -q ' threads ' "$tmp/out" &&
	awk '$1 == "tid" && $2 == "300" { for (i = 1; i <= NF; i++) if ($i ~ /%$/) { exit !($(i + 1) == 2) } } END { if (NR == 0) exit 1 }' "$tmp/out"; then
	ok "-t MPI_Recv per thread: the places column counts its 2 call sites"
else
	fail "-t MPI_Recv per thread"; cat "$tmp/out"
fi
"$GEN" --write "$tmp/none.data" "$tmp/nopie" -
"$LC" report --where "$tmp/none.data" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "holds no places" "$tmp/err" && [ ! -s "$tmp/out" ]; then
	ok "a profile without places: said so, status 1"
else
	fail "a profile without places"; cat "$tmp/err"
fi

# the HTML table of 230 places: 200 rows, the other 30 summed, adding up
"$GEN" --write "$tmp/many.data" "$tmp/nopie" - $(seq 4096 4325 | awk '{ printf "w:%x ", $1 }')
"$LC" report --html "$tmp/many.html" "$tmp/many.data" 2>"$tmp/err"
if awk '/<table id="where">/ { on = 1; next } on && /<\/table>/ { exit } on && /^<tr><td>/ { n++; split($0, c, "<td"); v = c[6]; sub(/^ title="/, "", v); sub(/[ "<].*/, "", v); sl += v; if ($0 ~ /30 more places/) more = 1 }
	END { printf "      %d rows, sl %.9f s\n", n, sl; exit !(n == 202 && more && sl > 0.2299999 && sl < 0.2300001) }' "$tmp/many.html"; then
	ok "HTML: 200 places, the other 30 in one row, the sl column adds up"
else
	fail "HTML of 230 places"; cat "$tmp/err"
fi

# rebuilt after the run: refused with the reason, addresses kept
cc -O1 -g -no-pie -fno-pie -DVARIANT=2 -o "$tmp/nopie_g" "$tmp/prog.c" -L"$tmp" -lwh -Wl,-rpath,"$tmp"
names "$tmp/nopie_g.data"
"$LC" report --where "$tmp/nopie_g.data" >"$tmp/text" 2>&1
if grep -q 'binary changed since the run: build id' "$tmp/text" &&
	has "0x$(add "$(sym "$tmp/nopie" region)" 4)" && ! grep -q '^prog.c' "$tmp/names"; then
	ok "rebuilt after the run: names refused with the build id, addresses kept"
else
	fail "rebuilt"; cat "$tmp/text"
fi

# the library removed: its place is an address, and the reason is given
rm "$tmp/libwh.so"
names "$tmp/nopie.data"
"$LC" report --where "$tmp/nopie.data" >"$tmp/text" 2>&1
if has "libwh.so+0x$(add "$lf" 4)" && grep -q 'libwh.so: No such file' "$tmp/text"; then
	ok "a removed library: module+0xADDR, and why"
else
	fail "removed library"; cat "$tmp/names" "$tmp/text"
fi
finish
