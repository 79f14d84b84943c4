#!/bin/sh
# t_outsider.sh — another local user cannot put processes into root's
# recording.  A session's name is visible in /dev/shm; a process of a
# second user (created for the test and removed at its end), started with
# LOSTCYCLES_SESSION set to the name of a recording in progress, publishes
# a valid segment of its own (its owner is its process's owner).  It does
# not descend from the recorded command, so it is refused: the recording
# keeps 1 process and p = 2 (the command's LC_TEAM), and record says how
# many it refused and why.  (It was taken: "2 processes, p = 4".)  SKIP
# when not root or when no user can be created here.
SUB=outsider
. tests/lib.sh
W=build/workloads/helpers
need_built t_outsider "$W"
[ "$(id -u)" -eq 0 ] || { echo "t_outsider: needs root (it creates a second user)"; exit 77; }
for c in useradd userdel setpriv; do
	command -v "$c" >/dev/null 2>&1 || { echo "t_outsider: $c is not installed"; exit 77; }
done
user=lcout$$
useradd -M -r -s /bin/false "$user" >"$tmp/ua" 2>&1 ||
	{ echo "t_outsider: cannot create a user here: $(tail -n 1 "$tmp/ua")"; exit 77; }
trap 'userdel "$user" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
cp_err() { cp "$tmp/rec.err" /tmp/lc-sec-notes/before.err; }
uid=$(id -u "$user")
gid=$(id -g "$user")
# the other user runs a copy of the workload and the library from a
# directory it can read
mkdir "$tmp/pub"
cp "$W" build/liblostcycles.so.1 "$tmp/pub/"
chmod 755 "$tmp" "$tmp/pub"
chmod 755 "$tmp/pub/helpers"
chmod 644 "$tmp/pub/liblostcycles.so.1"
setpriv --reuid="$uid" --regid="$gid" --clear-groups env LD_LIBRARY_PATH="$tmp/pub" \
	"$tmp/pub/helpers" 1 0 1 >/dev/null 2>&1 ||
	{ echo "t_outsider: the second user cannot run the workload here"; exit 77; }

"$LC" record --no-counters -o "$tmp/o.data" -- "$W" 2 0 1500 >"$tmp/rec.out" 2>"$tmp/rec.err" &
rpid=$!
await_session "$rpid" "$tmp/rec.err"
setpriv --reuid="$uid" --regid="$gid" --clear-groups env LOSTCYCLES_SESSION="$ses" \
	LD_LIBRARY_PATH="$tmp/pub" "$tmp/pub/helpers" 4 0 800 >"$tmp/in.out" 2>&1
ist=$?
wait "$rpid"
st=$?
[ "$ist" -eq 0 ] || { fail "the second user's process failed ($ist)"; cat "$tmp/in.out"; }
if [ "$st" -eq 0 ] && grep -Eq ", 1 process, p = 2( |$)" "$tmp/rec.err"; then
	ok "a second user's process with the session's name: 1 process, p = 2"
else
	fail "a second user's process with the session's name joined (exit status $st):"
	sed 's/^/      /' "$tmp/rec.err"
fi
if grep -q "^lostcycles record: 1 process refused: not started by the recorded command" "$tmp/rec.err" &&
   grep -q "(uid $uid, helpers): not started by the recorded command" "$tmp/rec.err"; then
	ok "record says it refused 1 process, and why"
else
	fail "record does not say that it refused the process:"; sed 's/^/      /' "$tmp/rec.err"
fi
run report -f "$tmp/o.data"
check "the profile: processors 2" 'grep -q "^\*\* processors: 2 " "$tmp/out"'
finish
