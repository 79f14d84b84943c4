#!/bin/sh
# t_gp_quote.sh — no string from a profile, a runs file, a model, a
# structure or the command line reaches gnuplot's command language: every
# plot script writes them as single-quoted literals (postproc/gp_quote.c).
# A profile whose command line holds a back-quoted command, and one whose
# command line ends the title with '"', a newline, system("..."), are
# plotted by "report --plot"; "fit -g", "predict --plot", "predict
# --profile --plot" and "compose --plot" are run on runs, model and
# structure files (and plot files) whose names hold the same strings.
# None of the commands may run (their marker files must not appear), and
# each PNG is still drawn, the hostile text shown in its title.  SKIP
# without gnuplot (nothing would read the scripts).
SUB=gp_quote
. tests/lib.sh
WL=build/workloads/imbalance
need_built t_gp_quote "$WL"
command -v gnuplot >/dev/null || { echo "gnuplot is not installed"; exit 77; }
is_png() { [ "$(head -c 4 "$1" 2>/dev/null | tail -c 3)" = "PNG" ]; }

# the two hostile forms; each names its own marker file in $GPQ (a name
# without '/', so that it can also be a file's name; the shell that gnuplot
# would start expands it)
GPQ=$tmp/
export GPQ
bq() { printf '`touch ${GPQ}%s`' "$1"; }
nl() { printf 'x"\nsystem("touch ${GPQ}%s")\nprint "' "$1"; }
# no marker file of the given names exists
none() {
	for m in "$@"; do [ ! -e "$tmp/$m" ] || return 1; done
}

# ---- report --plot: the command line of the profile ------------------------
for form in bq nl; do
	arg=$($form "r_$form")
	"$LC" record -q -o "$tmp/$form.lcp" -- sh -c 'exec "$0"' "$WL" "$arg" >"$tmp/rec.out" 2>&1 ||
		{ cat "$tmp/rec.out"; echo "t_gp_quote: record failed"; exit 1; }
	run report -f "$tmp/$form.lcp" --plot "$tmp/$form.png"
	check "report --plot, command line with the $form form: nothing runs, the PNG is drawn" \
		'none "r_$form" && is_png "$tmp/$form.png" && grep -q "^set multiplot .*touch" "$tmp/$form.gp"'
done

# ---- fit -g / predict --plot / predict --profile / compose --plot ------------
R=tests/data/fit/runfast.runs
D=tests/data/fit
for form in bq nl; do
	hn=$($form "n_$form")
	cp "$R" "$tmp/runs$hn.runs"
	cp "$D/fft_task.model" "$tmp/model$hn"
	printf 'serial main: f\nfragment f\n    model: rt(n,p) = n/p + p\n' >"$tmp/s$hn.lcm"
	# the plot files' own names carry a quote, a back-quote command and the form
	run fit -c li -v p -f "$tmp/runs$hn.runs" -x "n=256" -g "$tmp/g'$form$(bq "g_$form")"
	check "fit -g, runs file named with the $form form: nothing runs, the PNG is drawn" \
		'none "n_$form" "g_$form" && is_png "$tmp/g'"'"'$form$(bq "g_$form").png"'
	run predict -m "$tmp/model$hn" --grid "p=1..8 n=64,256" --plot "$tmp/p'$form$(bq "p_$form").png"
	check "predict --plot, model named with the $form form: nothing runs, the PNG is drawn" \
		'none "n_$form" "p_$form" && is_png "$tmp/p'"'"'$form$(bq "p_$form").png"'
	run predict --profile "$tmp/runs$hn.runs" -x "n=256" --plot "$tmp/pp$form.png"
	check "predict --profile --plot, runs file named with the $form form: nothing runs" \
		'none "n_$form" && is_png "$tmp/pp$form.png"'
	run compose -s "$tmp/s$hn.lcm" --grid "n=8,16 p=1,2,4" --plot "$tmp/c$form.png"
	check "compose --plot, structure named with the $form form: nothing runs" \
		'none "n_$form" && is_png "$tmp/c$form.png"'
done
finish
