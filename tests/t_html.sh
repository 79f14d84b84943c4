#!/bin/sh
# t_html.sh — "report --html": the demo program is recorded and its page
# rendered in headless Chromium (installed here by scripts/install-deps.sh
# chromium when missing; SKIP when it cannot be).  The page names no URL,
# script, font or stylesheet of its own; Chromium's DOM of it holds the
# category table, the per-thread and timeline images (inline SVG, one
# rectangle per thread and category with time) and the advice, and with
# --model the model's curves and this run's point.  Chromium
# runs with its proxy set to a listener of this test: while it renders the
# page no request for the page reaches the listener, and a control page
# with an external image does send one (so the listener would see a leak).
# Chromium's own background requests (its update and time services on
# *.google.com and *.googleapis.com) are not the page's and are left out.
SUB=report
. tests/lib.sh
DEMO=build/examples/demo
need_built t_html "$DEMO" examples
command -v python3 >/dev/null || skip t_html "python3 is not installed"
if ! command -v chromium >/dev/null 2>&1; then
	sh scripts/install-deps.sh chromium >"$tmp/deps" 2>&1 ||
		{ tail -n 3 "$tmp/deps"; skip t_html "chromium is not installed and could not be installed: $(tail -n 1 "$tmp/deps")"; }
fi
command -v chromium >/dev/null 2>&1 || skip t_html "chromium could not be installed"

"$LC" record -q -o "$tmp/d.data" -- "$DEMO" >"$tmp/rec.out" 2>&1 ||
	{ cat "$tmp/rec.out"; echo "t_html: record failed"; exit 1; }
run report -f "$tmp/d.data" --html "$tmp/r.html"
check "--html writes the page" '[ -s "$tmp/r.html" ]'
st=0
check "the page names no URL, script, font or stylesheet" \
	'! grep -Eiq "https?:|<script|@import|@font-face|url\(|src=|href=" "$tmp/r.html"'

# the listener: prints its port, logs the first line of each request
cat >"$tmp/listen.py" <<'PY'
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(16)
print(s.getsockname()[1], flush=True)
log = open(sys.argv[1], "a")
while True:
    c, _ = s.accept(); c.settimeout(2)
    try: d = c.recv(300)
    except Exception: d = b""
    log.write(d.split(b"\r\n")[0].decode("latin1") + "\n"); log.flush(); c.close()
PY
python3 "$tmp/listen.py" "$tmp/req.log" >"$tmp/port" 2>/dev/null &
lpid=$!
trap 'kill $lpid 2>/dev/null; rm -rf "$tmp"' EXIT
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$tmp/port" ] && break; sleep 0.2; done
port=$(cat "$tmp/port")
browse() {	# browse URL ARGS...: headless Chromium through the listener
	u=$1; shift
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-default-apps --user-data-dir="$tmp/profile" \
		--proxy-server="127.0.0.1:$port" --proxy-bypass-list='<-loopback>' "$@" "$u" 2>/dev/null
}
page_requests() {	# requests in the log that are not Chromium's own services
	grep -v -E '(google\.com|googleapis\.com|gstatic\.com)' "$tmp/req.log" | grep -c .
}

: >"$tmp/req.log"
browse "file://$tmp/r.html" --dump-dom >"$tmp/dom"
browse "file://$tmp/r.html" --screenshot="$tmp/shot.png" --window-size=1000,1500 >/dev/null
sleep 1
n=$(page_requests)
st=0
check "Chromium renders the table, both images and the advice" \
	'grep -q "<table id=\"categories\">" "$tmp/dom" && grep -q "Load Imbalance (li)" "$tmp/dom" &&
	 grep -q "<svg id=\"threads\"" "$tmp/dom" && grep -q "<svg id=\"timeline\"" "$tmp/dom" &&
	 [ "$(grep -o "<rect " "$tmp/dom" | wc -l)" -ge 20 ] && grep -q "fix \[[a-z]*-[a-z]*\]:" "$tmp/dom"'
check "no request leaves the page (listener saw $n)" '[ "$n" -eq 0 ]'
check "a screenshot is taken" \
	'python3 -c "import sys,struct; d=open(sys.argv[1],\"rb\").read(); w,h=struct.unpack(\">II\",d[16:24]); sys.exit(not (d[:8]==b\"\x89PNG\r\n\x1a\n\" and w==1000 and len(d)>20000))" "$tmp/shot.png"'

printf '<html><body><img src="http://lostcycles-test.invalid/x.png"><p>control</p></body></html>\n' >"$tmp/ctl.html"
: >"$tmp/req.log"
browse "file://$tmp/ctl.html" --dump-dom >/dev/null
sleep 1
check "control: a page with an external image is seen by the listener" \
	'grep -q "lostcycles-test.invalid" "$tmp/req.log"'

printf 'rt(p) = 2.4\nli(p) = 0.05*p\nip(p) = 0.4\n' >"$tmp/m.model"
run report -f "$tmp/d.data" --html "$tmp/m.html" --model "$tmp/m.model"
browse "file://$tmp/m.html" --dump-dom >"$tmp/mdom"
check "with --model: the model's curves (T and three categories) and this run's dot" \
	'grep -q "<svg id=\"model\"" "$tmp/mdom" && [ "$(grep -o "<polyline " "$tmp/mdom" | wc -l)" -eq 4 ] &&
	 grep -q "<title>this run: p = 4" "$tmp/mdom" && ! grep -q "<svg id=\"model\"" "$tmp/dom"'

refuse "--html with --per-thread" 2 "take no other report option" -f "$tmp/d.data" \
	--html "$tmp/x.html" --per-thread
finish
