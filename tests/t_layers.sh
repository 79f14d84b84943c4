#!/bin/sh
# The layers point one way (docs/architecture.md):
#
#   cli -> kmod-free-tools -> sampler, postproc -> profile -> util
#   sampler, kmod-free-tools -> flaglib's public ABI (lostcycles.h, lc_abi.h)
#   flaglib (the target side) -> nothing of the tool
#
# and inside postproc/, its rooms:
#
#   report -> lca -> common;  lcm -> lca -> common;  export -> common;
#   merge and common -> nothing of postproc
#
# Every quoted #include of every source file must name a header of its own
# folder or of a folder it may use.  The Makefile gives each folder only
# those -I paths, so a wrong include also fails to compile; this test names
# the offending line instead.  It then proves that the checker catches a
# planted include against the rooms' arrows, and that the Makefile's own
# flags for an object of each folder refuse a header against the arrows and
# take one along them.
set -u
top=${LC_TOP:-$(pwd)}
cd "$top" || exit 1
. tests/lib.sh
lc_tmpdir

FOLDERS="flaglib util profile sampler postproc/common postproc/merge postproc/lca postproc/lcm
	postproc/report postproc/export kmod-free-tools cli"
PP="postproc/common postproc/merge postproc/lca postproc/lcm postproc/report postproc/export"

# may FOLDER: the folders whose headers FOLDER may include, itself first.
may() {
	case $1 in
	flaglib)          echo "flaglib" ;;
	util)             echo "util" ;;
	profile)          echo "profile util" ;;
	sampler)          echo "sampler profile util abi" ;;
	postproc/common)  echo "postproc/common profile util" ;;
	postproc/merge)   echo "postproc/merge profile util" ;;
	postproc/lca)     echo "postproc/lca postproc/common profile util" ;;
	postproc/lcm)     echo "postproc/lcm postproc/lca postproc/common profile util" ;;
	postproc/report)  echo "postproc/report postproc/lca postproc/common profile util" ;;
	postproc/export)  echo "postproc/export postproc/common profile util" ;;
	kmod-free-tools)  echo "kmod-free-tools sampler $PP profile util abi" ;;
	cli)              echo "cli kmod-free-tools sampler $PP profile util abi" ;;
	esac
}

# home HEADER: the folder a header lives in ("abi" for flaglib's public ABI).
home() {
	case $1 in
	lostcycles.h|lc_abi.h) echo abi; return ;;
	esac
	for d in $FOLDERS; do
		[ -f "$d/$1" ] && { echo "$d"; return; }
	done
	echo unknown
}

# check FILE FOLDER: print each include of FILE against FOLDER's arrows.
check() {
	allowed=" $(may "$2") "
	[ "$2" = flaglib ] && allowed=" flaglib abi "
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"); do
		if [ "${h##*/}" != "$h" ]; then
			echo "$1: #include \"$h\": name the header, not a path"
			continue
		fi
		[ -f "$(dirname "$1")/$h" ] && continue
		where=$(home "$h")
		case "$allowed" in
		*" $where "*) ;;
		*) echo "$1: #include \"$h\" (from $where) points against the arrows of $2/" ;;
		esac
	done
}

# No source file sits at postproc/'s top: every one is in a room.
loose=$(find postproc -maxdepth 1 -name '*.[ch]' | sort)
if [ -n "$loose" ]; then
	echo "$loose"
	echo "FAIL: postproc/ files outside a room (docs/architecture.md: where new things go)"
	exit 1
fi

out=$tmp/out
checked=0
for d in $FOLDERS; do
	[ -d "$d" ] || { echo "FAIL: no folder $d"; exit 1; }
	for f in $(find "$d" -name '*.[ch]' | sort); do
		checked=$((checked + 1))
		check "$f" "$d" >>"$out"
	done
done
if [ -s "$out" ]; then
	cat "$out"
	echo "FAIL: includes against the layer arrows (see docs/architecture.md)"
	exit 1
fi
[ "$checked" -gt 20 ] || { echo "FAIL: only $checked files checked"; exit 1; }
echo "ok: $checked files include only their own layer and the layers below"

# The checker catches a planted include against each room's arrows.
planted() {	# FOLDER HEADER: a file of FOLDER including HEADER must be named
	mkdir -p "$tmp/plant/$1"
	printf '#include "%s"\n' "$2" >"$tmp/plant/$1/planted.c"
	check "$tmp/plant/$1/planted.c" "$1" | grep -q "points against" || {
		echo "FAIL: a $1 file including $2 was not named"; exit 1; }
}
planted postproc/lca report.h
planted postproc/lca lcm.h
planted postproc/export lca_model.h
planted postproc/export report.h
planted postproc/common lca_runs.h
planted postproc/merge where.h
planted postproc/report lcm.h
planted sampler lca_formula.h
planted profile where.h
echo "ok: planted includes against the rooms' arrows are named"

# The Makefile enforces it too: the flags make gives an object of each
# folder refuse a header against the arrows and take one along them.
cc=${CC:-cc}
flags() {	# FOLDER: the -I flags of an object built from FOLDER
	make -s --no-print-directory -f Makefile -f - "build/$1/t_layers_probe.o" <<'EOF2'
build/%/t_layers_probe.o: FORCE
	@echo $(LAYER_INC)
EOF2
}
refuses() {	# FOLDER BAD GOOD
	inc=$(flags "$1")
	[ -n "$inc" ] || { echo "FAIL: the Makefile gives $1 no include paths"; exit 1; }
	printf '#include "%s"\nint x;\n' "$2" >"$out.c"
	if $cc -D_GNU_SOURCE $inc -c -o "$out.o" "$out.c" 2>/dev/null; then
		echo "FAIL: a $1 file could include $2 with: $inc"
		exit 1
	fi
	printf '#include "%s"\nint x;\n' "$3" >"$out.c"
	if ! $cc -D_GNU_SOURCE $inc -c -o "$out.o" "$out.c"; then
		echo "FAIL: a $1 file cannot include $3, which it may use, with: $inc"
		exit 1
	fi
}
refuses sampler lca_formula.h lc_abi.h
refuses postproc/lca report.h lca_plot.h
refuses postproc/lca lcm.h lc_profile.h
refuses postproc/lcm report.h lca_model.h
refuses postproc/export lca_model.h where.h
refuses postproc/common lca_runs.h lc_profile.h
refuses postproc/merge where.h lc_profile.h
refuses postproc/report lcm.h lca_model.h
refuses profile where.h lc_util.h
echo "ok: the Makefile's include paths of each room refuse what is against its arrows"
