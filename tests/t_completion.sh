#!/bin/sh
# t_completion.sh — make install puts the bash completion where
# bash-completion looks for it (pkg-config's completionsdir under our
# PREFIX, else PREFIX/share/bash-completion/completions), bash registers it
# for lostcycles when the installed file is sourced (complete -p), it
# completes a subcommand ("lostcycles rep<TAB>": report) and an option
# ("report --fo<TAB>": --format and --force) from the option tables, and make
# uninstall removes it; with zsh, "lostcycles --completion zsh" completes the
# same in a real interactive zsh.  Exits 77 without bash.
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

# zsh: the same function through bashcompinit ("lostcycles --completion zsh"
# in ~/.zshrc), driven for real: an interactive zsh on a pseudo-terminal
# (zpty) is sent the line and a TAB, and what it then shows is read
cat >"$tmp/tab.zsh" <<'EOF'
# tab.zsh LINE WANT DIR: what an interactive zsh shows after LINE<TAB>,
# read until WANT shows (at most 20 s)
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "PS1='> '; autoload -U compinit; compinit -u -d $3/zcompdump; eval \"\$(lostcycles --completion zsh)\"; print LC_READY"
out=
for i in {1..200}; do
	zpty -r -t z line && out+=$line || sleep 0.1
	[[ $out == *LC_READY*LC_READY* ]] && break
done
zpty -w -n z "$1"$'\t'
out=
for i in {1..200}; do
	zpty -r -t z line && out+=$line || sleep 0.1
	[[ $out == *"$2"* ]] && break
done
zpty -d z
print -r -- "${out//$'\e'\[[0-9;]#[A-Za-z]/}"
EOF
if command -v zsh >/dev/null 2>&1; then
	for c in "lostcycles rep|lostcycles report" "lostcycles report --form|report --format"; do
		line=${c%%|*} want=${c#*|}
		got=$(PATH=$(pwd):$PATH timeout 60 zsh -f "$tmp/tab.zsh" "$line" "$want" "$tmp" 2>&1)
		case $got in
		*"$want"*) ok "zsh: $line<TAB> gives ${want##* }" ;;
		*) fail "zsh: $line<TAB> does not give ${want##* }: $(printf '%s' "$got" | tr -cd '[:print:]' | tail -c 200)" ;;
		esac
	done
else
	echo "NOTE: t_completion: zsh is not installed: its completion is not checked"
fi

make -s --no-print-directory uninstall DESTDIR="$tmp/root" PREFIX=/usr >/dev/null 2>&1 ||
	fail "make uninstall"
[ -e "$f" ] && fail "make uninstall left ${dir}/lostcycles" || ok "make uninstall removed it"
[ "$nfail" -eq 0 ] && echo "t_completion: the installed bash completion (and zsh's) works"
exit $((nfail > 0))
