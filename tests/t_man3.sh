#!/bin/sh
# t_man3.sh — a manual page per public macro and function of lostcycles.h
# (docs/man/man3), as libtracefs has them:
#  - every public symbol has its page: each LC_* macro the header defines
#    (but the include guard, the attribute helpers and the slot's ABI
#    constants of docs/shm-abi.md, listed below) and each LC_API function
#    and variable; a page is NAME.3 or a ".so man3/PAGE.3" link to the page
#    whose NAME section names it;
#  - every page has NAME, SYNOPSIS, DESCRIPTION, RETURN VALUE, EXAMPLE and
#    SEE ALSO, renders without a warning (groff -ww) and lexgrog reads it;
#  - every EXAMPLE compiles without a warning (-Wall -Wextra -Werror, also
#    with -DLC_DISABLE) against the build's header and library, exits 0 on
#    its own and under "lostcycles record", and the profile shows what the
#    page's example is about where that is certain (a named lock, fragment
#    tags, a wasted task); a fragment or task the sampler could not see (it
#    stalled, or the machine was measured too busy) is not judged, and the
#    test then skips with that reason.
# Run from the top of the tree (make check does).
. tests/lib.sh
set -u
LC=$(pwd)/lostcycles
lib=$(pwd)/build
dir=docs/man/man3
lc_tmpdir
nfail=0
ok() { echo "ok    $*"; }

# not pages of their own: the header's guard, the attribute helpers and
# the slot's ABI (state words, flag bits, ring size; docs/shm-abi.md)
internal='LOSTCYCLES_H LC_API LC_UNLIKELY LC_ST_NONE LC_ST_IDLE LC_ST_BUSY LC_ST_SYNC LC_ST_COMM
	LC_SLOT_QUEUE_EMPTY LC_SLOT_SYNC_SHIFT LC_SLOT_NO_SYNC LC_WASTED_RING'

# target PAGE: the page a name's file resolves to (through a .so link)
target() {
	l=$(sed -n '1s/^\.so man3\/\(.*\)\.3$/\1/p' "$dir/$1.3")
	echo "${l:-$1}"
}
# names PAGE: the names of a page's NAME section
names() {
	sed -n '/^\.SH NAME/{n;p;}' "$dir/$1.3" | sed 's/ \\-.*//' | tr -d ',' | tr ' ' '\n'
}

# ---- every public symbol has a page ---------------------------------------
syms=$( { sed -n 's/^#[[:space:]]*define[[:space:]]\{1,\}\(LC_[A-Z0-9_]*\).*/\1/p' flaglib/lostcycles.h
	  sed -n 's/^\(extern \)\{0,1\}LC_API .*[ *]\(lc_[a-z0-9_]*\)\((\|;\).*/\2/p' flaglib/lostcycles.h
	} | sort -u)
n=0
missing=""
for s in $syms; do
	case " $(echo $internal) " in *" $s "*) continue ;; esac
	n=$((n + 1))
	if [ ! -f "$dir/$s.3" ]; then
		missing="$missing $s"
		continue
	fi
	t=$(target "$s")
	if [ ! -f "$dir/$t.3" ] || ! names "$t" | grep -qx "$s"; then
		missing="$missing $s(page $t.3 does not name it)"
	fi
done
if [ "$n" -lt 30 ]; then
	fail "only $n public symbols read from flaglib/lostcycles.h: the reading is broken"
elif [ -n "$missing" ]; then
	fail "public symbols without a page in $dir:$missing"
else
	ok "all $n public symbols of lostcycles.h have a page in $dir"
fi

