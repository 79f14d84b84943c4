/*
 * targets.c — the target registry and its discovery thread (see targets.h).
 */
#include "targets.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lc_util.h"

#define SHM_DIR "/dev/shm"
#define POLL_NS 20000000	/* rescan period when nothing is pending */
#define PENDING_POLL_NS 50000	/* rescan period while a segment is unpublished */
#define MAX_POLL 1024

struct lc_registry {
	char session[LC_SESSION_MAX];	/* "" in pid mode */
	pid_t *pids;
	int npids;
	struct cds_list_head list;	/* RCU list of lc_target */
	pthread_mutex_t lock;		/* writers */
	pthread_t thread;
	int running;
	int stop;			/* atomic */
	int inotify;
	uint32_t seen, live, rejected, next_uid;
	int pending;			/* a segment awaits publication */
	struct lc_departure *dep;
	uint32_t ndep, depcap;
	struct lc_departure *bad;	/* rejected segments, not tried again */
	uint32_t nbad, badcap;
};

/* Split an shm name "lostcycles.S.PID.NONCE" into its parts.  Returns 0 or
 * -EINVAL when name is not one of ours. */
static int parse_name(const char *name, char *session, size_t slen, pid_t *pid,
		      uint64_t *nonce)
{
	size_t plen = strlen(LC_SHM_PREFIX);
	const char *dn, *dp, *s = name + plen;
	char *end;
	unsigned long long v;

	if (strncmp(name, LC_SHM_PREFIX, plen))
		return -EINVAL;
	dn = strrchr(s, '.');
	if (!dn || dn == s)
		return -EINVAL;
	for (dp = dn - 1; dp > s && *dp != '.'; dp--)
		;
	if (dp <= s || (size_t)(dp - s) >= slen)
		return -EINVAL;
	errno = 0;
	v = strtoull(dp + 1, &end, 10);
	if (end != dn || errno || v == 0 || v > INT32_MAX)
		return -EINVAL;
	*pid = (pid_t)v;
	if (strlen(dn + 1) != 16)
		return -EINVAL;
	v = strtoull(dn + 1, &end, 16);
	if (*end || errno)
		return -EINVAL;
	*nonce = v;
	memcpy(session, s, (size_t)(dp - s));
	session[dp - s] = '\0';
	return 0;
}

/* Whether the registry wants the segment of session/pid. */
static int wanted(const struct lc_registry *r, const char *session, pid_t pid)
{
	if (!r->pids)
		return !strcmp(session, r->session);
	for (int i = 0; i < r->npids; i++)
		if (r->pids[i] == pid)
			return 1;
	return 0;
}

/* The attached target of (pid, nonce), or of pid alone when nonce is 0. */
static struct lc_target *find(struct lc_registry *r, pid_t pid, uint64_t nonce)
{
	struct lc_target *t;

	cds_list_for_each_entry(t, &r->list, node)
		if (t->pid == pid && (!nonce || t->nonce == nonce))
			return t;
	return NULL;
}

/* Check a mapped header against the ABI and its file.  Returns 0, -EAGAIN
 * when not yet published, or -EINVAL. */
static int validate(const struct lc_seg_hdr *h, size_t len, pid_t pid, uint64_t nonce)
{
	uint64_t magic = __atomic_load_n(&h->magic, __ATOMIC_ACQUIRE);

	if (magic == 0)
		return -EAGAIN;
	if (magic != LC_SEG_MAGIC || h->abi_major != LC_ABI_MAJOR ||
	    h->hdr_size != LC_HDR_SIZE || h->slot_size != sizeof(struct lc_slot) ||
	    h->nslots == 0 || h->nslots > LC_SLOTS_MAX ||
	    h->seg_size != (uint64_t)LC_HDR_SIZE + (uint64_t)h->nslots * sizeof(struct lc_slot) ||
	    h->seg_size > len || h->pid != pid || h->nonce != nonce)
		return -EINVAL;
	return 0;
}

/* Free a detached target after its grace period. */
static void free_target(struct rcu_head *head)
{
	struct lc_target *t = caa_container_of(head, struct lc_target, rcu);

	munmap((void *)t->hdr, t->len);
	if (t->pidfd >= 0)
		close(t->pidfd);
	free(t->cache);
	free(t);
}

/* Remove t from the list (caller holds the lock), record its departure, and
 * unlink its name when its process is gone. */
