#!/bin/sh
# t_completion.sh — make install puts the bash completion where
# bash-completion looks for it (pkg-config's completionsdir under our
# PREFIX, else PREFIX/share/bash-completion/completions), bash registers it
# for lostcycles when the installed file is sourced (complete -p), it
# completes a subcommand ("lostcycles rep<TAB>": report) and an option
# ("report --fo<TAB>": --format and --force) from the option tables, and make
# uninstall removes it.  Exits 77 without bash.
. tests/lib.sh
set -u
command -v bash >/dev/null 2>&1 || skip t_completion "bash is not installed"
lc_tmpdir
nfail=0
ok() { echo "ok    $*"; }

dir=$(pkg-config --define-variable=prefix=/usr --variable=completionsdir bash-completion 2>/dev/null)
[ -n "$dir" ] || dir=/usr/share/bash-completion/completions
if ! make -s --no-print-directory install DESTDIR="$tmp/root" PREFIX=/usr >"$tmp/log" 2>&1; then
	sed 's/^/      /' "$tmp/log"
	fail "make install"
	exit 1
fi
f=$tmp/root$dir/lostcycles
if [ -s "$f" ]; then
	ok "make install put the completion in ${dir}"
else
	fail "no completion at ${dir}/lostcycles after make install"
	exit 1
fi

# what bash completes for the words "$@" (the last is the word at the
# cursor), with the installed file sourced and the built lostcycles on PATH
complete_words() {
	PATH=$(pwd):$PATH bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
		$(complete -p lostcycles | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		echo "${COMPREPLY[*]}"' sh "$f" "$@" 2>&1
}
got=$(bash -c '. "$1"; complete -p lostcycles' sh "$f" 2>&1)
case $got in
"complete -F "*" lostcycles") ok "sourced, bash completes lostcycles: $got" ;;
*) fail "complete -p lostcycles after sourcing: '$got'" ;;
esac
got=$(complete_words lostcycles rep)
[ "$got" = report ] && ok "lostcycles rep<TAB> gives report" ||
	fail "lostcycles rep<TAB> gives '$got', not report"
# report has --force too: both, and nothing else
got=$(complete_words lostcycles report --fo)
[ "$(echo $got | tr ' ' '\n' | sort | tr '\n' ' ')" = "--force --format " ] &&
	ok "lostcycles report --fo<TAB> gives $got" ||
	fail "lostcycles report --fo<TAB> gives '$got', not --format and --force"
got=$(complete_words lostcycles report --form)
[ "$got" = --format ] && ok "lostcycles report --form<TAB> gives --format" ||
	fail "lostcycles report --form<TAB> gives '$got', not --format"
got=$(complete_words lostcycles report --format j)
[ "$got" = json ] && ok "lostcycles report --format j<TAB> gives json" ||
	fail "lostcycles report --format j<TAB> gives '$got', not json"

make -s --no-print-directory uninstall DESTDIR="$tmp/root" PREFIX=/usr >/dev/null 2>&1 ||
	fail "make uninstall"
[ -e "$f" ] && fail "make uninstall left ${dir}/lostcycles" || ok "make uninstall removed it"
[ "$nfail" -eq 0 ] && echo "t_completion: the installed bash completion works"
exit $((nfail > 0))