# ---- the pages ------------------------------------------------------------
pages=""
for f in "$dir"/*.3; do
	p=$(basename "$f" .3)
	if head -n 1 "$f" | grep -q '^\.so '; then
		t=$(target "$p")
		[ -f "$dir/$t.3" ] && names "$t" | grep -qx "$p" ||
			fail "$f: links to $t.3, which does not name $p"
		continue
	fi
	pages="$pages $p"
	for sec in NAME SYNOPSIS DESCRIPTION "RETURN VALUE" EXAMPLE "SEE ALSO"; do
		grep -q "^\.SH $sec\$" "$f" || fail "$f: no $sec section"
	done
	if command -v groff >/dev/null 2>&1; then
		w=$(cd docs/man && groff -ww -mandoc -Tutf8 -z "man3/$p.3" 2>&1)
		[ -z "$w" ] || fail "$f: groff: $w"
	fi
	if command -v lexgrog >/dev/null 2>&1 && ! lexgrog "$f" >/dev/null 2>&1; then
		fail "$f: lexgrog cannot read its NAME section"
	fi
done
[ "$nfail" -eq 0 ] && ok "$(echo $pages | wc -w) pages with all six sections, $(ls "$dir" | wc -l) names"

# ---- every EXAMPLE builds and runs ------------------------------------------
# example PAGE: the .EX block of its EXAMPLE, roff escapes undone
example() {
	sed -n '/^\.SH EXAMPLE/,/^\.SH /p' "$dir/$1.3" | sed -n '/^\.EX/,/^\.EE/p' | sed '1d;$d' |
		sed -e 's/^\\&//' -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g'
}
san=${LC_SAN:+-fsanitize=$LC_SAN}
# Under ThreadSanitizer the sampler stalls for 150-215 ms (measured at its
# first ticks; perf shows TSan symbolizing a report its suppressions then
# match): a part of an example that lasts a few ms may pass unseen.
tsan_late=
case ${LC_SAN:-} in *thread*)
	tsan_late="under SAN=thread the sampler stalls for 150-215 ms (measured at its start) while ThreadSanitizer symbolizes the reports its suppressions match, longer than this part of the example lasts" ;;
esac
# the pages whose subject exists only without -DLC_DISABLE (lc_self)
only_enabled='lc_thread_register'
for p in $pages; do
	example "$p" >"$tmp/$p.c"
	if ! grep -q 'int main' "$tmp/$p.c"; then
		fail "$p.3: no program in its EXAMPLE"
		continue
	fi
	dis=-DLC_DISABLE
	case " $only_enabled " in *" $p "*) dis= ;; esac
	for d in "" $dis; do
		if ! cc -std=c11 -Wall -Wextra -Werror $san $d -I flaglib -o "$tmp/$p$d" "$tmp/$p.c" \
			-L"$lib" -llostcycles -pthread -lm -Wl,-rpath,"$lib" 2>"$tmp/cc.err"; then
			fail "the EXAMPLE of $p.3 does not compile${d:+ with $d}:"
			sed 's/^/      /' "$tmp/cc.err"
			continue 2
		fi
	done
	if ! "$tmp/$p" >"$tmp/$p.out" 2>&1 || { [ -n "$dis" ] && ! "$tmp/$p$dis" >/dev/null 2>&1; }; then
		fail "the EXAMPLE of $p.3 fails on its own:"; sed 's/^/      /' "$tmp/$p.out"
		continue
	fi
	if ! "$LC" record -q -o "$tmp/$p.data" -- "$tmp/$p" >"$tmp/$p.out" 2>&1; then
		fail "the EXAMPLE of $p.3 fails under lostcycles record:"; sed 's/^/      /' "$tmp/$p.out"
		continue
	fi
	case $p in
	LC_SYNC_BEGIN)
		"$LC" report --sync "$tmp/$p.data" 2>&1 | grep -q 'counter lock' ||
			{ fail "$p.3: report --sync does not name the counter lock"; continue; }
		# the waits the page promises: the lock's SL at least 5 % of the total
		"$LC" report --format csv "$tmp/$p.data" 2>/dev/null |
			awk -F, '$1 == "sl" && $4 + 0 >= 5 { f = 1 } END { exit !f }' ||
			{ slrow=$("$LC" report --format csv "$tmp/$p.data" 2>/dev/null | grep '^sl,')
			  # (beside load a wait for a holder that waits for a CPU is
			  # resource contention: not judged on a machine measured busy)
			  unjudged "$p.3: its waits for the lock as Synchronization Loss ($slrow)" ||
				fail "$p.3: its waits for the lock are not Synchronization Loss ($slrow)"
			  continue; } ;;
	LC_FRAGMENT_BEGIN)
		# SETUP lasts a few ms: a sampler that stalled over it (under
		# ThreadSanitizer 150-215 ms at its first ticks, symbolizing the
		# first report its suppressions match) never saw it
		"$LC" report --tags "$tmp/$p.data" >"$tmp/$p.tags" 2>"$tmp/$p.terr"
		if [ "$(grep -cE '^ *[12]\b' "$tmp/$p.tags")" -lt 2 ]; then
			why=$(sed -n 's/.*\(the sampler stalled for [^:]*\):.*/\1/p' "$tmp/$p.terr" | head -n 1)
			[ -n "$why" ] || why=$tsan_late
			if [ -n "$why" ]; then
				not_judged "$p.3: report --tags has fragments 1 and 2" "$why"
			elif ! unjudged "$p.3: report --tags has fragments 1 and 2" "$tmp/$p.out"; then
				fail "$p.3: report --tags lacks fragments 1 and 2"; cat "$tmp/$p.tags" "$tmp/$p.terr"
			fi
			continue
		fi ;;
	LC_TASK_BEGIN)
		"$LC" report --format csv "$tmp/$p.data" 2>/dev/null |
			awk -F, '$1 == "wc" && $3 > 0 { f = 1 } END { exit !f }' ||
			{ w="$p.3: Wasted Computation from LC_TASK_WASTED (none: the main thread's one declaration, just before it exits, was not read)"
			  if [ -n "$tsan_late" ]; then not_judged "$w" "$tsan_late"
			  else unjudged "$w" || fail "$p.3: no Wasted Computation from LC_TASK_WASTED"; fi
			  continue; } ;;
	esac
	ok "$p.3: its EXAMPLE builds${dis:+ (also $dis)} and runs, alone and recorded"
done
# ---- installed, and found by man -----------------------------------------
if make -s --no-print-directory install DESTDIR="$tmp/root" PREFIX=/usr >"$tmp/inst" 2>&1; then
	m=$tmp/root/usr/share/man
	got=$(ls "$m/man3" | grep -c '^[Ll][Cc]_')
	want=$(ls "$dir" | wc -l)
	[ "$got" -eq "$want" ] && ok "make install puts the $want pages in man3" ||
		fail "make install put $got of the $want pages in man3"
	if command -v man >/dev/null 2>&1; then
		MANPATH=$m man 3 LC_IDLE 2>/dev/null | grep -q 'LC_BUSY, LC_IDLE' &&
			ok "man 3 LC_IDLE shows LC_BUSY's page" || fail "man 3 LC_IDLE does not show LC_BUSY's page"
	fi
	make -s --no-print-directory uninstall DESTDIR="$tmp/root" PREFIX=/usr >/dev/null 2>&1
	[ -z "$(ls "$m/man3" 2>/dev/null | grep '^[Ll][Cc]_')" ] && ok "make uninstall removes them" ||
		fail "make uninstall left $(ls "$m/man3" | grep -c '^[Ll][Cc]_') pages"
else
	sed 's/^/      /' "$tmp/inst"
	fail "make install"
fi
[ "$nfail" -eq 0 ] && echo "t_man3: a page per public symbol; every EXAMPLE works"
end_unjudged t_man3
exit $((nfail > 0))
