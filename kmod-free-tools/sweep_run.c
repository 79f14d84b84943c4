/*
 * sweep_run.c — one run of "lostcycles sweep".  See lc_sweep_run.h.
 */
#include "lc_sweep_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_profile.h"
#include "lc_runner.h"
#include "lc_util.h"

int lc_sweep_record_opts(struct lc_sweep_spec *sp, char *text, char *why, size_t len)
{
	char *save = NULL;

	for (char *t = strtok_r(text, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (sp->nropts == LC_SWEEP_RECORD_OPTS)
			return lc_fail(why, len, -EINVAL, "--record-opts: more than %d words",
				       LC_SWEEP_RECORD_OPTS);
		if (!strcmp(t, "-o") || !strncmp(t, "--output", 8) || !strcmp(t, "-p") ||
		    !strncmp(t, "--procs", 7) || !strcmp(t, "--"))
			return lc_fail(why, len, -EINVAL, "--record-opts: '%s' is set by sweep", t);
		sp->ropts[sp->nropts++] = t;
	}
	return 0;
}

int lc_sweep_reserved(const char *name)
{
	return !strcmp(name, "rep") || lc_cat_by_key(name) >= 0 || !strcmp(name, "tt") ||
	       !strcmp(name, "wall");
}

int lc_sweep_check(struct lc_sweep_spec *sp, char *why, size_t len)
{
	size_t row[LC_SWEEP_VARS] = { 0 };
	char *out;
	uint64_t v;

	sp->pvar = -1;
	for (int i = 0; i < sp->nvars; i++) {
		if (strcmp(sp->vars[i].name, "p"))
			continue;
		sp->pvar = i;
		for (size_t k = 0; k < sp->vars[i].n; k++)
			if (lc_parse_u64(sp->vars[i].values[k], 1, 65536, &v))
				return lc_fail(why, len, -EINVAL, "p=%s: p is the processor count, "
					       "a whole number 1..65536", sp->vars[i].values[k]);
	}
	if (sp->ncmd > LC_SWEEP_CMD_MAX)
		return lc_fail(why, len, -E2BIG, "the command has too many arguments");
	for (int i = 0; i < sp->ncmd; i++) {
		int e = lc_sweep_subst(sp->cmd[i], sp->vars, sp->nvars, row, &out, why, len);

		if (e)
			return e == -ENOMEM ? lc_fail(why, len, e, "out of memory") : e;
		free(out);
	}
	return 0;
}

/* The note ("n=256 rep=2": every variable but p, which report -l prints),
 * the label (every variable) and the file stem ("n256-p2-rep1") of a run. */
static void names(struct lc_sweep_run *r, const struct lc_sweep_spec *sp, const size_t *row,
		  int rep)
{
	size_t n = 0, l = 0, m = 0;

	for (int i = 0; i < sp->nvars; i++) {
		const char *name = sp->vars[i].name, *val = sp->vars[i].values[row[i]];

		if (i != sp->pvar && n < sizeof(r->note))
			n += (size_t)snprintf(r->note + n, sizeof(r->note) - n, "%s=%s ", name, val);
		if (l < sizeof(r->label))
			l += (size_t)snprintf(r->label + l, sizeof(r->label) - l, "%s=%s ", name, val);
		if (m < sizeof(r->name))
			m += (size_t)snprintf(r->name + m, sizeof(r->name) - m, "%s%s-", name, val);
	}
	if (n < sizeof(r->note))
		snprintf(r->note + n, sizeof(r->note) - n, "rep=%d", rep);
	if (l < sizeof(r->label))
		snprintf(r->label + l, sizeof(r->label) - l, "rep=%d", rep);
	if (m < sizeof(r->name))
		snprintf(r->name + m, sizeof(r->name) - m, "rep%d", rep);
	for (char *c = r->name; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
}

/* record -q ROPTS [-p P] -o PROF --force -- into r->argv; returns the count. */
static int record_words(struct lc_sweep_run *r, const struct lc_sweep_spec *sp,
			const size_t *row)
{
	static char procs[32];
	int k = 0;

	r->argv[k++] = (char *)lc_self_exe();
	r->argv[k++] = "record";
	r->argv[k++] = "-q";
	for (int i = 0; i < sp->nropts; i++)
		r->argv[k++] = sp->ropts[i];
	if (sp->pvar >= 0) {
		snprintf(procs, sizeof(procs), "%s", sp->vars[sp->pvar].values[row[sp->pvar]]);
		r->argv[k++] = "-p";
		r->argv[k++] = procs;
	}
	r->argv[k++] = "-o";
	r->argv[k++] = r->prof;
	r->argv[k++] = "--force";	/* the point's own file in RUNS.profiles/ */
	r->argv[k++] = "--";
	return k;
}

int lc_sweep_run_prepare(struct lc_sweep_run *r, const struct lc_sweep_spec *sp,
			 const size_t *row, int rep, char *why, size_t len)
{
	int k;

	if (sp->ncmd > LC_SWEEP_CMD_MAX)
		return lc_fail(why, len, -E2BIG, "the command has too many arguments");
	names(r, sp, row, rep);
	snprintf(r->prof, sizeof(r->prof), "%s/%s.data", sp->profdir, r->name);
	snprintf(r->out, sizeof(r->out), "%s/%s.out", sp->profdir, r->name);
	snprintf(r->err, sizeof(r->err), "%s/%s.err", sp->profdir, r->name);
	snprintf(r->line, sizeof(r->line), "%s/%s.line", sp->profdir, r->name);
	k = r->first = record_words(r, sp, row);
	for (int i = 0; i < sp->ncmd; i++, k++) {
		int e = lc_sweep_subst(sp->cmd[i], sp->vars, sp->nvars, row, &r->argv[k], why, len);

		if (e) {
			r->argv[k] = NULL;
			lc_sweep_run_free(r);
			return e == -ENOMEM ? lc_fail(why, len, e, "out of memory") : e;
		}
	}
	r->argv[k] = NULL;
	return 0;
}

void lc_sweep_run_free(struct lc_sweep_run *r)
{
	for (int i = r->first; r->argv[i]; i++) {
		free(r->argv[i]);
		r->argv[i] = NULL;
	}
}

/* Read the one line "report -l" wrote into out[len] and add wall= and,
 * when the profile measured the machine's share, load= (the percent of the
 * program's CPUs that other processes and the hypervisor took: fit flags
 * loaded runs and --max-load drops them); 0 or -1. */
static int runs_line(const char *lpath, const char *prof, char *out, size_t len)
{
	struct lc_profile *pr = NULL;
	char why[512];
	FILE *f = fopen(lpath, "re");
	size_t n;
	double load;

	if (!f)
		return -1;
	if (!fgets(out, (int)len - 40, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strcspn(out, "\n");
	out[n] = 0;
	if (strstr(out, " load="))	/* report -l's, written again after wall= below */
		n = (size_t)(strstr(out, " load=") - out), out[n] = 0;
	if (lc_profile_read(prof, &pr, why, sizeof(why)))
		return -1;
	load = lc_machine_pct(&pr->machine_total, LC_SHARE_LOAD);
	n += (size_t)snprintf(out + n, len - n, " wall=%.9g", (double)pr->end.end_ns / 1e9);
	if (load >= 0 && n < len)
		n += (size_t)snprintf(out + n, len - n, " load=%.3g", load);
	if (n < len)
		snprintf(out + n, len - n, "\n");
	lc_profile_free(pr);
	return 0;
}

/* Remove path when it is empty (a run's output that said nothing). */
static void remove_if_empty(const char *path)
{
	struct stat st;

	if (!stat(path, &st) && st.st_size == 0)
		unlink(path);
}

/* report -f PROF -l NOTE of a recorded run into line. */
static void report_line(struct lc_sweep_run *r, char *line, size_t len)
{
	char *argv[] = { (char *)lc_self_exe(), "report", "-f", r->prof, "-l", r->note, NULL };
	struct lc_child_result res;
	int e = lc_run_child(argv, NULL, r->line, "/dev/null", &res);

	if (e || res.status || runs_line(r->line, r->prof, line, len))
		snprintf(line, len, "# failed: %s status=%d (report -l: no line)\n", r->note,
			 e ? 127 : res.status ? res.status : 1);
	unlink(r->line);
}

int lc_sweep_run_exec(struct lc_sweep_run *r, char *line, size_t len)
{
	struct lc_child_result res;
	int e = lc_run_child(r->argv, NULL, r->out, r->err, &res);

	if (e)
		return e;
	if (lc_runner_stop) {	/* the run in progress is lost: nothing of it is kept */
		unlink(r->prof);
		remove_if_empty(r->out);
		remove_if_empty(r->err);
		return 2;
	}
	if (res.status == 0)
		report_line(r, line, len);
	else
		snprintf(line, len, "# failed: %s status=%d (see %s)\n", r->note, res.status,
			 r->err);
	if (line[0] == '#')
		return 1;
	remove_if_empty(r->out);
	remove_if_empty(r->err);
	return 0;
}
