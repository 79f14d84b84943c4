/*
 * job.c — what a message-passing layer tells the sampler: the job identity
 * of the process (rank, size, host, clock offset) in the segment header, and
 * the ideal transfer time of each thread's messages in its slot.  Without a
 * session both return at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_internal.h"

/* The nonzero decimal number in environment variable var, else dflt; the
 * caller's errno is kept. */
static uint64_t env_u64(const char *var, uint64_t dflt)
{
	const char *v = getenv(var);
	int saved = errno, bad;
	char *end;
	unsigned long long n;

	if (!v || *v < '0' || *v > '9')
		return dflt;
	errno = 0;
	n = strtoull(v, &end, 10);
	bad = *end || errno || !n;
	errno = saved;
	return bad ? dflt : (uint64_t)n;
}

LC_API void lc_job(int32_t rank, uint32_t size, uint64_t job_id, int64_t clock_offset_ns,
		   uint32_t flags, const char *host)
{
	struct lc_seg_hdr *h;
	char name[sizeof(h->host)] = "";

	lc_priv_init();
	h = lc_priv_g.hdr;
	if (!h || __atomic_load_n(&h->job_ready, __ATOMIC_RELAXED))
		return;
	if (!host)
		host = getenv(LC_ENV_HOST);
	job_id = env_u64(LC_ENV_JOB_ID, job_id);
	if (host && *host)
		strncpy(name, host, sizeof(name) - 1);
	else if (gethostname(name, sizeof(name) - 1))
		name[0] = 0;
	name[sizeof(name) - 1] = 0;
	memcpy(h->host, name, sizeof(name));
	__atomic_store_n(&h->rank, rank, __ATOMIC_RELAXED);
	__atomic_store_n(&h->job_size, size, __ATOMIC_RELAXED);
	__atomic_store_n(&h->job_flags, flags, __ATOMIC_RELAXED);
	__atomic_store_n(&h->clock_offset_ns, clock_offset_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&h->job_id, job_id, __ATOMIC_RELAXED);
	__atomic_store_n(&h->job_ready, 1, __ATOMIC_RELEASE);
	lc_priv_debug("job: rank %d of %u on %s", (int)rank, size, name);
}

LC_API void lc_comm_ideal(uint64_t ns)
{
	struct lc_thr *t = &lc_priv_thr;
	struct lc_slot *s;

	if (t->state != LC_T_SLOT || !ns)
		return;
	s = t->sp;
	/* only the owner writes xfer_ns: a plain add, published with release */
	__atomic_store_n(&s->xfer_ns,
			 __atomic_load_n(&s->xfer_ns, __ATOMIC_RELAXED) + (uint32_t)ns,
			 __ATOMIC_RELEASE);
}
