#!/bin/sh
# t_force_sticky.sh — --force never replaces another user's name in a
# sticky directory such as /tmp, not even for root (whom the kernel lets
# remove it): root's "record --force -o" onto a link that uid 65534 planted
# in a 1777 directory is refused with the reason, the link and the file it
# points to untouched; a file of root's own there is replaced as before.
SUB=force_sticky
. tests/lib.sh
[ "$(id -u)" -eq 0 ] || skip t_force_sticky "needs root (for another user the kernel itself refuses the unlink)"
d="$tmp/sticky"
mkdir "$d" && chmod 1777 "$d"
echo secret >"$d/target"
ln -s "$d/target" "$d/x.data"
chown -h 65534 "$d/x.data" || skip t_force_sticky "cannot give a link to uid 65534 here"

"$LC" record --force -q -o "$d/x.data" -- true >"$tmp/out" 2>&1
st=$?
if [ "$st" -ne 0 ] && grep -q "belongs to uid 65534 in a sticky directory: not replaced" "$tmp/out"; then
	ok "root's --force refuses another user's link in a sticky directory"
else
	fail "root's --force onto another user's link: exit status $st"; sed 's/^/      /' "$tmp/out"
fi
if [ -L "$d/x.data" ] && [ "$(stat -c %u "$d/x.data")" = 65534 ] && [ "$(cat "$d/target")" = secret ]; then
	ok "the link and the file it points to are untouched"
else
	fail "the planted link or its file changed"
fi
echo mine >"$d/own.data"
"$LC" record --force -q -o "$d/own.data" -- true >"$tmp/out" 2>&1
st=$?
if [ "$st" -eq 0 ] && [ "$(head -c 4 "$d/own.data")" != mine ]; then
	ok "a file of root's own in the sticky directory is replaced with --force"
else
	fail "root's own file was not replaced: exit status $st"; sed 's/^/      /' "$tmp/out"
fi
finish
