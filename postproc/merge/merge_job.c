/*
 * merge_job.c — find the node files of one job by its id (Slurm's job id
 * that "lostcycles exec" records under srun, salloc or sbatch), for
 * "lostcycles merge --job ID".  Library code: prints nothing.
 */
#include "merge.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lc_profile.h"
#include "lc_util.h"

/* The names found so far. */
struct found {
	char **names;
	int n, cap;
	int looked;	/* profiles read */
};

/* Whether the profile at path holds a rank record of job. */
static int of_job(const char *path, uint64_t job, struct found *f)
{
	const struct lc_read_opts o = { .no_rows = 1, .max_windows = 1 };
	struct lc_profile *pr = NULL;
	char why[256];
	int yes = 0;

	if (lc_merge_read(path, &o, &pr, why, sizeof(why)))
		return 0;
	f->looked++;
	for (uint32_t i = 0; i < pr->nranks && !yes; i++)
		yes = pr->ranks[i].job_id == job;
	lc_profile_free(pr);
	return yes;
}

/* Add path to f when its profile is of job.  0 or -ENOMEM. */
static int consider(const char *path, uint64_t job, struct found *f)
{
	char *copy;

	if (!of_job(path, job, f))
		return 0;
	if (f->n == f->cap) {
		int cap = f->cap ? 2 * f->cap : 8;
		char **nn = realloc(f->names, (size_t)cap * sizeof(*nn));

		if (!nn)
			return -ENOMEM;
		f->names = nn;
		f->cap = cap;
	}
	if (!(copy = strdup(path)))
		return -ENOMEM;
	f->names[f->n++] = copy;
	return 0;
}

/* Whether a folder entry's name ends in ".data". */
static int data_name(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".data");
}

/* Consider every *.data file of folder dir, in name order.  0, or -errno. */
static int scan_dir(const char *dir, uint64_t job, struct found *f)
{
	struct dirent **ents = NULL;
	char path[4096];
	int n = scandir(dir, &ents, NULL, alphasort), r = 0;

	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (!r && data_name(ents[i]->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", strcmp(dir, ".") ? dir : ".",
				 ents[i]->d_name);
			r = consider(strcmp(dir, ".") ? path : ents[i]->d_name, job, f);
		}
		free(ents[i]);
	}
	free(ents);
	return r;
}

int lc_merge_find_job(char *const *paths, int n, uint64_t job, char ***found, char *msg,
		      size_t len)
{
	struct found f = { 0 };
	struct stat sb;
	int r = 0;

	for (int i = 0; i < n && !r; i++) {
		if (stat(paths[i], &sb))
			r = lc_fail(msg, len, -errno, "%s: %s", paths[i], strerror(errno));
		else if (S_ISDIR(sb.st_mode) && (r = scan_dir(paths[i], job, &f)))
			lc_fail(msg, len, r, "%s: %s", paths[i], strerror(-r));
		else if (!S_ISDIR(sb.st_mode) && (r = consider(paths[i], job, &f)))
			lc_fail(msg, len, r, "out of memory");
	}
	if (!r && !f.n)
		r = lc_fail(msg, len, -ENOENT, "no node file of job %llu among the %d profile%s "
			    "looked at", (unsigned long long)job, f.looked, f.looked == 1 ? "" : "s");
	if (r) {
		lc_merge_found_free(f.names, f.n);
		*found = NULL;
		return r;
	}
	*found = f.names;
	return f.n;
}

void lc_merge_found_free(char **found, int n)
{
	for (int i = 0; found && i < n; i++)
		free(found[i]);
	free(found);
}
