#!/bin/sh
# t_profile_byte.sh — one changed byte in a real profile (the minor-5
# recording of the fuzz corpus, byte 667 in a window block's place rows
# 0x0a -> 0x00, the block's CRC repaired) makes a place row name a thread
# far past those declared.  Every reader of a profile refuses it with the
# reader's reason and exit status 1: each view of report, merge and export
# (they crashed with SIGSEGV, exit 139, when the reader went on after
# noting the reason).
set -u
SUB=report
. tests/lib.sh
F=tests/fuzz/corpus/profile/minor5-place-thread-byte.data
WHY="place row names an undeclared thread"

# a real profile the byte is missing from reads
"$LC" report -f tests/fuzz/corpus/profile/minor5-places.data >"$tmp/out" 2>&1
status_ok "the profile without the byte" "$?" "$tmp/out"

for view in "" --where --per-thread --timeline --sync --counters --tags --advise --pop -l \
	"--timeline --format=perfetto" --format=json "--html=$tmp/p.html"; do
	# shellcheck disable=SC2086
	refuse "report $view" 1 "$WHY" -f "$F" $view
done
SUB=merge
refuse "merge" 1 "$WHY" -o "$tmp/m.data" "$F"
SUB=export
# a build without OTF2 says so before it reads the profile
if "$LC" export --otf2 "$tmp/probe" -f tests/fuzz/corpus/profile/minor5-places.data \
	2>&1 | grep -q "no OTF2 support"; then
	echo "skip  export --otf2: this build has no OTF2 support"
else
	refuse "export --otf2" 1 "$WHY" --otf2 "$tmp/otf" -f "$F"
fi
SUB=profile_byte
finish
