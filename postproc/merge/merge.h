/*
 * merge.h — combine the node files of one MPI job ("lostcycles exec" writes
 * one per node) into one job profile: categories summed, p the sum of the
 * nodes' p, every process, thread and rank kept, timelines aligned by the
 * clock offsets the MPI layer measured at MPI_Init, each node window placed
 * by time on the first file's window schedule.  Library code: returns
 * 0 or -errno with a reason; prints nothing.  See docs/mpi.md.
 */
#ifndef LC_MERGE_H
#define LC_MERGE_H

#include <stddef.h>
#include <stdint.h>

/* What a merge did. */
struct lc_merge_stats {
	uint32_t files;		/* node files merged */
	uint32_t ranks;		/* rank records in all */
	uint32_t procs;		/* p of the job profile */
	uint64_t job_id;	/* the job's id (Slurm's under exec, else the MPI layer's) */
	char notes[2048];	/* e.g. "x.data is cut after byte 4096: merged what it holds" */
};

/* Merge the n profiles at paths into out.  Refused with the reason: a file
 * that cannot be read, files of different format versions, of different
 * jobs (job ids), without rank records, two files of one host, ranks that
 * disagree on the job's size, repeat or name another file's process (see
 * lc_merge_check), clocks too
 * far apart to align, a node window longer than the job window it would go
 * into (windows coarser than the first file's there).  A cut file is
 * merged with a note. */
/* The checks of lc_merge on profiles already read (names[f] names pr[f] in
 * the reason), all but the format versions: every file has rank records of
 * one job (job id) and one host; every rank agrees on the job's size, lies
 * below it, is in one file once and names one of its own file's
 * processes; the clock offsets put every node's start within range.
 * Returns 0, or -EINVAL / -ENOMEM with a one-line reason naming the file
 * and the rank.  A node file is untrusted input (docs/security.md). */
struct lc_profile;
int lc_merge_check(struct lc_profile *const *pr, const char *const *names, int n, char *msg,
		   size_t len);

int lc_merge(char *const *paths, int n, const char *out, struct lc_merge_stats *st, char *msg,
	     size_t len);

/* Read the node file at path (lc_profile_read_opts with o, which may be
 * NULL) only when it is a regular file: a FIFO or device named on the
 * command line or planted among a folder's *.data files is refused
 * (lc_open_regular), never opened or waited for.  Returns 0, or -errno
 * with the reason in why[len]. */
struct lc_read_opts;
int lc_merge_read(const char *path, const struct lc_read_opts *o, struct lc_profile **pr,
		  char *why, size_t len);

/* The node files of job id job among paths: each a profile, or a folder
 * whose *.data files are all looked at (in name order); profiles that
 * cannot be read (or are not regular files) are passed over.  Returns how many were found, their names
 * in *found (free with lc_merge_found_free), or -ENOENT (none: msg says
 * how many were looked at), -ENOMEM, -errno of a path that cannot be read. */
int lc_merge_find_job(char *const *paths, int n, uint64_t job, char ***found, char *msg,
		      size_t len);
void lc_merge_found_free(char **found, int n);

#endif /* LC_MERGE_H */
