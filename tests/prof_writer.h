/*
 * prof_writer.h — for the tests that write their own profiles: a new file,
 * one process and its threads declared, the profile read back.  Include it
 * after <cmocka.h> and lc_profile.h.
 */
#ifndef PROF_WRITER_H
#define PROF_WRITER_H

#include <unistd.h>

/* Declare the n threads 0.. of process pid, of thread ids tid0.., to w. */
static inline void lc_test_threads(struct lc_pwriter *w, int32_t pid, uint32_t n, int32_t tid0)
{
	for (uint32_t t = 0; t < n; t++) {
		struct lc_prof_thread th = { .idx = t, .pid = pid, .tid = tid0 + (int32_t)t };

		assert_int_equal(lc_pwriter_thread(w, &th), 0);
	}
}

/* A writer of in on a new file at path (an old one removed first). */
static inline struct lc_pwriter *lc_test_new_writer(const char *path,
						    const struct lc_prof_info *in)
{
	int rc = 0;
	struct lc_pwriter *w;

	unlink(path);
	w = lc_pwriter_open(path, in, &rc);
	assert_non_null(w);
	return w;
}

/* lc_test_new_writer, with the process p and its n threads
 * (lc_test_threads) declared. */
static inline struct lc_pwriter *lc_test_pwriter(const char *path, const struct lc_prof_info *in,
						 const struct lc_prof_process *p, uint32_t n,
						 int32_t tid0)
{
	struct lc_pwriter *w = lc_test_new_writer(path, in);

	assert_int_equal(lc_pwriter_process(w, p), 0);
	lc_test_threads(w, p->pid, n, tid0);
	return w;
}

/* The profile at path, read back, and the file removed; the test fails
 * with the reason when it does not read. */
static inline struct lc_profile *lc_test_read_back(const char *path)
{
	struct lc_profile *pr = NULL;
	char why[256];

	if (lc_profile_read(path, &pr, why, sizeof(why)))
		fail_msg("%s: %s", path, why);
	unlink(path);
	return pr;
}

#endif
