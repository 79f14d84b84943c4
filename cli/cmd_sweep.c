/*
 * cmd_sweep.c — "lostcycles sweep": run CMD under "lostcycles record" at
 * each point of a design over the external variables and append one runs
 * line per run (thesis Figure 5.4 step 1).  Runs are children: record and
 * then "report -l" of this executable; the profiles stay beside RUNS.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_cmd.h"
#include "lc_profile.h"
#include "lc_runner.h"
#include "lc_sweep.h"
#include "lc_abi.h"
#include "lc_util.h"
#include "lca_model.h"

#define MAX_RECORD_OPTS 32

static const char sweep_usage[] =
	"usage: lostcycles sweep -o RUNS -v NAME=V1,V2,... [-v ...] [--design full|edges|corners]\n"
	"                        [-r REPEATS] [--record-opts \"OPTS\"] [--fail-fast] [-n] [-q]\n"
	"                        -- CMD [ARGS...]\n"
	"       lostcycles sweep -o RUNS -v NAME=V1,V2,... [-v ...] --suggest MODEL [--top N]\n"
	"Run CMD under 'lostcycles record' at every point of the design, {NAME} in the\n"
	"arguments replaced by the point's value (p is also record's --procs), and\n"
	"append one runs line per run to RUNS for 'lostcycles fit -f RUNS'.  Points\n"
	"already in RUNS are skipped, so an interrupted sweep resumes where it stopped.\n\n"
	"  -o, --output=RUNS        the runs file (profiles go to RUNS.profiles/)\n"
	"  -v, --var=NAME=VALUES    an external variable and its values (repeatable)\n"
	"  -d, --design=DESIGN      full (default), edges (at most one variable off its\n"
	"                           first or last value), corners (extremes only)\n"
	"  -r, --repeats=N          runs per point (default 1)\n"
	"      --record-opts=OPTS   more options for record, e.g. \"-i 50us\"\n"
	"      --fail-fast          stop at the first failing run\n"
	"  -n, --dry-run            print the points and the commands, run nothing\n"
	"      --suggest=MODEL      run nothing: name the points of the -v grid not in RUNS\n"
	"                           where MODEL (fit --emit) predicts least surely\n"
	"      --top=N              how many points --suggest names (default 3)\n"
	"  -q, --quiet              no progress on stderr\n"
	"  -h, --help               this text\n";

struct sweep {
	const char *runs;
	char profdir[4200];
	struct lc_sweep_var vars[LC_SWEEP_VARS];
	int nvars, pvar;		/* pvar: index of "p", -1 none */
	int design, repeats, fail_fast, dry, quiet, tty;
	const char *suggest;		/* model file, or NULL */
	size_t top;
	char *ropts[MAX_RECORD_OPTS];
	int nropts;
	char **cmd;
	int ncmd;
	size_t *pts, npts;
	struct lc_sweep_done *done;
	size_t total, todo, ran, failed;
	uint64_t t_start;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
	lc_runner_stop = 1;
}

/* Split --record-opts on blanks.  0 or -1 after a message. */
static int split_opts(struct sweep *s, char *text)
{
	char *save = NULL;

	for (char *t = strtok_r(text, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (s->nropts == MAX_RECORD_OPTS) {
			warnx("--record-opts: more than %d words", MAX_RECORD_OPTS);
			return -1;
		}
		if (!strcmp(t, "-o") || !strncmp(t, "--output", 8) || !strcmp(t, "-p") ||
		    !strncmp(t, "--procs", 7) || !strcmp(t, "--")) {
			warnx("--record-opts: '%s' is set by sweep", t);
			return -1;
		}
		s->ropts[s->nropts++] = t;
	}
	return 0;
}

/* "n=256 rep=2" for the point: every variable but p (report -l prints p). */
static void note(const struct sweep *s, const size_t *row, int rep, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < s->nvars && n < len; i++)
		if (i != s->pvar)
			n += (size_t)snprintf(buf + n, len - n, "%s=%s ", s->vars[i].name,
					      s->vars[i].values[row[i]]);
	if (n < len)
		snprintf(buf + n, len - n, "rep=%d", rep);
}

