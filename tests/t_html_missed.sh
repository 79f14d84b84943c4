#!/bin/sh
# t_html_missed.sh — the HTML page counts missed ticks as the text report
# does: the demo is recorded with the adaptive interval (its mean is far
# above the 100 us minimum), and the page's count of missed ticks, the
# seconds its note gives them and its black marks agree with the report's
# "excludes the N missed ticks: their S s" (none when the report has none).
# The page is read as headless Chromium renders it when Chromium is here,
# else as written; with Chromium, also: in a 1,400-px window the page
# (with its where table, recorded with --pthread) is no wider than the
# window, and the page logs no console message.
SUB=report
. tests/lib.sh
DEMO=build/examples/demo
need_built t_html_missed "$DEMO" examples

"$LC" record -q --pthread -o "$tmp/d.data" -- "$DEMO" >"$tmp/rec.out" 2>&1 ||
	{ cat "$tmp/rec.out"; echo "t_html_missed: record failed"; exit 1; }
run report -f "$tmp/d.data"
cp "$tmp/out" "$tmp/text"
run report -f "$tmp/d.data" --html "$tmp/r.html"
check "--html writes the page" '[ -s "$tmp/r.html" ]'
if command -v chromium >/dev/null 2>&1; then
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile" --dump-dom "file://$tmp/r.html" >"$tmp/dom" 2>/dev/null
	[ -s "$tmp/dom" ] || cp "$tmp/r.html" "$tmp/dom"
else
	cp "$tmp/r.html" "$tmp/dom"
fi
want=$(sed -n 's/.*excludes the \([0-9]*\) missed ticks.*/\1/p' "$tmp/text" | head -n 1)
wsec=$(sed -n 's/.*missed ticks[^:]*: their \([0-9.]*\) s.*/\1/p' "$tmp/text" | head -n 1)
got=$(sed -n 's/.*id="missed-ticks">\([0-9]*\)<.*/\1/p' "$tmp/dom" | head -n 1)
marks=$(grep -o 'class="missed"' "$tmp/dom" | wc -l)
st=0
if [ -z "$want" ]; then
	check "the report has no missed ticks: the page has no count and no marks ($got, $marks)" \
		'[ -z "$got" ] && [ "$marks" -eq 0 ] && ! grep -q "id=\"missed\"" "$tmp/dom"'
else
	gsec=$(sed -n 's/.*id="missed">[^<]*their \([0-9.]*\) s.*/\1/p' "$tmp/dom" | head -n 1)
	check "the page counts the report's $want missed ticks (page: $got)" '[ "$got" = "$want" ]'
	check "at most as many marked windows as missed ticks ($marks <= $want)" \
		'[ "$marks" -le "$want" ]'
	if grep -q 'id="stall"' "$tmp/dom"; then
		ok "the stall warning replaces the note (as the report's does)"
	else
		check "the page's note prices them as the report ($wsec s; page: $gsec s)" \
			'[ -n "$gsec" ] && [ "$gsec" = "$wsec" ]'
	fi
fi
if command -v chromium >/dev/null 2>&1; then
	# a copy with a script that writes the widths into the DOM
	python3 - "$tmp/r.html" "$tmp/m.html" <<'PY'
import sys
s = open(sys.argv[1]).read()
js = ('<script>var b = document.body, t = document.getElementById("where"); '
      'b.setAttribute("data-sw", document.documentElement.scrollWidth); '
      'b.setAttribute("data-tw", t ? Math.round(t.getBoundingClientRect().width) : -1);</script>')
open(sys.argv[2], "w").write(s.replace("</body>", js + "</body>"))
PY
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile2" --window-size=1400,900 --dump-dom \
		"file://$tmp/m.html" >"$tmp/mdom" 2>/dev/null
	sw=$(sed -n 's/.*data-sw="\([0-9]*\)".*/\1/p' "$tmp/mdom" | head -n 1)
	tw=$(sed -n 's/.*data-tw="\(-\?[0-9]*\)".*/\1/p' "$tmp/mdom" | head -n 1)
	st=0
	check "the where table and the page fit a 1,400-px window (table $tw px, page $sw px)" \
		'[ -n "$sw" ] && [ "$tw" -gt 0 ] && [ "$tw" -le 1400 ] && [ "$sw" -le 1400 ]'
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile3" --enable-logging=stderr --v=0 --dump-dom \
		"file://$tmp/r.html" >/dev/null 2>"$tmp/console"
	check "the page logs no console message ($(grep -c 'CONSOLE' "$tmp/console"))" \
		'! grep -q "CONSOLE" "$tmp/console"'
fi
finish
