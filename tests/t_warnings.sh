#!/bin/sh
# t_warnings.sh — what the text report warns about reaches every output:
#   - a sampler that missed ticks (the command stops record with SIGSTOP
#     for 50 ms): the report's "±" footnote says that it excludes the
#     missed ticks and how much time they held, and "report --html" carries
#     the stall warning (and the shared-CPU note when the text has it);
#   - a category that was not measured (memory loss with --no-counters) is
#     left out of the Perfetto counter track instead of written as 0.
# Run from the top of the tree (make check does).
. tests/lib.sh
set -u
LC=./lostcycles
WL=build/layers/pt_start
need_preload t_warnings "$WL" build/liblostcycles-pthread.so
unset LD_PRELOAD

"$LC" record --force --pthread --no-counters -o "$tmp/w.data" -- sh -c \
	"kill -STOP \$PPID; sleep 0.05; kill -CONT \$PPID; exec $WL 0.2" >/dev/null 2>"$tmp/rec"
"$LC" report -f "$tmp/w.data" >"$tmp/text" 2>"$tmp/err"
"$LC" report -f "$tmp/w.data" --html "$tmp/w.html" 2>/dev/null
"$LC" report -f "$tmp/w.data" --timeline --format perfetto >"$tmp/w.json" 2>/dev/null
sed 's/^/      /' "$tmp/err" "$tmp/text"

if ! grep -q "missed" "$tmp/err"; then
	echo "NOTE: t_warnings: no tick was missed although record was stopped 50 ms: the missed-tick checks are left out"
else
	if grep -q '^\*\* ±: .*; it excludes the [0-9]* missed ticks' "$tmp/text"; then
		ok "the ± footnote says it excludes the missed ticks"
	else
		fail "the ± footnote does not mention the missed ticks"
	fi
	if grep -q '<p class="warn" id="stall">Warning: the sampler' "$tmp/w.html"; then
		ok "report --html carries the stall warning"
	else
		fail "report --html drops the stall warning"
	fi
fi
if grep -q "^\*\* note: the sampler shared CPU" "$tmp/text"; then
	if grep -q 'id="shared-cpu"' "$tmp/w.html"; then
		ok "report --html carries the shared-CPU note"
	else
		fail "report --html drops the shared-CPU note"
	fi
elif grep -q 'id="shared-cpu"' "$tmp/w.html"; then
	fail "report --html has a shared-CPU note the text does not"
fi
if grep -q '^Memory Loss  *na' "$tmp/text" && grep -q '"ph":"C"' "$tmp/w.json"; then
	if grep '"ph":"C"' "$tmp/w.json" | grep -q '"ml":'; then
		fail "the Perfetto counter track writes memory loss, which was not measured"
	else
		ok "the Perfetto counter track leaves out memory loss (na)"
	fi
else
	fail "no na memory loss or no Perfetto counter track"
fi

[ "$nfail" -eq 0 ] || { echo "t_warnings: $nfail failed"; exit 1; }
echo "t_warnings: all passed"
