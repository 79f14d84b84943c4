/*
 * session_test.h — start a fresh liblostcycles session inside a cmocka test,
 * and the temporary folder its traces go to, shared by test_flags.c and
 * test_auto.c.
 */
#ifndef SESSION_TEST_H
#define SESSION_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "lc_internal.h"

static char lc_test_dir[64];	/* the group's folder for trace files */

/* cmocka group setup: make lc_test_dir. */
static inline int lc_test_tmpdir_setup(void **state)
{
	(void)state;
	snprintf(lc_test_dir, sizeof(lc_test_dir), "/tmp/lc-test-session.XXXXXX");
	return mkdtemp(lc_test_dir) ? 0 : -1;
}

/* Start a session named PREFIX<pid>-<n> (n counts up per call).  slots and
 * trace set their variables or, when NULL, unset them; a trace is written
 * under dir.  The segment must then exist. */
static inline void lc_test_session(const char *prefix, const char *slots, const char *trace,
				   const char *dir)
{
	static int n;
	char name[64];

	snprintf(name, sizeof(name), "%s%d-%d", prefix, (int)getpid(), n++);
	setenv(LC_ENV_SESSION, name, 1);
	if (slots)
		setenv(LC_ENV_SLOTS, slots, 1);
	else
		unsetenv(LC_ENV_SLOTS);
	if (trace) {
		setenv(LC_ENV_TRACE, trace, 1);
		setenv(LC_ENV_TRACE_DIR, dir, 1);
	} else {
		unsetenv(LC_ENV_TRACE);
	}
	assert_int_equal(lc_priv_reinit_for_tests(), 0);
	assert_non_null(lc_priv_segment());
}

#endif
