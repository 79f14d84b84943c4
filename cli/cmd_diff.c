/*
 * cmd_diff.c — "lostcycles diff": its options; the comparison, its table,
 * its page and the scaling factors are postproc/report/diff*.c.
 */
#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_util.h"
#include "diff.h"

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "lostcycles diff"
#define MAX_COND 16
#define MAX_SIZES 256

/* The exit status when a --fail-if condition holds. */
#define EXIT_CONDITION 3

static const char *const usage[] = {
	"lostcycles diff [options] A B",
	"lostcycles diff [options] A1 A2 ... -- B1 B2 ...",
	"lostcycles diff --scaling [--size LIST] [--format FMT] P1 P2 ...",
	"",
	"Compare two profiles (or two sets of repeats, split by --) per category,",
	"per place and per thread: the change in seconds and in share of the total,",
	"and whether it is beyond noise.  Exits 3 when a --fail-if condition holds.",
	NULL,
};

static struct lc_diff_opts dopt = LC_DIFF_OPTS_DEFAULT;
static struct lc_diff_cond cond[MAX_COND];
static int ncond, fmt_opt = LC_FMT_TEXT, source_opt = LC_SRC_SAMPLED, all, scaling, force;
static double min_pct = 5.0;
static const char *html, *size_list;

static const struct lc_opt_word formats[] = {
	{ "text", LC_FMT_TEXT }, { "csv", LC_FMT_CSV }, { "json", LC_FMT_JSON }, { NULL, 0 },
};

static const struct lc_opt_word sources[] = {
	{ "sampled", LC_SRC_SAMPLED }, { "trace", LC_SRC_TRACE }, { NULL, 0 },
};

/* --fail-if COND (repeatable). */
static int opt_fail_if(const struct lc_opt *opt, const char *arg)
{
	char msg[512];

	if (ncond == MAX_COND)
		return lc_opt_bad(opt, arg, "at most 16 conditions");
	if (lc_diff_cond_parse(arg, &cond[ncond], msg, sizeof(msg))) {
		warnx("%s", msg);
		return -1;
	}
	ncond++;
	return 0;
}

static const struct lc_opt opts[] = {
	LC_OPT_ENUM("format", 0, "FMT", "text (default), csv or json", &fmt_opt, formats),
	LC_OPT_FILENAME("html", 0, "FILE", "the two sides side by side as a self-contained "
			"HTML page", &html),
	LC_OPT_FLAG("force", 0, "replace the --html FILE when it exists", &force),
	LC_OPT_FLAG("all", 'a', "every row (default: the rows beyond noise or holding 1 %\n"
		    "of a side's total)", &all),
	LC_OPT_FLAG("per-thread", 0, "rows per thread too (matched by their order)",
		    &dopt.threads),
	LC_OPT_REAL("z", 0, "Z", "beyond noise: a change of more than Z standard errors\n"
		    "(default 3) ...", &dopt.z, 0, 1e6),
	LC_OPT_REAL("min", 0, "PCT", "... and of at least PCT % of the total time (default 5)",
		    &min_pct, 0, 100),
	LC_OPT_CALLBACK("fail-if", 0, "COND", "exit 3 when COND holds beyond noise: "
			"[PLACE@]METRIC>CHANGE\nor <CHANGE; METRIC a category key or total; "
			"CHANGE a signed\nnumber with %, s or pp, e.g. \"li>+5%\" (repeatable)",
			NULL, opt_fail_if),
	LC_OPT_FLAG("scaling", 0, "the scaling factor per place and category over profiles "
		    "of\ndifferent p: SF = (T_min / T_n) / (n / n_min)", &scaling),
	LC_OPT_STRING("size", 0, "LIST", "with --scaling: the profiles' sizes n (comma-"
		      "separated),\ninstead of their p", &size_list),
	LC_OPT_ENUM("source", 0, "SRC", "sampled (default) or trace", &source_opt, sources),
	LC_OPT_END(),
};

/* The word that stands for the first "--" of argv: not an option's, so
 * that the option parser keeps it among the operands (its address marks
 * it). */
static char split_word[] = "\x1f";

/* Point the first "--" of argv at split_word: it splits the sides. */
static void mark_split(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			argv[i] = split_word;
			return;
		}
}

/* Read the n profiles names[] into prs.  0, or 1 after a message. */
static int load(char **names, int n, struct lc_profile **prs)
{
	char why[512];

	for (int i = 0; i < n; i++)
		if (lc_profile_read(names[i], &prs[i], why, sizeof(why))) {
			warnx("%s: %s", names[i], why);
			return 1;
		}
	return 0;
}

/* --size LIST into size[n].  0, or 2 after a message. */
static int sizes(const char *list, double *size, int n)
{
	const char *s = list;
	int k = 0;

	while (*s && k < n) {
		char *end;

		size[k] = strtod(s, &end);
		if (end == s || !(size[k] > 0) || (*end && *end != ','))
			break;
		k++;
		s = *end ? end + 1 : end;
	}
	if (k != n || *s) {
		warnx("--size '%s': give %d positive numbers, comma-separated, one per profile",
		      list, n);
		return 2;
	}
	return 0;
}