/* A file name for the point's profile: "n256-p2-rep1". */
static void point_name(const struct sweep *s, const size_t *row, int rep, char *buf,
		       size_t len)
{
	size_t n = 0;

	for (int i = 0; i < s->nvars && n < len; i++) {
		n += (size_t)snprintf(buf + n, len - n, "%s%s-", s->vars[i].name,
				      s->vars[i].values[row[i]]);
	}
	if (n < len)
		snprintf(buf + n, len - n, "rep%d", rep);
	for (char *c = buf; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
}

static void progress(struct sweep *s, const char *what)
{
	double el = (double)(lc_clock_ns() - s->t_start) / 1e9;
	double left = s->ran ? el / (double)s->ran * (double)(s->todo - s->ran) : NAN;

	if (s->quiet)
		return;
	if (s->tty) {
		int w = 30, k = (int)(w * s->ran / (s->todo ? s->todo : 1));

		fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-28.28s", k, "##############################",
			w - k, "", s->ran, s->todo, what);
		if (isfinite(left))
			fprintf(stderr, " %4.0f s left", left);
		if (s->ran == s->todo)
			fputc('\n', stderr);
	} else {
		fprintf(stderr, "lostcycles sweep: run %zu/%zu: %s", s->ran + 1, s->todo, what);
		if (isfinite(left))
			fprintf(stderr, " (%.0f s left)", left);
		fputc('\n', stderr);
	}
}

/* The record command for a point into argv (malloc'd strings from subst in
 * argv[first..]); returns the index where the substituted command starts,
 * or -1 after a message. */
static int build_argv(struct sweep *s, const size_t *row, const char *prof, char **argv)
{
	static char procs[32];
	char why[512];
	int k = 0, first;

	argv[k++] = (char *)lc_self_exe();
	argv[k++] = "record";
	argv[k++] = "-q";
	for (int i = 0; i < s->nropts; i++)
		argv[k++] = s->ropts[i];
	if (s->pvar >= 0) {
		snprintf(procs, sizeof(procs), "%s", s->vars[s->pvar].values[row[s->pvar]]);
		argv[k++] = "-p";
		argv[k++] = procs;
	}
	argv[k++] = "-o";
	argv[k++] = (char *)prof;
	argv[k++] = "--force";	/* the point's own file in RUNS.profiles/ */
	argv[k++] = "--";
	first = k;
	for (int i = 0; i < s->ncmd; i++) {
		int e = lc_sweep_subst(s->cmd[i], s->vars, s->nvars, row, &argv[k++], why,
				       sizeof(why));

		if (e) {
			argv[k - 1] = NULL;
			for (int j = first; j < k - 1; j++)
				free(argv[j]);
			warnx("%s", e == -ENOMEM ? "out of memory" : why);
			return -1;
		}
	}
	argv[k] = NULL;
	return first;
}