static void detach(struct lc_registry *r, struct lc_target *t, int unlink_name)
{
	__atomic_store_n(&t->gone, 1, __ATOMIC_RELEASE);
	cds_list_del_rcu(&t->node);
	if (r->ndep == r->depcap) {
		uint32_t cap = r->depcap ? 2 * r->depcap : 16;
		struct lc_departure *d = realloc(r->dep, cap * sizeof(*d));

		if (d) {
			r->dep = d;
			r->depcap = cap;
		}
	}
	if (r->ndep < r->depcap)
		r->dep[r->ndep++] = (struct lc_departure){ t->pid, t->nonce, lc_now_ns() };
	/* the departure is recorded before the count says the target left */
	__atomic_store_n(&r->live, r->live - 1, __ATOMIC_RELEASE);
	if (unlink_name)
		shm_unlink(t->name);
	urcu_memb_call_rcu(&t->rcu, free_target);
}

/* Map and validate the segment name and add it to the list.  Returns 0,
 * -EAGAIN when it should be tried again later, or another -errno when it is
 * rejected for good. */
static int attach(struct lc_registry *r, const char *name, pid_t pid, uint64_t nonce)
{
	struct lc_target *t, *old;
	struct stat st;
	void *map = MAP_FAILED;
	int fd, rc, pidfd = -1;

	fd = shm_open(name, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	rc = -EINVAL;
	if (fstat(fd, &st) ||
	    st.st_size > (off_t)(LC_HDR_SIZE + (uint64_t)LC_SLOTS_MAX * sizeof(struct lc_slot)))
		goto out;
	if (st.st_size < (off_t)LC_HDR_SIZE) {
		rc = -EAGAIN;	/* created but not yet sized: look again soon */
		goto out;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		rc = -errno;
		goto out;
	}
	rc = validate(map, (size_t)st.st_size, pid, nonce);
	if (rc)
		goto out;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		rc = -ESRCH;	/* the process is gone: its segment is stale */
		shm_unlink(name);
		goto out;
	}
	t = calloc(1, sizeof(*t));
	if (t)
		t->cache = calloc(((const struct lc_seg_hdr *)map)->nslots, sizeof(*t->cache));
	if (!t || !t->cache) {
		if (t)
			free(t);
		rc = -ENOMEM;
		goto out;
	}
	t->hdr = map;
	t->len = (size_t)st.st_size;
	t->nslots = t->hdr->nslots;
	t->pid = pid;
	t->nonce = nonce;
	t->start_ns = t->hdr->start_ns;
	t->pidfd = pidfd;
	t->uid = r->next_uid++;
	memcpy(t->comm, t->hdr->comm, sizeof(t->comm));
	t->comm[sizeof(t->comm) - 1] = '\0';
	snprintf(t->name, sizeof(t->name), "%s", name);
	for (uint32_t i = 0; i < t->nslots; i++)
		t->cache[i].thread = -1;
	/* the newest image of a pid wins: exec replaced the older one */
	old = find(r, pid, 0);
	if (old && old->start_ns > t->start_ns) {
		free_target(&t->rcu);
		close(fd);
		shm_unlink(name);
		return -ESTALE;
	}
	if (old)
		detach(r, old, 1);
	cds_list_add_tail_rcu(&t->node, &r->list);
	__atomic_store_n(&r->seen, r->seen + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&r->live, r->live + 1, __ATOMIC_RELEASE);
	close(fd);
	return 0;
out:
	if (rc == -EAGAIN && kill(pid, 0) && errno == ESRCH) {
		rc = -ESRCH;	/* died before publishing: the name is stale */
		shm_unlink(name);
	}
	if (map != MAP_FAILED)
		munmap(map, (size_t)st.st_size);
	if (pidfd >= 0)
		close(pidfd);
	close(fd);
	return rc;
}

/* Whether (pid, nonce) was rejected before. */
static int was_rejected(const struct lc_registry *r, pid_t pid, uint64_t nonce)
{
	for (uint32_t i = 0; i < r->nbad; i++)
		if (r->bad[i].pid == pid && r->bad[i].nonce == nonce)
			return 1;
	return 0;
}

/* Remember that (pid, nonce) is invalid. */
static void reject(struct lc_registry *r, pid_t pid, uint64_t nonce)
{
	r->rejected++;
	if (r->nbad == r->badcap) {
		uint32_t cap = r->badcap ? 2 * r->badcap : 16;
		struct lc_departure *b = realloc(r->bad, cap * sizeof(*b));

		if (!b)
			return;
		r->bad = b;
		r->badcap = cap;
	}
	r->bad[r->nbad++] = (struct lc_departure){ pid, nonce, 0 };
}

/* Look for new segments in /dev/shm and attach the wanted ones. */
static void scan(struct lc_registry *r)
{
	char session[LC_SESSION_MAX];
	struct dirent *e;
	uint64_t nonce;
	pid_t pid;
	DIR *d = opendir(SHM_DIR);

	r->pending = 0;
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (parse_name(e->d_name, session, sizeof(session), &pid, &nonce) ||
		    !wanted(r, session, pid))
			continue;
		pthread_mutex_lock(&r->lock);
		if (!find(r, pid, nonce) && !was_rejected(r, pid, nonce)) {
			int rc = attach(r, e->d_name, pid, nonce);

			if (rc == -EAGAIN)
				r->pending = 1;
			else if (rc == -EINVAL)
				reject(r, pid, nonce);
		}
		pthread_mutex_unlock(&r->lock);
	}
	closedir(d);
}