/* --scaling over the n profiles names[]. */
static int run_scaling(char **names, int n)
{
	struct lc_profile *prs[MAX_SIZES] = { 0 };
	double size[MAX_SIZES];
	char msg[512];
	int r;

	if (n > MAX_SIZES) {
		warnx("--scaling takes at most %d profiles", MAX_SIZES);
		return 2;
	}
	if (size_list && (r = sizes(size_list, size, n)))
		return r;
	r = load(names, n, prs);
	if (!r && lc_diff_scaling(stdout, prs, n, size_list ? size : NULL,
				  (enum lc_source)source_opt, (enum lc_emit_format)fmt_opt, msg,
				  sizeof(msg)))
		r = lc_cmd_fail(msg);
	for (int i = 0; i < n; i++)
		lc_profile_free(prs[i]);
	return r;
}

/* The page to --html's file. */
static int write_html(const struct lc_diff *d, const char *na, const char *nb)
{
	char msg[512];
	FILE *f = lc_out_open(html, force ? LC_OUT_FORCE : LC_OUT_KEEP, msg, sizeof(msg));
	int r;

	if (!f)
		return lc_cmd_fail(msg);
	r = lc_diff_html(f, d, na, nb);
	if (fclose(f) || r) {
		warnx("%s: cannot write the page", html);
		return 1;
	}
	printf("wrote %s\n", html);
	return 0;
}

/* The conditions of --fail-if: EXIT_CONDITION when one holds. */
static int conditions(const struct lc_diff *d)
{
	char why[512];
	int r = 0;

	for (int i = 0; i < ncond; i++) {
		int h = lc_diff_cond_eval(d, &cond[i], why, sizeof(why));

		if (h < 0) {
			warnx("%s", why);
			return 1;
		}
		if (h) {
			warnx("condition holds: %s", why);
			r = EXIT_CONDITION;
		}
	}
	return r;
}

/* Compare the two sides and print.  The exit status. */
static int run(struct lc_profile **a, int na, struct lc_profile **b, int nb, const char *la,
	       const char *lb)
{
	struct lc_diff *d = NULL;
	char msg[512];
	int r;

	dopt.min = min_pct / 100;
	dopt.source = (enum lc_source)source_opt;
	if (lc_diff_build(a, na, b, nb, &dopt, &d, msg, sizeof(msg)))
		return lc_cmd_fail(msg);
	r = html ? write_html(d, la, lb)
		 : lc_diff_print(stdout, d, (enum lc_emit_format)fmt_opt, all, la, lb) ? 1 : 0;
	if (!r)
		r = conditions(d);
	lc_diff_free(d);
	return r;
}

/* The labels of the sides: the file, or "FIRST and N-1 more". */
static void label(char *buf, size_t len, char **names, int n)
{
	if (n == 1)
		snprintf(buf, len, "%s", names[0]);
	else
		snprintf(buf, len, "%s and %d more", names[0], n - 1);
}

/* Split the operands at the marked "--" (or two operands: one a side). */
static int sides(char **rest, int n, int *na)
{
	*na = -1;
	for (int i = 0; i < n; i++)
		if (rest[i] == split_word)
			*na = i;
	if (*na < 0 && n == 2)
		*na = 1;
	else if (*na >= 0 && (*na == 0 || *na == n - 1))
		*na = -1;
	if (*na < 0) {
		warnx("give two profiles A B, or repeats A1 A2 ... -- B1 B2 ...; see '" PROG
		      " --help'");
		return 2;
	}
	return 0;
}

/* "lostcycles diff".  See lc_cmd.h. */
int lc_cmd_diff(int argc, char **argv)
{
	struct lc_profile **prs = NULL;
	char **rest, la[512], lb[512];
	int n, na, nb, r;

	mark_split(argc, argv);
	n = lc_opt_parse(argc, argv, opts, usage, &rest);
	if (n < 0)
		return LC_OPT_EXIT(n);
	if (scaling && (ncond || html || all || dopt.threads))
		return warnx("--scaling prints a table of its own: it takes --size, --format and "
			     "--source only"), 2;
	if (size_list && !scaling)
		return warnx("--size goes with --scaling"), 2;
	if (html && fmt_opt != LC_FMT_TEXT)
		return warnx("--html takes no --format"), 2;
	if (scaling)
		return run_scaling(rest, n);
	if ((r = sides(rest, n, &na)))
		return r;
	nb = n - na - (rest[na] == split_word);
	if (!(prs = calloc((size_t)n, sizeof(*prs))))
		return lc_cmd_fail("out of memory");
	r = load(rest, na, prs);
	if (!r)
		r = load(rest + n - nb, nb, prs + na);
	label(la, sizeof(la), rest, na);
	label(lb, sizeof(lb), rest + n - nb, nb);
	if (!r)
		r = run(prs, na, prs + na, nb, la, lb);
	for (int i = 0; i < n; i++)
		lc_profile_free(prs[i]);
	free(prs);
	return r;
}