/* Read the one line "report -l" wrote into out[len] and add wall=; 0 or -1. */
static int runs_line(const char *lpath, const char *prof, char *out, size_t len)
{
	struct lc_profile *pr = NULL;
	char why[512];
	FILE *f = fopen(lpath, "re");
	size_t n;

	if (!f)
		return -1;
	if (!fgets(out, (int)len - 40, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strcspn(out, "\n");
	out[n] = 0;
	if (lc_profile_read(prof, &pr, why, sizeof(why)))
		return -1;
	snprintf(out + n, len - n, " wall=%.9g\n", (double)pr->end.end_ns / 1e9);
	lc_profile_free(pr);
	return 0;
}

static void remove_if_empty(const char *path)
{
	struct stat st;

	if (!stat(path, &st) && st.st_size == 0)
		unlink(path);
}

/* Record one point and append its line (or a failure comment).  0, 1 for a
 * failed run, -1 when the sweep cannot go on. */
static int run_point(struct sweep *s, const size_t *row, int rep)
{
	char name[512], prof[4800], outp[4800], errp[4800], lpath[4800], nt[1024];
	char line[8192], label[1024], *argv[MAX_RECORD_OPTS + 512];
	char *rargv[8];
	struct lc_child_result r;
	int first, e, rc = 0;

	if (s->ncmd > 480) {
		warnx("the command has too many arguments");
		return -1;
	}
	point_name(s, row, rep, name, sizeof(name));
	note(s, row, rep, nt, sizeof(nt));
	snprintf(prof, sizeof(prof), "%s/%s.data", s->profdir, name);
	snprintf(outp, sizeof(outp), "%s/%s.out", s->profdir, name);
	snprintf(errp, sizeof(errp), "%s/%s.err", s->profdir, name);
	snprintf(lpath, sizeof(lpath), "%s/%s.line", s->profdir, name);
	first = build_argv(s, row, prof, argv);
	if (first < 0)
		return -1;
	if (s->dry) {
		printf("%s:", nt);
		for (int i = first; argv[i]; i++)
			printf(" %s", argv[i]);
		printf("\n");
		goto out;
	}
	label[0] = 0;
	for (int i = 0, n = 0; i < s->nvars && n < (int)sizeof(label); i++)
		n += snprintf(label + n, sizeof(label) - (size_t)n, "%s=%s ", s->vars[i].name,
			      s->vars[i].values[row[i]]);
	snprintf(label + strlen(label), sizeof(label) - strlen(label), "rep=%d", rep);
	progress(s, label);
	e = lc_run_child(argv, NULL, outp, errp, &r);
	if (e) {
		warnx("cannot run record: %s", strerror(-e));
		rc = -1;
		goto out;
	}
	if (interrupted)
		goto out;	/* the run in progress is lost, nothing written */
	if (r.status == 0) {
		rargv[0] = (char *)lc_self_exe();
		rargv[1] = "report";
		rargv[2] = "-f";
		rargv[3] = prof;
		rargv[4] = "-l";
		rargv[5] = nt;
		rargv[6] = NULL;
		e = lc_run_child(rargv, NULL, lpath, "/dev/null", &r);
		if (e || r.status || runs_line(lpath, prof, line, sizeof(line)))
			snprintf(line, sizeof(line), "# failed: %s status=%d (report -l: no line)\n",
				 nt, e ? 127 : r.status ? r.status : 1);
		unlink(lpath);
	} else {
		snprintf(line, sizeof(line), "# failed: %s status=%d (see %s)\n", nt, r.status, errp);
	}
	if (line[0] == '#') {
		s->failed++;
		rc = 1;
	} else {
		remove_if_empty(outp);
		remove_if_empty(errp);
	}
	e = lc_sweep_append(s->runs, line);
	if (e) {
		warnx("%s: %s", s->runs, strerror(-e));
		rc = -1;
	}
	s->ran++;
out:
	for (int i = first; i >= 0 && argv[i]; i++)
		free(argv[i]);
	return rc;
}

/* Everything: repeats outermost, so the first repeat of every point comes
 * first.  Returns the exit status. */
static int sweep(struct sweep *s)
{
	for (int rep = 1; rep <= s->repeats && !interrupted; rep++)
		for (size_t p = 0; p < s->npts && !interrupted; p++) {
			const size_t *row = s->pts + p * (size_t)s->nvars;
			int rc;

			if (lc_sweep_done_has(s->done, row, rep))
				continue;
			rc = run_point(s, row, rep);
			if (rc < 0)
				return 1;
			if (rc && s->fail_fast) {
				warnx("stopping at the first failure (--fail-fast)");
				return 1;
			}
		}
	if (!s->dry && !s->quiet && s->tty && s->ran != s->todo)
		fputc('\n', stderr);
	if (interrupted) {
		fprintf(stderr, "lostcycles sweep: interrupted after %zu of %zu runs; run the "
				"same command again to go on\n", s->ran, s->todo);
		return 128 + interrupted;
	}
	return s->failed ? 1 : 0;
}

/* Parse the options into s; the index of CMD, -1 after --help, -2 on error. */
static int parse(struct sweep *s, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "var", required_argument, NULL, 'v' },
		{ "design", required_argument, NULL, 'd' },
		{ "repeats", required_argument, NULL, 'r' },
		{ "record-opts", required_argument, NULL, 'R' },
		{ "fail-fast", no_argument, NULL, 'F' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "suggest", required_argument, NULL, 'S' },
		{ "top", required_argument, NULL, 'T' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char why[512];
	uint64_t v;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:v:d:r:nqh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			s->runs = optarg;
			break;
		case 'v':
			if (s->nvars == LC_SWEEP_VARS) {
				warnx("at most %d variables", LC_SWEEP_VARS);
				return -2;
			}
			if (lc_sweep_var_parse(optarg, &s->vars[s->nvars], why, sizeof(why))) {
				warnx("-v %s", why);
				return -2;
			}
			for (int i = 0; i < s->nvars; i++)
				if (!strcmp(s->vars[i].name, s->vars[s->nvars].name)) {
					warnx("variable '%s' given twice", s->vars[i].name);
					return -2;
				}
			if (!strcmp(s->vars[s->nvars].name, "rep") ||
			    lc_cat_by_key(s->vars[s->nvars].name) >= 0 ||
			    !strcmp(s->vars[s->nvars].name, "tt") ||
			    !strcmp(s->vars[s->nvars].name, "wall")) {
				warnx("'%s' is a name the runs file uses itself", s->vars[s->nvars].name);
				return -2;
			}
			s->nvars++;
			break;
		case 'd':
			s->design = lc_sweep_design_parse(optarg);
			if (s->design < 0) {
				warnx("bad design '%s' (full, edges or corners)", optarg);
				return -2;
			}
			break;
		case 'r':
			if (lc_parse_u64(optarg, 1, 1000, &v)) {
				warnx("bad repeat count '%s' (1..1000)", optarg);
				return -2;
			}
			s->repeats = (int)v;
			break;
		case 'R':
			if (split_opts(s, optarg))
				return -2;
			break;
		case 'F':
			s->fail_fast = 1;
			break;
		case 'n':
			s->dry = 1;
			break;
		case 'S':
			s->suggest = optarg;
			break;
		case 'T':
			if (lc_parse_u64(optarg, 1, 1000, &v)) {
				warnx("bad count '%s' for --top (1..1000)", optarg);
				return -2;
			}
			s->top = (size_t)v;
			break;
		case 'q':
			s->quiet = 1;
			break;
		case 'h':
			fputs(sweep_usage, stdout);
			return -1;
		default:
			warnx("unknown or incomplete option '%s'", argv[optind - 1]);
			fputs(sweep_usage, stderr);
			return -2;
		}
	}
	if (!s->runs || !s->nvars || (optind >= argc && !s->suggest)) {
		warnx("%s", !s->runs ? "no runs file (-o RUNS)" : !s->nvars ? "no variable (-v)" :
			    "no command given");
		fputs(sweep_usage, stderr);
		return -2;
	}
	return optind;
}

