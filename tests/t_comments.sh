#!/bin/sh
# t_comments.sh — comments that cannot go stale: every lc_/LC_ identifier a
# comment of the tool's sources names is in the code (scripts/
# check-comments.py).  The checker is proven first on a planted tree: a
# comment naming a function nobody defines must be reported.
set -u
top=${LC_TOP:-$(pwd)}
cd "$top" || exit 1
SUB=comments
. tests/lib.sh
command -v python3 >/dev/null 2>&1 || skip "no python3 to run scripts/check-comments.py"

mkdir -p "$tmp/plant/util"
cat >"$tmp/plant/util/a.c" <<'C'
/* lc_real() is real; lc_gone() went; lc_cmd_* and lc_cmd_NAME are patterns;
 * lc_abi.h is a file. */
int lc_real(void);
int lc_cmd_record(void);
C
python3 scripts/check-comments.py "$tmp/plant" >"$tmp/out" 2>&1
st=$?
if [ "$st" -eq 1 ] && grep -q '^util/a.c:1: lc_gone$' "$tmp/out" &&
   [ "$(grep -c '^util/' "$tmp/out")" -eq 1 ]; then
	ok "a planted stale name is named, with its file and line, and only it"
else
	fail "the planted stale name (exit $st):"; sed 's/^/      /' "$tmp/out"
fi

python3 scripts/check-comments.py >"$tmp/out" 2>&1
st=$?
if [ "$st" -eq 0 ]; then
	ok "$(tail -n 1 "$tmp/out")"
else
	fail "comments name identifiers the code lacks:"; sed 's/^/      /' "$tmp/out"
fi
finish