/* Wait for inotify or a process exit; detach the targets whose process has
 * exited. */
static void wait_events(struct lc_registry *r)
{
	struct pollfd pfd[MAX_POLL];
	struct lc_target *who[MAX_POLL];
	struct lc_target *t;
	nfds_t n = 0;
	char buf[4096];

	pfd[n++] = (struct pollfd){ .fd = r->inotify, .events = POLLIN };
	pthread_mutex_lock(&r->lock);
	cds_list_for_each_entry(t, &r->list, node) {
		if (n == MAX_POLL)
			break;
		who[n] = t;
		pfd[n++] = (struct pollfd){ .fd = t->pidfd, .events = POLLIN };
	}
	pthread_mutex_unlock(&r->lock);
	struct timespec ts = { 0, r->pending ? PENDING_POLL_NS : POLL_NS };

	if (ppoll(pfd, n, &ts, NULL) <= 0)
		return;
	if (r->inotify >= 0 && (pfd[0].revents & POLLIN))
		while (read(r->inotify, buf, sizeof(buf)) > 0)
			;
	pthread_mutex_lock(&r->lock);
	for (nfds_t i = 1; i < n; i++)
		if (pfd[i].revents)
			detach(r, who[i], 1);
	pthread_mutex_unlock(&r->lock);
}

/* The discovery thread. */
static void *discover(void *arg)
{
	struct lc_registry *r = arg;
	struct sched_param sp = { .sched_priority = 1 };

	/* a new target is missed until found: find it as soon as it appears */
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	urcu_memb_register_thread();
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		scan(r);
		wait_events(r);
	}
	urcu_memb_unregister_thread();
	return NULL;
}

struct lc_registry *lc_registry_start(const char *session, const pid_t *pids, int npids,
				      int *err)
{
	struct lc_registry *r = calloc(1, sizeof(*r));
	sigset_t all, old;
	int rc;

	if (!r) {
		*err = -ENOMEM;
		return NULL;
	}
	CDS_INIT_LIST_HEAD(&r->list);
	pthread_mutex_init(&r->lock, NULL);
	if (session)
		snprintf(r->session, sizeof(r->session), "%s", session);
	if (pids && npids > 0) {
		r->pids = malloc((size_t)npids * sizeof(*pids));
		if (!r->pids) {
			free(r);
			*err = -ENOMEM;
			return NULL;
		}
		memcpy(r->pids, pids, (size_t)npids * sizeof(*pids));
		r->npids = npids;
	}
	r->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (r->inotify >= 0)
		inotify_add_watch(r->inotify, SHM_DIR, IN_CREATE | IN_MOVED_TO);
	scan(r);		/* what is already there is attached before t0 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&r->thread, NULL, discover, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		*err = -rc;
		lc_registry_stop(r);
		lc_registry_free(r);
		return NULL;
	}
	r->running = 1;
	return r;
}

void lc_registry_stop(struct lc_registry *r)
{
	struct lc_target *t, *tmp;

	if (!r)
		return;
	if (r->running) {
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
		pthread_join(r->thread, NULL);
		r->running = 0;
		scan(r);	/* late arrivals, so that stale names get removed */
	}
	pthread_mutex_lock(&r->lock);
	cds_list_for_each_entry_safe(t, tmp, &r->list, node)
		detach(r, t, kill(t->pid, 0) && errno == ESRCH);
	pthread_mutex_unlock(&r->lock);
	urcu_memb_barrier();
}

void lc_registry_free(struct lc_registry *r)
{
	if (!r)
		return;
	if (r->inotify >= 0)
		close(r->inotify);
	pthread_mutex_destroy(&r->lock);
	free(r->dep);
	free(r->bad);
	free(r->pids);
	free(r);
}

struct cds_list_head *lc_registry_list(struct lc_registry *r)
{
	return &r->list;
}

uint32_t lc_registry_seen(struct lc_registry *r)
{
	return __atomic_load_n(&r->seen, __ATOMIC_RELAXED);
}

uint32_t lc_registry_live(struct lc_registry *r)
{
	return __atomic_load_n(&r->live, __ATOMIC_ACQUIRE);
}

const struct lc_departure *lc_registry_departures(struct lc_registry *r, uint32_t *n)
{
	*n = r->ndep;
	return r->dep;
}

uint32_t lc_registry_rejected(struct lc_registry *r)
{
	return r->rejected;
}
