#!/bin/sh
# t_help.sh — for every subcommand ("lostcycles --list-commands"), the
# options its option table declares ("lostcycles SUB --list-opts", hidden
# ones left out), the options "lostcycles SUB --help" lists and the options
# the OPTIONS section of docs/man/lostcycles-SUB.1 describes are the same
# set, and every option its SYNOPSIS names is one of them (-h/--help, which
# every command has, aside).  A subcommand whose options are not a table yet
# has its --help compared with its man page.  Names each difference.  The
# bash completion ("lostcycles --completion bash") offers the table's options
# and an enum's words.
set -u
SUB=help
. tests/lib.sh

# The option words (-x, --long) at the start of each comma-separated part of
# the labels on stdin, one per line, sorted.
words() {
	tr ',' '\n' | sed -n 's/^[[:space:]]*\(--*[A-Za-z0-9][A-Za-z0-9-]*\).*/\1/p' |
		grep -vx -e '-h' -e '--help' -e '--list-opts' | sort -u
}

# The options of the table: long and short names of rows not hidden.
table_opts() {
	"$LC" "$1" --list-opts 2>/dev/null |
		awk -F'\t' 'NF == 5 && $5 != "hidden" { if ($1 != "-") print $1; if ($2 != "-") print $2 }' |
		words
}

# The options of --help: the label (up to two blanks) of each line that
# starts with blanks and a dash.
help_opts() {
	"$LC" "$1" --help 2>/dev/null | sed -n 's/^ \{1,\}\(-.*\)$/\1/p' | sed 's/   *.*//' |
		tr ',' '\n' | sed 's/^ *//' | words
}

# A man page's lines with font escapes, \- and quotes made plain.
plain() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/"//g' -e 's/^\.[A-Z][A-Z]* //' "$1"
}

# The options of the man page's OPTIONS section: the tag line after each .TP.
man_opts() {
	sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$1" | awk '/^\.TP/ { getline; print }' >"$tmp/tags"
	plain "$tmp/tags" | words
}

# The options the SYNOPSIS names anywhere in its lines.
synopsis_opts() {
	sed -n '/^\.SH SYNOPSIS/,/^\.SH [^S]/p' "$1" >"$tmp/syn"
	plain "$tmp/syn" | tr ' [](|' '\n\n\n\n\n' | words
}

# compare NAME A B: the sets in files A and B are equal, else say how.
compare() {
	if cmp -s "$2" "$3"; then
		ok "$1"
		return
	fi
	fail "$1"
	comm -23 "$2" "$3" | sed "s/^/      only in the $(basename "$2"): /"
	comm -13 "$2" "$3" | sed "s/^/      only in the $(basename "$3"): /"
}

for c in $("$LC" --list-commands); do
	page=docs/man/lostcycles-$c.1
	if [ ! -f "$page" ]; then
		fail "$c: no man page $page"
		continue
	fi
	help_opts "$c" >"$tmp/help"
	man_opts "$page" >"$tmp/man page"
	synopsis_opts "$page" >"$tmp/synopsis"
	if "$LC" "$c" --list-opts >/dev/null 2>&1; then
		table_opts "$c" >"$tmp/table"
		compare "$c: --help lists the options of the table" "$tmp/table" "$tmp/help"
		compare "$c: the man page describes the options of the table" "$tmp/table" "$tmp/man page"
		ref=$tmp/table
	else
		echo "NOTE: t_help: $c has no option table yet: its --help is compared with its man page"
		compare "$c: the man page describes the options of --help" "$tmp/help" "$tmp/man page"
		ref=$tmp/help
	fi
	extra=$(comm -23 "$tmp/synopsis" "$ref" | tr '\n' ' ')
	if [ -z "$extra" ]; then
		ok "$c: the SYNOPSIS names only its options"
	else
		fail "$c: the SYNOPSIS names options it does not have: $extra"
	fi
done
# the completion reads the same tables
if command -v bash >/dev/null 2>&1; then
	got=$(PATH=$(pwd):$PATH bash -c '
		eval "$(lostcycles --completion bash)"
		t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _lostcycles; echo "${COMPREPLY[*]}"; }
		t lostcycles record --window
		t lostcycles report --format ""
		t lostcycles mer' 2>&1)
	want=$(printf '%s\n' "--window --window-grow" "text csv json perfetto" "merge")
	if [ "$got" = "$want" ]; then
		ok "bash completion: options and enum words from the tables"
	else
		fail "bash completion: got '$got'"
	fi
else
	echo "NOTE: t_help: bash is not installed: the completion is not checked"
fi
finish
