#!/bin/sh
# t_check.sh — "lostcycles check": --json parses; the CPU PMU verdict agrees
# with what the kernel exposes (no /sys/bus/event_source/devices/cpu here:
# WARN with ENOENT) and exit status 0; a /dev/shm that cannot be written
# (through the LOSTCYCLES_CHECK_SHM_DIR test hook) is a FAIL with the reason
# and exit status 1; stale segments of dead processes are counted and
# --clean removes them but not a live process's; the tick probe gives a
# finite interval.  Run from the top of the tree.
. tests/lib.sh
set -u
LC=./lostcycles
[ -x "$LC" ] || { echo "t_check: $LC missing (make all)" >&2; exit 1; }
command -v python3 >/dev/null || skip t_check "no python3 to parse JSON"

lc_tmpdir
nfail=0
ok() { echo "ok    $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL  $*"; sed 's/^/      stderr: /' "$tmp/err" 2>/dev/null; }

# field NAME KEY < json: the KEY of check NAME ("" when absent or null)
field() {
	python3 -c 'import json,sys
d=json.load(sys.stdin)
for c in d["checks"]:
    if c["name"]==sys.argv[1]:
        v=c[sys.argv[2]]; print("" if v is None else v)' "$1" "$2"
}

"$LC" check --json >"$tmp/out" 2>"$tmp/err"
rc=$?
if ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>>"$tmp/err"; then
	fail "check --json output does not parse"
	cat "$tmp/out"
	exit 1
fi
ok "check --json parses"
[ $rc -eq 0 ] && ok "check exits 0 here" || fail "check exit status $rc, expected 0"
pmu=$(field pmu level <"$tmp/out")
pmu_errno=$(field pmu errno <"$tmp/out")
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	[ -n "$pmu" ] && ok "pmu: $pmu (a CPU PMU is exposed here)" || fail "no pmu item"
elif [ "$pmu" = WARN ] && [ "$pmu_errno" = ENOENT ]; then
	ok "pmu: no CPU PMU, WARN with ENOENT"
else
	fail "pmu: level '$pmu' errno '$pmu_errno', expected WARN/ENOENT (no cpu PMU in sysfs)"
fi
tick=$(field tick number <"$tmp/out")
if awk -v t="$tick" 'BEGIN { exit !(t + 0 > 0 && t + 0 < 100000) }'; then
	ok "tick probe: $tick us"
else
	fail "tick probe gave '$tick'"
fi

# A /dev/shm that cannot be written: FAIL, exit 1, with the reason.
LOSTCYCLES_CHECK_SHM_DIR="$tmp/none" "$LC" check >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && ok "unwritable shm: exit 1" || fail "unwritable shm: exit $rc, expected 1"
if grep -q '^FAIL  shared memory .*No such file or directory' "$tmp/out" && grep -q 'fix:' "$tmp/out"; then
	ok "unwritable shm: FAIL line with the reason and a fix"
else
	fail "unwritable shm: no FAIL line with the reason"; cat "$tmp/out"
fi

# Stale segments: one of a dead process, one of a live one (this shell).
mkdir "$tmp/shm"
sh -c 'echo $$' >"$tmp/deadpid"
dead=$(cat "$tmp/deadpid")
while kill -0 "$dead" 2>/dev/null; do sleep 0.05; done
echo x >"$tmp/shm/lostcycles.s1.$dead.0123456789abcdef"
echo x >"$tmp/shm/lostcycles.s1.$$.fedcba9876543210"
echo x >"$tmp/shm/lostcycles.other"
LOSTCYCLES_CHECK_SHM_DIR="$tmp/shm" "$LC" check --json >"$tmp/out" 2>"$tmp/err"
n=$(field stale number <"$tmp/out")
[ "$n" = 1 ] && ok "one stale segment counted" || fail "stale segments: '$n', expected 1"
LOSTCYCLES_CHECK_SHM_DIR="$tmp/shm" "$LC" check --clean >"$tmp/out" 2>"$tmp/err"
if [ ! -e "$tmp/shm/lostcycles.s1.$dead.0123456789abcdef" ] &&
   [ -e "$tmp/shm/lostcycles.s1.$$.fedcba9876543210" ] && [ -e "$tmp/shm/lostcycles.other" ] &&
   grep -q 'removed 1 stale segment' "$tmp/err" && grep -q '^OK    stale segments' "$tmp/out"; then
	ok "--clean removed the dead process's segment only"
else
	fail "--clean: $(ls "$tmp/shm" | tr '\n' ' ')"
fi

"$LC" check --bogus >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && ok "bad option: exit 2" || fail "bad option not refused with 2"

[ $nfail -eq 0 ]
