#!/bin/sh
# t_completion_values.sh — the bash completion of option values, files and
# profiles, driven through a real interactive bash (readline on a
# pseudo-terminal, which splits "--format=" into words as a user's shell
# does): in a folder holding a.data, b.data, notes.txt and sub/,
#   lostcycles report -f <TAB><TAB>   lists a.data, b.data and sub/, not notes.txt
#   lostcycles report -f a<TAB>       completes a.data
#   lostcycles report --format=<TAB><TAB>  lists text csv json perfetto
#   lostcycles report --format=j<TAB>      completes --format=json
#   lostcycles report --where=s<TAB>  completes --where=sl (a category)
#   lostcycles report --color=n<TAB>  completes --color=never
#   lostcycles report --source <TAB><TAB>  lists sampled and trace
#   lostcycles report --html n<TAB>   completes notes.txt (any file)
#   lostcycles rec<TAB>, help rep<TAB>  complete the subcommands
#   lostcycles report <TAB><TAB>      lists the profiles (the operand)
#   lostcycles export --otf2 s<TAB>   completes sub/ (a directory)
# and, with COMP_WORDS set by hand as bash sets them, the function itself.
# Exits 77 without bash or python3.
. tests/lib.sh
set -u
command -v bash >/dev/null 2>&1 || skip t_completion_values "bash is not installed"
command -v python3 >/dev/null 2>&1 || skip t_completion_values "python3 is not installed"
lc_tmpdir
top=$(pwd)
./lostcycles --completion bash >"$tmp/comp.bash"
mkdir -p "$tmp/w/sub"
: >"$tmp/w/a.data"; : >"$tmp/w/b.data"; : >"$tmp/w/notes.txt"

# tab.py COMPLETION DIR KEYS: an interactive bash on a pseudo-terminal in
# DIR with the completion sourced is sent KEYS (\t for TAB), then C-a,
# "echo [", C-e, "]" and Return: prints what the shell showed after the
# keys (a listing) and the line as completed (between [ and ])
cat >"$tmp/tab.py" <<'PY'
import fcntl, os, pty, re, select, struct, sys, termios, time
comp, wd, keys = sys.argv[1], sys.argv[2], sys.argv[3].encode().decode("unicode_escape")
pid, fd = pty.fork()
if pid == 0:	# a wide terminal: no line is scrolled sideways
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 400, 0, 0))
    os.chdir(wd)
    os.environ.update(PS1="> ", TERM="dumb", INPUTRC="/dev/null", HISTFILE="/dev/null")
    os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
def read(until, t=20):
    out, end = b"", time.time() + t
    while time.time() < end and until not in out:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try: out += os.read(fd, 4096)
            except OSError: break
    return out.decode("utf-8", "replace")
os.write(fd, (". '%s'; bind 'set bell-style none'; echo RE''ADY\n" % comp).encode())
read(b"READY\r\n")
os.write(fd, keys.encode())
time.sleep(1.5)
shown = read(b"\x00", 1)
os.write(fd, b"\x01echo [\x05]\r")
line = read(b"]\r\n> ", 10)
os.write(fd, b"exit\r")
m = re.findall(r"^\[(.*)\]\r?$", line, re.M)
print("SHOWN:" + re.sub(r"\s+", " ", re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)))
print("LINE:" + (m[-1] if m else "?"))
PY
tab() {	# tab KEYS: the SHOWN: and LINE: of tab.py
	PATH=$top:$PATH timeout 60 python3 "$tmp/tab.py" "$tmp/comp.bash" "$tmp/w" "$1" 2>&1
}
shown() { tab "$1" | sed -n 's/^SHOWN://p'; }
line() { tab "$1" | sed -n 's/^LINE://p'; }

got=$(shown 'lostcycles report -f \t\t')
case " $got " in
*" a.data"*" b.data"*" sub/"*) case $got in *notes.txt*) fail "report -f <TAB><TAB> lists notes.txt: $got" ;;
	*) ok "report -f <TAB><TAB>: the profiles and folders ($got)" ;; esac ;;
*) fail "report -f <TAB><TAB> does not list a.data b.data sub/: '$got'" ;;
esac
got=$(line 'lostcycles report -f a\t')
[ "$got" = "lostcycles report -f a.data " ] && ok "report -f a<TAB>: a.data" ||
	fail "report -f a<TAB> gives '$got'"
got=$(shown 'lostcycles report --format=\t\t')
case " $got " in *" text"*|*" csv"*) case $got in *json*perfetto*|*perfetto*json*) ok "report --format=<TAB><TAB>: $got" ;;
	*) fail "report --format=<TAB><TAB> lists '$got'" ;; esac ;;
*) fail "report --format=<TAB><TAB> lists '$got'" ;;
esac
for c in 'lostcycles report --format=j|lostcycles report --format=json ' \
	'lostcycles report --where=s|lostcycles report --where=sl ' \
	'lostcycles report --color=n|lostcycles report --color=never ' \
	'lostcycles report --html n|lostcycles report --html notes.txt ' \
	'lostcycles rec|lostcycles record ' \
	'lostcycles help rep|lostcycles help report ' \
	'lostcycles export --otf2 s|lostcycles export --otf2 sub/'; do
	keys=${c%%|*} want=${c#*|}
	got=$(line "$keys\\t")
	[ "$got" = "$want" ] && ok "$keys<TAB>: '$want'" || fail "$keys<TAB> gives '$got', want '$want'"
done
got=$(shown 'lostcycles report --source \t\t')
case $got in *sampled*trace*) ok "report --source <TAB><TAB>: $got" ;;
*) fail "report --source <TAB><TAB> lists '$got'" ;; esac
got=$(shown 'lostcycles report \t\t')
case " $got " in *" a.data"*" b.data"*) case $got in *notes.txt*) fail "report <TAB><TAB> lists notes.txt" ;;
	*) ok "report <TAB><TAB>: the profiles ($got)" ;; esac ;;
*) fail "report <TAB><TAB> does not list the profiles: '$got'" ;;
esac

# the function alone, COMP_WORDS as bash splits "--format=j"
got=$(cd "$tmp/w" && PATH=$top:$PATH bash -c '. "$1"; shift
	COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _lostcycles
	echo "${COMPREPLY[*]}"' sh "$tmp/comp.bash" lostcycles report --format = j 2>&1)
[ "$got" = json ] && ok "COMP_WORDS (lostcycles report --format = j): json" ||
	fail "COMP_WORDS (lostcycles report --format = j) gives '$got'"
[ "$nfail" -eq 0 ] && echo "t_completion_values: values, files and profiles complete in bash"
exit $((nfail > 0))
