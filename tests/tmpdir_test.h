/*
 * tmpdir_test.h — a cmocka group's temporary folder and two file names in
 * it: tdir_setup makes them, tdir_teardown removes the folder with what it
 * holds.  Shared by test_profile.c and test_mpi_job.c.
 */
#ifndef TMPDIR_TEST_H
#define TMPDIR_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lc_test.h"

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

/* cmocka group teardown: remove the files in tdir, then tdir. */
static int tdir_teardown(void **state)
{
	(void)state;
	lc_test_rmdir(tdir);
	return access(tdir, F_OK) ? 0 : -1;
}

#endif
