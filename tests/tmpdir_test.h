/*
 * tmpdir_test.h — a cmocka group's temporary folder and two file names in
 * it: tdir_setup makes them, tdir_teardown removes the folder with what it
 * holds.  Shared by test_profile.c and test_mpi_job.c.
 */
#ifndef TMPDIR_TEST_H
#define TMPDIR_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char tdir[64];		/* the group's folder */
static char path[256], path2[256];	/* tdir/a.data, tdir/b.data */

/* cmocka group setup: make tdir and the names path and path2 in it. */
static int tdir_setup(void **state)
{
	(void)state;
	snprintf(tdir, sizeof(tdir), "/tmp/lc-test.XXXXXX");
	if (!mkdtemp(tdir))
		return -1;
	snprintf(path, sizeof(path), "%s/a.data", tdir);
	snprintf(path2, sizeof(path2), "%s/b.data", tdir);
	return 0;
}

/* Remove the files of the folder d opened on tdir; close d (NULL: none). */
static void tdir_empty(DIR *d)
{
	struct dirent *e;
	char p[400];

	while (d && (e = readdir(d)))
		if (snprintf(p, sizeof(p), "%s/%s", tdir, e->d_name) < (int)sizeof(p))
			unlink(p);	/* "." and "..": EISDIR */
	if (d)
		closedir(d);
}

/* cmocka group teardown: remove the files in tdir, then tdir. */
static int tdir_teardown(void **state)
{
	(void)state;
	tdir_empty(opendir(tdir));
	return rmdir(tdir);
}

#endif
