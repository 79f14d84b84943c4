#!/bin/sh
# t_attach_reused.sh — attach names why it refused a process's segment:
# a segment of an earlier process whose pid is now another's (its start
# time is not the live process's) makes "lostcycles attach PID" fail with
# the reason ("a reused pid, or forged"), not with "no lostcycles segment
# for the given processes".
SUB=attach_reused
. tests/lib.sh
W=build/workloads/hostile
[ -x "$W" ] || { echo "t_attach_reused: $W is missing (run make workloads)" >&2; exit 1; }
[ -d /dev/shm ] || skip t_attach_reused "no /dev/shm here"
command -v python3 >/dev/null 2>&1 || skip t_attach_reused "python3 is not installed"

ses=tar$$
LOSTCYCLES_SESSION=$ses "$W" sigterm 10 &
old=$!
seg=
for _ in $(seq 100); do
	seg=$(ls /dev/shm | grep "^lostcycles\.$ses\.$old\." | head -n 1)
	[ -n "$seg" ] && break
	sleep 0.05
done
# the live process starts clock ticks later than the earlier one (a start
# time in the same tick could not tell them apart)
sleep 0.2
sleep 30 &
live=$!
cleanup_procs() { kill -9 "$old" "$live" 2>/dev/null; rm -f /dev/shm/lostcycles."$ses".*; }
trap cleanup_procs EXIT
[ -n "$seg" ] || { fail "the workload's segment did not appear"; finish; exit 1; }
sleep 0.2	# its header is published
# the earlier process's segment, as if pid $live had been its pid
python3 - "/dev/shm/$seg" "$live" "$ses" <<'PY'
import struct, sys
src, pid, ses = sys.argv[1], int(sys.argv[2]), sys.argv[3]
b = bytearray(open(src, 'rb').read())
nonce = struct.unpack_from('<Q', b, 48)[0]
struct.pack_into('<i', b, 32, pid)
open('/dev/shm/lostcycles.%s.%d.%016x' % (ses, pid, nonce), 'wb').write(b)
PY
kill -9 "$old"
wait "$old" 2>/dev/null
rm -f "/dev/shm/$seg"
timeout 60 "$LC" attach -q -o "$tmp/a.data" "$live" >"$tmp/out" 2>&1
st=$?
if [ "$st" -ne 0 ] && grep -q "a reused pid, or forged" "$tmp/out"; then
	ok "attach of a reused pid fails and says why"
else
	fail "attach of a reused pid: exit status $st, and no reason:"; sed 's/^/      /' "$tmp/out"
fi
if grep -q "no lostcycles segment for the given processes" "$tmp/out"; then
	fail "attach says there was no segment, though it refused one"
else
	ok "attach does not say there was no segment"
fi
finish