/* --suggest: print the points where the model is least sure.  Exit status. */
static int suggest(struct sweep *s)
{
	struct lc_suggestion out[1000];
	struct lc_model *m = NULL;
	char why[512];
	int line = 0, n;

	if (lc_model_read(s->suggest, &m, &line, why, sizeof(why))) {
		if (line)
			warnx("%s:%d: %s", s->suggest, line, why);
		else
			warnx("%s: %s", s->suggest, why);
		return 1;
	}
	n = lc_sweep_suggest(m, s->vars, s->nvars, s->done, out, s->top, why, sizeof(why));
	lc_model_free(m);
	if (n < 0) {
		warnx("--suggest: %s", why);
		return 1;
	}
	if (!n) {
		printf("no point to suggest: every point of the grid is in %s\n", s->runs);
		return 0;
	}
	printf("points of the grid not in %s where %s's 90 %% prediction interval of T(E) is "
	       "widest, relative to T:\n", s->runs, s->suggest);
	for (int k = 0; k < n; k++) {
		int w = 0;

		for (int i = 0; i < s->nvars; i++)
			w += printf("%s%s=%s", i ? " " : "  ", s->vars[i].name,
				    s->vars[i].values[out[k].row[i]]);
		printf("%*s T = %.6g +/- %.3g (%.1f %%)\n", w < 30 ? 30 - w : 1, "", out[k].t,
		       out[k].half, 100 * out[k].half / out[k].t);
	}
	return 0;
}

