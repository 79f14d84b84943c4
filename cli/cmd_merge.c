/*
 * cmd_merge.c — "lostcycles merge": combine the node files that
 * "lostcycles exec" wrote into one job profile (postproc/merge.c).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "lc_cmd.h"
#include "lc_util.h"
#include "merge.h"

static const char usage[] =
	"usage: lostcycles merge [-o FILE] [--force] NODEFILE...\n"
	"Combine the node files of one MPI job (lostcycles exec -o PREFIX writes\n"
	"PREFIX.<host>.data on each node) into one job profile: categories summed,\n"
	"p = all nodes' slots, every rank kept for 'report --per-rank', timelines\n"
	"aligned by the clock offsets measured at MPI_Init.\n\n"
	"  -o, --output=FILE    the job profile (default job.data, whose previous file\n"
	"                       is kept as job.data.old)\n"
	"      --force          replace FILE when it exists (else it is refused)\n"
	"  -h, --help           this text\n";

static const struct option opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int lc_cmd_merge(int argc, char **argv)
{
	struct lc_merge_stats st;
	const char *out = "job.data";
	char msg[1024];
	int c, force = 0, given = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			given = 1;
			break;
		case 'F':
			force = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			warnx("unknown or incomplete option '%s'", argv[optind - 1]);
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		warnx("no node files given");
		fputs(usage, stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++)
		if (!strcmp(argv[i], out)) {
			warnx("%s is both a node file and the output", out);
			return 2;
		}
	if (lc_out_prepare(out, force ? LC_OUT_FORCE : given ? LC_OUT_KEEP : LC_OUT_ROTATE, msg,
			   sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	if (lc_merge(argv + optind, argc - optind, out, &st, msg, sizeof(msg))) {
		warnx("%s", msg);
		return 1;
	}
	for (const char *p = st.notes; *p;) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		warnx("%.*s", n, p);
		p += n + (nl != NULL);
	}
	fprintf(stderr, "lostcycles merge: %s: %u node file%s, %u rank%s, p = %u\n", out, st.files,
		st.files == 1 ? "" : "s", st.ranks, st.ranks == 1 ? "" : "s", st.procs);
	return 0;
}
