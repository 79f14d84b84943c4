#!/bin/sh
# t_color.sh — colour in terminal output (util/lc_color.h): report run in a
# pseudo-terminal (python3's pty) shows the category names (and the keys
# over the columns of --per-thread) in the colour
# of the category table (Load Imbalance #d62728: red, 31, with 16 colours;
# 160 of the 256-colour cube with TERM=xterm-256color) and the word
# "warning" in colour; in a pipe it shows no escape sequence at all;
# NO_COLOR (any non-empty value) and --color=never remove the colour on a
# terminal, an empty NO_COLOR does not; --color=always (and --color alone)
# force it into a pipe, even with NO_COLOR; a bad --color word is refused.
# The sampler's stall warning (record stopped 50 ms by the command) is
# printed once per report, whatever the number of views.
SUB=report
. tests/lib.sh
DEMO=build/examples/demo
need_built t_color "$DEMO" examples
command -v python3 >/dev/null || skip t_color "python3 is not installed"

# inpty OUT CMD...: run CMD with standard output and error on a new
# pseudo-terminal, its output into OUT (pty.spawn's copy to our standard
# output goes to /dev/null)
cat >"$tmp/inpty.py" <<'PY'
import os, pty, sys
out = open(sys.argv[1], "wb")
def read(fd):
    data = os.read(fd, 4096)
    out.write(data)
    return data
st = pty.spawn(sys.argv[2:], read)
sys.exit(os.waitstatus_to_exitcode(st))
PY
inpty() {
	python3 "$tmp/inpty.py" "$@" </dev/null >/dev/null
}

"$LC" record -q -o "$tmp/d.data" -- sh -c \
	"kill -STOP \$PPID; sleep 0.05; kill -CONT \$PPID; exec $DEMO" >/dev/null 2>"$tmp/rec"
[ -s "$tmp/d.data" ] || { cat "$tmp/rec"; echo "t_color: record failed"; exit 1; }
COLORTERM=; export COLORTERM	# the 16 colours unless TERM says 256
ESC=$(printf '\033')
red="${ESC}[31mLoad Imbalance${ESC}[m"

NO_COLOR= TERM=xterm inpty "$tmp/tty" "$LC" report "$tmp/d.data"
st=$?
check "on a terminal: category names in colour" "grep -qF \"\$red\" \"\$tmp/tty\""
NO_COLOR= TERM=xterm-256color inpty "$tmp/tty256" "$LC" report "$tmp/d.data"
st=$?
check "a 256-colour terminal: the nearest colour of the cube" \
	"grep -qF \"\${ESC}[38;5;160mLoad Imbalance\" \"\$tmp/tty256\""
if grep -q "warning" "$tmp/tty"; then
	check "on a terminal: the warning in colour" "grep -q \"\${ESC}\\[[0-9;]*mwarning\${ESC}\\[m: \" \"\$tmp/tty\""
else
	echo "note  record was not measured behind (no stall warning): the warning's colour is not checked"
fi
NO_COLOR= TERM=xterm "$LC" report "$tmp/d.data" >"$tmp/pipe" 2>&1
st=$?
check "in a pipe: no escape sequence" "! grep -q \"\$ESC\" \"\$tmp/pipe\""
NO_COLOR=1 TERM=xterm inpty "$tmp/nc" "$LC" report "$tmp/d.data"
st=$?
check "NO_COLOR=1 on a terminal: no escape sequence" "! grep -q \"\$ESC\" \"\$tmp/nc\""
NO_COLOR= TERM=xterm inpty "$tmp/never" "$LC" report --color=never "$tmp/d.data"
st=$?
check "--color=never on a terminal: no escape sequence" "! grep -q \"\$ESC\" \"\$tmp/never\""
NO_COLOR=1 TERM=xterm "$LC" report --color=always "$tmp/d.data" >"$tmp/always" 2>&1
st=$?
check "--color=always into a pipe, with NO_COLOR: colour" "grep -qF \"\$red\" \"\$tmp/always\""
TERM=xterm "$LC" report --color "$tmp/d.data" >"$tmp/bare" 2>&1
st=$?
check "--color alone is always" "grep -qF \"\$red\" \"\$tmp/bare\""
TERM=xterm "$LC" report --color=always --per-thread "$tmp/d.data" >"$tmp/pt" 2>/dev/null
st=$?
check "--per-thread: the category keys over the columns in colour" \
	"grep -qF \"\${ESC}[31mli\${ESC}[m\" \"\$tmp/pt\""
TERM=xterm "$LC" report --color=always --format csv "$tmp/d.data" >"$tmp/csv" 2>/dev/null
st=$?
check "--color=always leaves CSV alone" "! grep -q \"\$ESC\" \"\$tmp/csv\""
refuse "a bad --color word" 2 "bad --color 'blue'" --color=blue "$tmp/d.data"

# the stall warning: once per report, with every view asked for
"$LC" report --per-thread --timeline --counters "$tmp/d.data" >/dev/null 2>"$tmp/err"
n=$(grep -c "warning" "$tmp/err")
if grep -q "missed\|stalled\|fell behind" "$tmp/rec" "$tmp/err"; then
	st=0
	check "the stall warning once per report of four views ($n)" "[ \"\$n\" -eq 1 ]"
else
	echo "note  record was not measured behind: the count of its warning is not checked"
fi
finish
