#!/bin/sh
# t_version.sh — one version everywhere: the numbers in flaglib/lostcycles.h
# (LC_VERSION_*, LC_ABI_VERSION) are the version lc_version() returns at run
# time, the version "lostcycles --version" prints and lostcycles.pc names,
# and the ABI major is the SONAME major of build/liblostcycles.so.*; and
# "lostcycles record" skips a target of another ABI major with one line that
# names both versions.  Run from the top of the tree (make check does).
. tests/lib.sh
set -u

top=$(pwd)
lib="$top/build"
command -v readelf >/dev/null 2>&1 || skip t_version "readelf not installed (Debian package binutils)"
[ -f "$lib/liblostcycles.so" ] || { echo "t_version: $lib/liblostcycles.so missing (run make)"; exit 1; }
lc_tmpdir
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

# A target that publishes a segment of the next ABI major.
cat >"$tmp/other.c" <<'CEOF'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "lc_abi.h"

int main(void)
{
	const char *s = getenv(LC_ENV_SESSION);
	size_t len = LC_HDR_SIZE + 4 * sizeof(struct lc_slot);
	struct lc_seg_hdr *h;
	char name[256];
	int fd;

	if (!s)
		return 2;
	snprintf(name, sizeof(name), "/%s%s.%d.%016llx", LC_SHM_PREFIX, s, (int)getpid(), 1ull);
	fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)len))
		return 3;
	h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED)
		return 4;
	h->abi_major = LC_ABI_MAJOR + 1;
	h->hdr_size = LC_HDR_SIZE;
	h->slot_size = sizeof(struct lc_slot);
	h->nslots = 4;
	h->seg_size = len;
	h->pid = getpid();
	h->nonce = 1;
	h->start_ns = lc_clock_ns();
	__atomic_store_n(&h->magic, LC_SEG_MAGIC, __ATOMIC_RELEASE);
	usleep(200000);
	shm_unlink(name);
	return 0;
}
CEOF
if ! cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$top/flaglib" -o "$tmp/other" \
	"$tmp/other.c" 2>"$tmp/err"; then
	echo "FAIL compile the other-ABI target"
	cat "$tmp/err"
	exit 1
fi
lostcycles record -o "$tmp/other.data" -- "$tmp/other" 2>"$tmp/err"
st=$?
check "record of an other-ABI target: exit status" "$st" 0
line=$(grep -c "^lostcycles record: target [0-9]* speaks segment ABI $((abi + 1)), this sampler $abi: skipped\$" "$tmp/err")
check "record of an other-ABI target: one line naming both ABIs" "$line" 1
[ "$line" -eq 1 ] || sed 's/^/      /' "$tmp/err"
exit $fail
