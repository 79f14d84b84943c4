#!/bin/sh
# t_version.sh — one version everywhere: the numbers in flaglib/lostcycles.h
# (LC_VERSION_*, LC_ABI_VERSION) are the version lc_version() returns at run
# time, the version "lostcycles --version" prints and lostcycles.pc names,
# and the ABI major is the SONAME major of build/liblostcycles.so.*.
# Run from the top of the tree (make check does).
set -u

top=$(pwd)
lib="$top/build"
command -v readelf >/dev/null 2>&1 || { echo "readelf not installed (Debian package binutils)"; exit 77; }
[ -f "$lib/liblostcycles.so" ] || { echo "t_version: $lib/liblostcycles.so missing (run make)"; exit 1; }
tmp=$(mktemp -d /tmp/lc-t-version.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# check WHAT GOT WANT : report a mismatch.
check() {
	if [ "$2" = "$3" ]; then
		echo "ok $1: $2"
	else
		echo "FAIL $1: '$2', want '$3'"
		fail=1
	fi
}

# The header's numbers, as the compiler sees them, and the library's answer.
cat >"$tmp/v.c" <<'CEOF'
#include <lostcycles.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		printf("%s\n", lc_version());
	else
		printf("%d.%d.%d %d\n", LC_VERSION_MAJOR, LC_VERSION_MINOR, LC_VERSION_PATCH,
		       LC_ABI_VERSION);
	return 0;
}
CEOF
if ! cc -std=c11 -Wall -Wextra -Werror -I"$top/flaglib" -o "$tmp/v" "$tmp/v.c" \
	-L"$lib" -llostcycles -Wl,-rpath,"$lib" 2>"$tmp/err"; then
	echo "FAIL compile against lostcycles.h"
	cat "$tmp/err"
	exit 1
fi
set -- $("$tmp/v")
ver=$1
abi=$2
[ -n "$ver" ] && [ -n "$abi" ] || { echo "FAIL no version from the header"; exit 1; }

check "lc_version()" "$("$tmp/v" lib)" "$ver"
check "lostcycles --version" "$(lostcycles --version)" "lostcycles $ver"
check "lostcycles.pc" "$(sed -n 's/^Version: //p' "$lib/lostcycles.pc")" "$ver"

# The SONAME of the one versioned library file, and its file name.
set -- "$lib"/liblostcycles.so.*
[ $# -eq 1 ] && [ -f "$1" ] || { echo "FAIL want one build/liblostcycles.so.*, found: $*"; exit 1; }
soname=$(readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
check "SONAME" "$soname" "liblostcycles.so.$abi"
check "library file" "${1##*/}" "liblostcycles.so.$abi"
check "program's NEEDED" "$(readelf -d "$tmp/v" | sed -n 's/.*(NEEDED).*\[\(liblostcycles[^]]*\)\].*/\1/p')" \
	"liblostcycles.so.$abi"
exit $fail
