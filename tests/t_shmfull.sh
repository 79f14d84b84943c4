#!/bin/sh
# t_shmfull.sh — /dev/shm full: the flag library reserves the pages of its
# segment (posix_fallocate), so a program that cannot get them runs as it
# would unprofiled, with one line on stderr, instead of dying of SIGBUS at
# its first flag store; under record the program's exit status comes
# through and the sampler survives.  Runs in a private mount namespace with
# a full 64 KiB tmpfs on /dev/shm (needs root and unshare); else exits 77.
. tests/lib.sh
set -u
W=build/workloads/serial
need_built t_shmfull "$W"
if [ "${1:-}" != inner ]; then
	if ! command -v unshare >/dev/null 2>&1 ||
	   ! unshare -m --propagation private true 2>/dev/null; then
		skip t_shmfull "cannot make a private mount namespace here (needs root and unshare)"
	fi
	exec unshare -m --propagation private sh "$0" inner
fi

lc_tmpdir
if ! mount -t tmpfs -o size=64k tmpfs /dev/shm 2>/dev/null; then
	skip t_shmfull "cannot mount a tmpfs on /dev/shm in the namespace"
fi
dd if=/dev/zero of=/dev/shm/fill bs=4096 >/dev/null 2>&1	# until ENOSPC

LOSTCYCLES_SESSION=shmfull "$W" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 0 ] && [ "$(grep -c . "$tmp/err")" -eq 1 ] &&
   grep -q "^liblostcycles: pid [0-9]*: cannot make the shared-memory segment .*(No space left on device); running unprofiled$" "$tmp/err"; then
	ok "the program runs unprofiled (exit 0) with one line on stderr"
else
	fail "the program on a full /dev/shm: exit $st (SIGBUS is 135)"; sed 's/^/      /' "$tmp/err"
fi
ls /dev/shm | grep -q '^lc' && fail "a segment name was left in /dev/shm: $(ls /dev/shm)" ||
	ok "no half-made segment is left in /dev/shm"

./lostcycles record -q -o "$tmp/r.data" -- sh -c "$W; exit 3" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 3 ] && grep -q "running unprofiled$" "$tmp/err" &&
   ./lostcycles report -f "$tmp/r.data" >/dev/null 2>&1; then
	ok "under record: the program's exit status comes through and the profile is whole"
else
	fail "under record: exit $st"; sed 's/^/      /' "$tmp/err"
fi
[ "$nfail" -eq 0 ] && echo "t_shmfull: all passed"
[ "$nfail" -eq 0 ]
