/*
 * cmd_merge.c — "lostcycles merge": combine the node files that
 * "lostcycles exec" wrote into one job profile (postproc/merge.c).
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "lc_cmd.h"
#include "lc_opt.h"
#include "lc_util.h"
#include "merge.h"

static const char *const usage[] = {
	"lostcycles merge [-o FILE] [--force] NODEFILE...",
	"",
	"Combine the node files of one MPI job (lostcycles exec -o PREFIX writes",
	"PREFIX.<host>.data on each node) into one job profile: categories summed,",
	"p = all nodes' slots, every rank kept for 'report --per-rank', timelines",
	"aligned by the clock offsets measured at MPI_Init.",
	NULL,
};

/* Print each line of notes as a warning. */
static void print_notes(const char *notes)
{
	for (const char *p = notes; *p;) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		warnx("%.*s", n, p);
		p += n + (nl != NULL);
	}
}

int lc_cmd_merge(int argc, char **argv)
{
	struct lc_merge_stats st;
	const char *out = "job.data";
	char msg[1024], **files;
	int force = 0, n;
	const struct lc_opt opts[] = {
		LC_OPT_FILENAME("output", 'o', "FILE", "the job profile (default job.data, whose "
				"previous file\nis kept as job.data.old)", &out),
		LC_OPT_FLAG("force", 0, "replace FILE when it exists (else it is refused)", &force),
		LC_OPT_END(),
	};

	n = lc_opt_parse(argc, argv, opts, usage, &files);
	if (n < 0)
		return LC_OPT_EXIT(n);
	if (n == 0) {
		warnx("no node files given (see 'lostcycles merge --help')");
		return 2;
	}
	for (int i = 0; i < n; i++)
		if (!strcmp(files[i], out)) {
			warnx("%s is both a node file and the output", out);
			return 2;
		}
	if (lc_out_prepare(out, force ? LC_OUT_FORCE : lc_opt_given("output", 0) ? LC_OUT_KEEP :
			   LC_OUT_ROTATE, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	if (lc_merge(files, n, out, &st, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	print_notes(st.notes);
	fprintf(stderr, "lostcycles merge: %s: %u node file%s, %u rank%s, p = %u\n", out, st.files,
		st.files == 1 ? "" : "s", st.ranks, st.ranks == 1 ? "" : "s", st.procs);
	return 0;
}
