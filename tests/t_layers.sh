#!/bin/sh
# The layers point one way (docs/architecture.md):
#
#   cli -> kmod-free-tools -> sampler, postproc -> profile -> util
#   sampler, kmod-free-tools -> flaglib's public ABI (lostcycles.h, lc_abi.h)
#   flaglib (the target side) -> nothing of the tool
#
# Every quoted #include of every source file must name a header of its own
# folder or of a folder it may use.  The Makefile gives each folder only
# those -I paths, so a wrong include also fails to compile; this test names
# the offending line instead.  It then proves the Makefile enforces one arrow:
# a sampler file that includes a postproc header must not compile.
set -u
top=${LC_TOP:-$(pwd)}
cd "$top" || exit 1
. tests/lib.sh
lc_tmpdir

# may FOLDER: the folders whose headers FOLDER may include, itself first.
may() {
	case $1 in
	flaglib)         echo "flaglib" ;;
	util)            echo "util" ;;
	profile)         echo "profile util" ;;
	sampler)         echo "sampler profile util abi" ;;
	postproc)        echo "postproc profile util" ;;
	kmod-free-tools) echo "kmod-free-tools sampler postproc profile util abi" ;;
	cli)             echo "cli kmod-free-tools sampler postproc profile util abi" ;;
	esac
}

# home HEADER: the folder a header lives in ("abi" for flaglib's public ABI).
home() {
	case $1 in
	lostcycles.h|lc_abi.h) echo abi; return ;;
	esac
	for d in flaglib util profile sampler postproc kmod-free-tools cli; do
		[ -f "$d/$1" ] && { echo "$d"; return; }
	done
	echo unknown
}

out=$tmp/out
checked=0
for d in flaglib util profile sampler postproc kmod-free-tools cli; do
	[ -d "$d" ] || continue
	allowed=" $(may "$d") "
	[ "$d" = flaglib ] && allowed=" flaglib abi "
	for f in $(find "$d" -name '*.[ch]' | sort); do
		checked=$((checked + 1))
		for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
			if [ "${h##*/}" != "$h" ]; then
				echo "$f: #include \"$h\": name the header, not a path" >>"$out"
				continue
			fi
			[ -f "$(dirname "$f")/$h" ] && continue
			where=$(home "$h")
			case "$allowed" in
			*" $where "*) ;;
			*) echo "$f: #include \"$h\" (from $where) points against the arrows of $d/" >>"$out" ;;
			esac
		done
	done
done
if [ -s "$out" ]; then
	cat "$out"
	echo "FAIL: includes against the layer arrows (see docs/architecture.md)"
	exit 1
fi
[ "$checked" -gt 20 ] || { echo "FAIL: only $checked files checked"; exit 1; }
echo "ok: $checked files include only their own layer and the layers below"

# The Makefile enforces it too: a sampler object that includes a postproc
# header must fail to compile with the sampler's include paths.
cc=${CC:-cc}
inc=$(make -s --no-print-directory -f Makefile -f - print-inc-sampler <<'EOF2'
print-inc-sampler:
	@echo $(INC_sampler)
EOF2
)
[ -n "$inc" ] || { echo "FAIL: the Makefile defines no INC_sampler"; exit 1; }
printf '#include "lca_formula.h"\nint x;\n' >"$out.c"
if $cc $inc -c -o "$out.o" "$out.c" 2>/dev/null; then
	echo "FAIL: a sampler file could include postproc/lca_formula.h with: $inc"
	exit 1
fi
printf '#include "lc_profile.h"\n#include "lc_abi.h"\nint x;\n' >"$out.c"
if ! $cc -D_GNU_SOURCE $inc -c -o "$out.o" "$out.c"; then
	echo "FAIL: a sampler file cannot include what it may use with: $inc"
	exit 1
fi
echo "ok: the Makefile's sampler include paths refuse postproc and allow profile and the ABI"