/* Check p's values and every placeholder before running anything. */
static int validate(struct sweep *s)
{
	size_t row[LC_SWEEP_VARS] = { 0 };
	char why[512], *out;
	uint64_t v;

	s->pvar = -1;
	for (int i = 0; i < s->nvars; i++) {
		if (strcmp(s->vars[i].name, "p"))
			continue;
		s->pvar = i;
		for (size_t k = 0; k < s->vars[i].n; k++)
			if (lc_parse_u64(s->vars[i].values[k], 1, 65536, &v)) {
				warnx("p=%s: p is the processor count, a whole number 1..65536",
				      s->vars[i].values[k]);
				return -1;
			}
	}
	for (int i = 0; i < s->ncmd; i++) {
		int e = lc_sweep_subst(s->cmd[i], s->vars, s->nvars, row, &out, why, sizeof(why));

		if (e) {
			warnx("%s", e == -ENOMEM ? "out of memory" : why);
			return -1;
		}
		free(out);
	}
	return 0;
}

int lc_cmd_sweep(int argc, char **argv)
{
	static struct sweep s;
	struct sigaction sa = { .sa_handler = on_signal };
	int first, cut = 0, e, rc;

	s = (struct sweep){ .repeats = 1, .design = LC_DESIGN_FULL, .top = 3 };
	first = parse(&s, argc, argv);
	if (first < 0)
		return first == -1 ? 0 : 2;
	s.cmd = argv + first;
	s.ncmd = argc - first;
	if (validate(&s))
		return 2;
	if (lc_sweep_points(s.vars, s.nvars, s.design, &s.pts, &s.npts)) {
		warnx("out of memory");
		return 1;
	}
	e = lc_sweep_done_load(s.runs, s.vars, s.nvars, &s.done, &cut);
	if (e) {
		warnx("%s: %s", s.runs, strerror(-e));
		return 1;
	}
	if (cut)
		warnx("%s: removed a last line cut short by an earlier crash", s.runs);
	if (s.suggest) {
		rc = suggest(&s);
		lc_sweep_done_free(s.done);
		free(s.pts);
		for (int i = 0; i < s.nvars; i++)
			lc_sweep_var_free(&s.vars[i]);
		return rc;
	}
	s.total = s.npts * (size_t)s.repeats;
	for (int rep = 1; rep <= s.repeats; rep++)
		for (size_t p = 0; p < s.npts; p++)
			s.todo += !lc_sweep_done_has(s.done, s.pts + p * (size_t)s.nvars, rep);
	snprintf(s.profdir, sizeof(s.profdir), "%s.profiles", s.runs);
	if (!s.dry && mkdir(s.profdir, 0755) && errno != EEXIST) {
		warnx("%s: %s", s.profdir, strerror(errno));
		return 1;
	}
	s.tty = isatty(2);
	s.t_start = lc_clock_ns();
	if (!s.quiet)
		fprintf(stderr, "lostcycles sweep: %zu points x %d repeat%s = %zu runs, %zu already "
				"in %s, %zu to go\n", s.npts, s.repeats, s.repeats == 1 ? "" : "s",
			s.total, s.total - s.todo, s.runs, s.todo);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = sweep(&s);
	if (!s.quiet && !interrupted && !s.dry)
		fprintf(stderr, "lostcycles sweep: %zu runs done, %zu failed; "
				"'lostcycles fit -f %s' models them\n", s.ran, s.failed, s.runs);
	lc_sweep_done_free(s.done);
	free(s.pts);
	for (int i = 0; i < s.nvars; i++)
		lc_sweep_var_free(&s.vars[i]);
	return rc;
}
