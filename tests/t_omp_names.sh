#!/bin/sh
# t_omp_names.sh — OpenMP constructs named apart (tests/layers/omp_names.c,
# recorded with --omp): report --where names each construct by its kind
# from its directive ("omp parallel for", "omp parallel"), a critical
# section by its name ("omp critical (sumup) @ FILE:LINE") and an explicit
# barrier as "omp barrier @ FILE:LINE", neither as "(object not recorded)";
# no two rows share a name apart from a "#N" (a construct met at several
# addresses is one row); --tags names the region and the loop of the
# combined "parallel for" apart; -t FILE:LINE of that line chooses the
# construct holding the time (the loop), and a name several constructs
# share without one holding most is refused with the candidates.
# Exits 77 without the OpenMP layer (clang and libomp).
SUB=report
. tests/lib.sh
if [ -n "${LC_SAN:-}" ]; then
	skip t_omp_names "under SAN=$LC_SAN the OpenMP program and the OMPT tool are built by clang, whose sanitizer runtime cannot share a process with GCC's in liblostcycles"
fi
P=build/layers/omp_names
SRC=tests/layers/omp_names.c
[ -x "$P" ] && [ -f build/liblostcycles-omp.so ] ||
	skip t_omp_names "no OpenMP layer or test program (needs clang and libomp-dev)"
line() { grep -n "LINE:$1 " "$SRC" | cut -d: -f1; }
export OMP_NUM_THREADS=2
"$LC" record --omp -q -o "$tmp/n.data" -- "$P" >"$tmp/rec" 2>&1 ||
	{ cat "$tmp/rec"; echo "t_omp_names: record failed"; exit 1; }
"$LC" report -f "$tmp/n.data" --where --format csv >"$tmp/where.csv" 2>"$tmp/out"
st=$?
kind() {	# kind NAME: the kind column of the where row NAME
	awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["place"] == n { print $c["kind"] }' "$tmp/where.csv"
}
check "the combined construct is one row, 'omp parallel for' (got '$(kind "omp_names.c:$(line pfor)")')" \
	'[ "$(kind "omp_names.c:$(line pfor)")" = "omp parallel for" ]'
check "the region by its kind ('$(kind "omp_names.c:$(line region)")')" \
	'[ "$(kind "omp_names.c:$(line region)")" = "omp parallel" ]'
check "the critical section by its name" \
	'grep -q "^omp critical (sumup) @ omp_names.c:$(line critical)\b.*,omp critical," "$tmp/where.csv"'
check "the barrier as an OpenMP barrier" \
	'grep -q "^omp barrier @ omp_names.c:$(line barrier)\b.*,omp barrier," "$tmp/where.csv"'
check "no row says '(object not recorded)' nor 'mutex'" \
	'! grep -q "object not recorded\|,mutex," "$tmp/where.csv"'
cp "$tmp/where.csv" "$tmp/out"
check "no two rows of one name (a call site is one row)" \
	'[ -z "$(cut -d, -f1 "$tmp/where.csv" | sed "s/#[0-9]*\$//" | sort | uniq -d)" ]'
run report -f "$tmp/n.data" --tags
check "--tags names the region and the loop of line $(line pfor) apart" \
	'grep -q "omp_names.c:$(line pfor) (main, region)" "$tmp/out" &&
	 grep -q "omp_names.c:$(line pfor) (main, loop)" "$tmp/out" &&
	 [ -z "$(sed -n "s/^-\?[0-9][0-9]* //p" "$tmp/out" | sort | uniq -d)" ]'
run report -f "$tmp/n.data" -t "omp_names.c:$(line pfor)"
check "-t FILE:LINE of the combined construct: the loop that holds the time" \
	'grep -q "omp_names.c:$(line pfor) (omp parallel for" "$tmp/out" &&
	 awk "/^tid / { s += \$4 } END { exit !(s > 0.05) }" "$tmp/out"'
run report -f "$tmp/n.data" -t "omp_names.c:$(line pfor) (main, loop)"
check "-t with the loop's whole tag name: that tag" \
	'grep -q "fragment tag [0-9]*: omp_names.c:$(line pfor) (main, loop)" "$tmp/out"'
finish
