#!/bin/sh
# t_man_example.sh — the EXAMPLE of lostcycles(3) is a program that works:
# the .EX block is taken out of docs/man/lostcycles.3 (its roff escapes
# undone), compiled as the page says (cc ... -llostcycles -pthread, here
# against the build's header and library, with -Wall -Wextra -Werror),
# and recorded: it exits 0, prints its total, and the profile holds its
# fragment (report --tags) and the tasks it declares wasted (Wasted
# Computation above zero).  Run from the top of the tree (make check does).
. tests/lib.sh
set -u
LC=./lostcycles
lib=$(pwd)/build
page=docs/man/lostcycles.3
lc_tmpdir

# the first .EX ... .EE block after .SH EXAMPLE, with \e, \- and \(aq undone
sed -n '/^\.SH EXAMPLE/,/^\.SH /p' "$page" | sed -n '/^\.EX/,/^\.EE/p' | sed '1d;$d' |
	sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g' >"$tmp/sum.c"
if ! grep -q 'int main' "$tmp/sum.c"; then
	fail "$page: no program in its EXAMPLE"
	exit 1
fi
san=${LC_SAN:+-fsanitize=$LC_SAN}
if cc -std=c11 -Wall -Wextra -Werror $san -I flaglib -o "$tmp/sum" "$tmp/sum.c" \
	-L"$lib" -llostcycles -pthread -Wl,-rpath,"$lib" 2>"$tmp/cc.err"; then
	ok "the EXAMPLE compiles without a warning ($(wc -l <"$tmp/sum.c") lines)"
else
	fail "the EXAMPLE of $page does not compile:"; sed 's/^/      /' "$tmp/cc.err"
	exit 1
fi
"$LC" record -o "$tmp/sum.data" -- "$tmp/sum" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 0 ] && grep -q '^total [0-9]' "$tmp/out"; then
	ok "recorded, it exits 0 and prints $(cat "$tmp/out")"
else
	fail "record of the EXAMPLE: exit status $st"; sed 's/^/      /' "$tmp/out" "$tmp/err"
fi
if "$LC" report --tags "$tmp/sum.data" 2>/dev/null | grep -q '^ *1\b'; then
	ok "its profile holds fragment 1"
elif unjudged "its profile holds fragment 1" "$tmp/err"; then
	:
else
	fail "no fragment 1 in its profile:"; "$LC" report --tags "$tmp/sum.data" 2>&1 | sed 's/^/      /'
fi
if "$LC" report --format csv "$tmp/sum.data" 2>/dev/null | awk -F, '$1 == "wc" && $3 > 0 { f = 1 } END { exit !f }'; then
	ok "the tasks it declares wasted show as Wasted Computation"
elif unjudged "the tasks it declares wasted show as Wasted Computation" "$tmp/err"; then
	:
else
	fail "no Wasted Computation from LC_TASK_WASTED:"; "$LC" report "$tmp/sum.data" 2>&1 | sed 's/^/      /'
fi
end_unjudged t_man_example
[ "$nfail" -eq 0 ] && echo "t_man_example: the EXAMPLE of lostcycles(3) builds and runs"
exit $((nfail > 0))
