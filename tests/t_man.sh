#!/bin/sh
# t_man.sh — every manual page in docs/man renders without a warning
# (groff -ww -mandoc), has a NAME section lexgrog can read (as man-db's
# whatis needs), and never puts three plain words in a row after a
# font-alternating macro (.BR, .IR, .BI, ...): such a sentence is set in
# alternating fonts with its spaces eaten ("na.ACSVfile..."), which groff
# does not warn about; the per-macro pages of man3 too, none of which may
# print a request as text (a ".PP" glued to the end of a sentence renders
# as a literal "..PP").  Names the page and line of each problem.  Exits 77 without groff.
. tests/lib.sh
set -u
command -v groff >/dev/null 2>&1 || skip t_man "groff is not installed (apt-get install groff-base)"
lc_tmpdir
for f in docs/man/*.[1-8] docs/man/man3/*.3; do
	groff -I docs/man -mandoc -Tutf8 "$f" 2>/dev/null | grep -n '\.\.\?\(PP\|TP\|SH\|BR\|IR\)\b' >"$tmp/lit" &&
		fail "$f: prints a request as text: $(head -n 1 "$tmp/lit")"
	w=$(groff -I docs/man -ww -mandoc -Tutf8 -z "$f" 2>&1)
	[ -z "$w" ] || fail "$f: groff: $w"
	if command -v lexgrog >/dev/null 2>&1 && ! lexgrog "$f" >/dev/null 2>&1; then
		fail "$f: lexgrog cannot read its NAME section"
	fi
	# three or more plain words in a row, unquoted, after a font-alternating
	# macro: prose that the macro sets without its spaces
	awk -v f="$f" '
		/^\.(BR|RB|BI|IB|IR|RI) / {
			line = substr($0, 5); run = 0; q = 0; tok = ""; bad1 = 0
			for (i = 1; i <= length(line) + 1; i++) {
				ch = i <= length(line) ? substr(line, i, 1) : " "
				if (ch == "\"") { q = !q; run = 0; tok = ""; continue }
				if (q) continue
				if (ch == " ") {
					if (tok != "") { if (tok ~ /^[A-Za-z]+$/) { if (++run >= 3) bad1 = 1 } else run = 0 }
					tok = ""; continue
				}
				tok = tok ch
			}
			if (bad1) { printf "%s:%d: %s\n", f, FNR, $0; bad = 1 }
		}
		END { exit bad }' "$f" >"$tmp/fonts" || fail "$(cat "$tmp/fonts"): a sentence in alternating fonts"
done
# every subcommand's --help is printed as written: no "%%" left from a
# format string that was printed with fputs
for c in $(ls docs/man | sed -n 's/^lostcycles-\(.*\)\.1$/\1/p'); do
	./lostcycles "$c" --help 2>&1 | grep -q '%%' && fail "lostcycles $c --help prints '%%'"
done
[ "$nfail" -eq 0 ] && echo "t_man: every page in docs/man is clean"
exit $((nfail > 0))
