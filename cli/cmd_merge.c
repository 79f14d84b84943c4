/*
 * cmd_merge.c — "lostcycles merge": combine the node files that
 * "lostcycles exec" wrote into one job profile (postproc/merge/merge.c).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_util.h"
#include "merge.h"

static const char *const usage[] = {
	"lostcycles merge [-o FILE] [--force] NODEFILE...",
	"lostcycles merge [-o FILE] [--force] --job ID [NODEFILE|FOLDER...]",
	"",
	"Combine the node files of one MPI job (lostcycles exec -o PREFIX writes",
	"PREFIX.<host>.data on each node) into one job profile: categories summed,",
	"p = all nodes' slots, every rank kept for 'report --per-rank', timelines",
	"aligned by the clock offsets measured at MPI_Init.  With --job, the node",
	"files are those of job ID (Slurm's job id) among the files and folders",
	"given (default: the current folder's *.data files).",
	NULL,
};

/* With --job: the node files of job among the operands (default "."),
 * out left aside, into *files (*owned to free).  The count, or -1 after a
 * message. */
static int job_files(uint64_t job, const char *out, int n, char ***files, char ***owned)
{
	char *here[] = { "." }, msg[512];
	int k = lc_merge_find_job(n ? *files : here, n ? n : 1, job, owned, msg, sizeof(msg));

	if (k < 0) {
		warnx("%s", msg);
		return -1;
	}
	for (int i = 0; i < k; i++)
		if (!strcmp((*owned)[i], out)) {
			free((*owned)[i]);
			(*owned)[i--] = (*owned)[--k];
		}
	if (!k)
		warnx("no node file of job %llu: only the output %s is of it",
		      (unsigned long long)job, out);
	*files = *owned;
	return k ? k : -1;
}

/* Merge the n node files into out (replacing it with force); the exit
 * status. */
static int merge_files(char **files, int n, const char *out, int force, char *msg, size_t len)
{
	struct lc_merge_stats st;

	for (int i = 0; i < n; i++)
		if (!strcmp(files[i], out)) {
			warnx("%s is both a node file and the output", out);
			return 2;
		}
	if (lc_out_prepare(out, force ? LC_OUT_FORCE : lc_opt_given("output", 0) ? LC_OUT_KEEP :
			   LC_OUT_ROTATE, msg, len))
		return lc_cmd_fail(msg);
	if (lc_merge(files, n, out, &st, msg, len))
		return lc_cmd_fail(msg);
	lc_cmd_notes(st.notes);
	fprintf(stderr, "lostcycles merge: %s: %u node file%s, %u rank%s, p = %u", out, st.files,
		st.files == 1 ? "" : "s", st.ranks, st.ranks == 1 ? "" : "s", st.procs);
	if (lc_opt_given("job", 0))
		fprintf(stderr, ", job %llu", (unsigned long long)st.job_id);
	fputc('\n', stderr);
	return 0;
}

int lc_cmd_merge(int argc, char **argv)
{
	const char *out = "job.data";
	char msg[1024], **files, **owned = NULL;
	uint64_t job = 0;
	int force = 0, n, r;
	const struct lc_opt opts[] = {
		LC_OPT_FILENAME("output", 'o', "FILE", "the job profile (default job.data, whose "
				"previous file\nis kept as job.data.old)", &out),
		LC_OPT_FLAG("force", 0, "replace FILE when it exists (else it is refused)", &force),
		LC_OPT_NUMBER("job", 0, "ID", "merge the node files of job ID (Slurm's job id) "
			      "found among\nthe operands, files or folders (default .)", &job, 1,
			      UINT64_MAX),
		LC_OPT_END(),
	};

	n = lc_opt_parse(argc, argv, opts, usage, &files);
	if (n < 0)
		return LC_OPT_EXIT(n);
	if (n == 0 && !job) {
		warnx("no node files given (see 'lostcycles merge --help')");
		return 2;
	}
	if (job && (n = job_files(job, out, n, &files, &owned)) < 0) {
		lc_merge_found_free(owned, 0);
		return 1;
	}
	r = merge_files(files, n, out, force, msg, sizeof(msg));
	lc_merge_found_free(owned, owned ? n : 0);
	return r;
}
