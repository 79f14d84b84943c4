#!/bin/sh
# t_outputs.sh — every command that writes a file creates it anew
# (O_CREAT|O_EXCL|O_NOFOLLOW): an existing file is refused without --force
# and left as it was, a symbolic link is never followed (the file it points
# to is untouched, even with --force, which replaces the link itself), and
# the default profile name keeps its previous file as NAME.old, as perf does.
# Run from the top of the tree with sh; exits non-zero on failure.
set -u

SUB=record
. tests/lib.sh
D=tests/data
top=$(pwd)
LCA="$top/lostcycles"

# victim: a file that must survive every refusal below
printf 'precious\n' >"$tmp/victim"
chmod 600 "$tmp/victim"
same() { [ "$(cat "$1")" = "precious" ]; }
is_profile() { "$LC" report -f "$1" >/dev/null 2>&1; }

# ---- record / attach ---------------------------------------------------------
printf 'old\n' >"$tmp/exists.data"
refuse "record -o an existing file is refused" 1 "exists (give --force to replace it)" \
	-q -o "$tmp/exists.data" -- true
[ "$(cat "$tmp/exists.data")" = old ] && ok "  ... and the file is left as it was" ||
	fail "record changed a file it refused"
ln -s "$tmp/victim" "$tmp/link.data"
refuse "record -o a symbolic link is refused" 1 "not a regular file" -q -o "$tmp/link.data" -- true
same "$tmp/victim" && ok "  ... and the file it points to is untouched" || fail "record wrote through a link"
run record -q --force -o "$tmp/link.data" -- true
check "record --force -o a link replaces the link, not its target" \
	'same "$tmp/victim" && [ ! -L "$tmp/link.data" ] && is_profile "$tmp/link.data"'
run record -q --force -o "$tmp/exists.data" -- true
check "record --force replaces an existing file" 'is_profile "$tmp/exists.data"'
mkdir "$tmp/dir.data"
refuse "record -o a directory is refused, even with --force" 1 "is a directory" \
	-q --force -o "$tmp/dir.data" -- true
SUB=attach refuse "attach -o an existing file is refused" 1 "exists (give --force" \
	-o "$tmp/exists.data" $$ 2>/dev/null

# the default name rotates: the previous lostcycles.data becomes .old
mkdir "$tmp/cwd"
( cd "$tmp/cwd" && "$LCA" record -q -- true && cp lostcycles.data first &&
  "$LCA" record -q -- true ) >"$tmp/out" 2>&1
st=$?
check "the default lostcycles.data keeps its previous file as lostcycles.data.old" \
	'cmp -s "$tmp/cwd/first" "$tmp/cwd/lostcycles.data.old" && is_profile "$tmp/cwd/lostcycles.data"'
ln -sf "$tmp/victim" "$tmp/cwd/lostcycles.data"
( cd "$tmp/cwd" && "$LCA" record -q -- true ) >"$tmp/out" 2>&1
st=$?
[ "$st" -eq 1 ] && same "$tmp/victim" && ok "a link planted at the default name is not rotated or followed" ||
	fail "default name through a link: status $st"

# ---- merge ---------------------------------------------------------------------
SUB=merge refuse "merge -o an existing file is refused" 1 "exists (give --force" \
	-o "$tmp/exists.data" "$tmp/cwd/first"

# ---- analysis outputs: plots, extracted structures -------------------------------
cp "$tmp/victim" "$tmp/p.gp"
SUB=predict refuse "predict --plot refuses an existing FILE.gp" 1 "exists (give --force" \
	-m $D/fit/fft_data.model --grid "n=16,32 p=26" --plot "$tmp/p.png"
same "$tmp/p.gp" && ok "  ... and leaves it alone" || fail "predict --plot overwrote FILE.gp"
ln -sf "$tmp/victim" "$tmp/q.data"
SUB=predict refuse "predict --plot does not follow a link at FILE.data" 1 "not a regular file" \
	-m $D/fit/fft_data.model --grid "n=16,32 p=26" --plot "$tmp/q.png"
run predict -m $D/fit/fft_data.model --grid "n=16,32 p=26" --plot "$tmp/p.png" --force
check "predict --plot --force replaces the files" \
	'grep -q "written by lostcycles predict" "$tmp/p.gp" && same "$tmp/victim"'
cp "$tmp/victim" "$tmp/li.data"
SUB=fit refuse "fit -g refuses an existing NAME.data" 1 "exists (give --force" \
	-c li -v p -f $D/fit/runfast.runs -x "n=256" -g "$tmp/li"
same "$tmp/li.data" && ok "  ... and leaves it alone" || fail "fit -g overwrote NAME.data"
cp "$tmp/victim" "$tmp/s.lcm"
SUB=compose refuse "compose --extract -o refuses an existing file" 1 "exists (give --force" \
	--extract $D/compose/annotated.c -o "$tmp/s.lcm"
run compose --extract $D/compose/annotated.c -o "$tmp/s.lcm" --force
check "compose --extract -o --force replaces it" 'cmp -s "$tmp/s.lcm" $D/compose/annotated.lcm'
ln -s "$tmp/victim" "$tmp/m.model"
run fit -c li -v p -f $D/fit/runfast.runs -x "n=256" --emit "$tmp/m.model"
[ "$st" -ne 0 ] && same "$tmp/victim" && ok "fit --emit does not append through a link" ||
	fail "fit --emit appended through a link (status $st)"
SUB=outputs
finish
