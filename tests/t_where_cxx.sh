#!/bin/sh
# t_where_cxx.sh — C++ and Fortran names (docs/where.md, "Names"): profiles
# written by build/tests/test_where --write with places at known addresses
# of a C++ program built here without debug information.  A construct in a
# C++ function is named by the demangled function ("ns::ddot(int, double
# const*, double*, double&)+0x4"), never by its mangled symbol; a static C++
# object by its demangled name; the same names in --where's text, CSV, the
# inclusive view and the HTML page.  A Fortran-style name ("ddot_") stays as
# the linker spells it.
SUB=where_cxx
. tests/lib.sh
GEN=build/tests/test_where
[ -x "$GEN" ] || { echo "t_where_cxx: $GEN is missing (make build/tests/test_where)" >&2; exit 1; }
command -v nm >/dev/null || skip t_where_cxx "nm (binutils) is missing"
CXX=
for c in c++ g++ clang++; do command -v $c >/dev/null && { CXX=$c; break; }; done
[ -n "$CXX" ] || skip t_where_cxx "no C++ compiler (c++, g++, clang++)"
lc_tmpdir

cat >"$tmp/prog.cpp" <<'EOF'
#include <cstdio>
namespace ns {
int lock[6] = { 1 };
__attribute__((noinline)) void ddot(int n, const double *x, double *y, double &r)
{
	for (int i = 0; i < n; i++)
		r += x[i] * y[i] + lock[i & 3];
}
}
extern "C" __attribute__((noinline)) int ddot_(int *n) { return *n * 2 + ns::lock[*n & 3]; }
int main(int argc, char **argv)
{
	double x[4] = { 1, 2, 3, 4 }, y[4] = { 4, 3, 2, 1 }, r = 0;
	(void)argv;
	ns::ddot(argc, x, y, r);
	std::printf("%g %d\n", r, ddot_(&argc));
	return 0;
}
EOF
$CXX -O1 -no-pie -fno-pie -o "$tmp/prog" "$tmp/prog.cpp" 2>"$tmp/cc.err" ||
	skip t_where_cxx "$CXX cannot build a non-PIE C++ program: $(head -n 1 "$tmp/cc.err")"

sym() { nm "$1" 2>/dev/null | awk -v s="$2" '$3 == s { print $1; exit }'; }
add() { printf '%x' $((0x$1 + $2)); }
d=$(sym "$tmp/prog" _ZN2ns4ddotEiPKdPdRd)
l=$(sym "$tmp/prog" _ZN2ns4lockE)
f=$(sym "$tmp/prog" ddot_)
[ -n "$d" ] && [ -n "$l" ] && [ -n "$f" ] ||
	skip t_where_cxx "$CXX mangles ns::ddot or names ns::lock otherwise ($(nm "$tmp/prog" | grep -c ddot) ddot symbols)"

# a region in ns::ddot, a wait on ns::lock called from ns::ddot, a region
# in ddot_
"$GEN" --write "$tmp/cxx.data" "$tmp/prog" - "o:$(add "$d" 4)" "s:1:$(add "$d" 8):$l" \
	"o:$(add "$f" 4)" >"$tmp/gen.out" 2>&1 || { fail "write the profile"; cat "$tmp/gen.out"; }

DD='ns::ddot(int, double const\*, double\*, double&)'
"$LC" report --where --format csv "$tmp/cxx.data" >"$tmp/csv" 2>"$tmp/err"
status_ok "--where --format csv" $? "$tmp/err"
has_lines "--where's CSV names the C++ places demangled" "$tmp/csv" \
	"^\"\{0,1\}$DD+0x4\"\{0,1\}," "^\"\{0,1\}ns::lock @ $DD+0x8\"\{0,1\}," "^ddot_+0x4,"
if grep -q "_ZN2ns" "$tmp/csv"; then
	fail "--where's CSV still shows a mangled name"; cat "$tmp/csv"
else
	ok "--where's CSV has no mangled name"
fi
"$LC" report --where "$tmp/cxx.data" >"$tmp/text" 2>&1
has_lines "--where's text names them demangled" "$tmp/text" "^$DD+0x4 " "^ddot_+0x4 "
"$LC" report --where --inclusive "$tmp/cxx.data" >"$tmp/incl" 2>&1
has_lines "the inclusive view's function row is the demangled function" "$tmp/incl" "^$DD "
"$LC" report --html "$tmp/cxx.html" "$tmp/cxx.data" >"$tmp/html.out" 2>&1
if grep -q "ns::ddot(int, double const\*, double\*, double\(&amp;\|&#38;\))+0x4" "$tmp/cxx.html" &&
   ! grep -q "_ZN2ns" "$tmp/cxx.html"; then
	ok "the HTML page names the C++ place demangled"
else
	fail "the HTML page: no demangled name"; grep -o "[^<>]*ddot[^<>]*" "$tmp/cxx.html" | head
fi

# --tags of a -g build: "file:LINE (function)", the function as the debug
# information names it, never mangled
if $CXX -g -O1 -no-pie -fno-pie -o "$tmp/prog_g" "$tmp/prog.cpp" 2>/dev/null; then
	dg=$(sym "$tmp/prog_g" _ZN2ns4ddotEiPKdPdRd)
	"$GEN" --write "$tmp/tags.data" "$tmp/prog_g" - "o:$(add "$dg" 4)" "t:$(add "$dg" 4)" \
		>"$tmp/gen.out" 2>&1
	"$LC" report --tags "$tmp/tags.data" >"$tmp/tags" 2>&1
	if grep -q "prog.cpp:[0-9]* (ddot)" "$tmp/tags" && ! grep -q "_ZN2ns" "$tmp/tags"; then
		ok "--tags names the C++ function of a tag readably"
	else
		fail "--tags: no readable C++ function"; cat "$tmp/tags"
	fi
else
	echo "note  $CXX -g failed: the --tags check is left out"
fi
finish
