#!/bin/sh
# Run every cmocka test binary and every shell integration test given as
# arguments; print each result and a closing "N passed, N failed" line.
# Exits non-zero when any test failed.  Output of a failing test is shown.
set -u
top=$(pwd)
export LC_TOP="$top"
export PATH="$top:$PATH"
log=$(mktemp -d /tmp/lostcycles-tests.XXXXXX)
pass=0
fail=0
failed=""
for t in "$@"; do
	name=${t##*/}
	case "$t" in
	*.sh) cmd="sh $t" ;;
	*)    cmd="$t" ;;
	esac
	start=$(date +%s)
	if $cmd >"$log/$name.out" 2>&1; then
		pass=$((pass + 1))
		printf '  PASS  %-40s %3ss\n' "$name" $(( $(date +%s) - start ))
	else
		fail=$((fail + 1))
		failed="$failed $name"
		printf '  FAIL  %-40s %3ss\n' "$name" $(( $(date +%s) - start ))
		sed 's/^/        | /' "$log/$name.out" | tail -n 60
	fi
done
rm -rf "$log"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
