/*
 * module.c — the modules of place words, looked up off the tick path, and
 * opened only as the target could open them (see module.h).
 */
#include "module.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_elf.h"
#include "lc_util.h"

int32_t lc_module_of_place(uint64_t place)
{
	uint32_t k = LC_PLACE_KIND(place), m;
	int omp = k == LC_PLACE_OMP_REGION || k == LC_PLACE_OMP_WORK;

	if (omp)
		m = (uint32_t)(place >> 40) & 0xffffu;
	else if (k == LC_PLACE_MPI || k == LC_PLACE_SYNC)
		m = LC_PLACE_SITE_MODULE(place);
	else
		return -1;
	if (m == LC_TAG_MODULE_UNKNOWN || (!omp && LC_PLACE_SITE_VADDR(place) == LC_PLACE_NOADDR))
		return -1;
	return (int32_t)m;
}

/* ---- the target's file-system credentials -------------------------------- */

#define CREDS_GROUPS 256

/* Whose permissions an open is checked with. */
struct creds {
	uid_t uid;	/* fsuid */
	gid_t gid;	/* fsgid */
	int n;		/* supplementary groups */
	gid_t g[CREDS_GROUPS];
};

/* The fsuid, fsgid and groups of process pid (/proc/PID/status) into *c;
 * 0 or -errno.  Groups beyond CREDS_GROUPS are left out: fewer rights. */
static int creds_of(int32_t pid, struct creds *c)
{
	char name[64], line[8192];
	unsigned u[4];
	int got = 0;
	FILE *f;

	snprintf(name, sizeof(name), "/proc/%d/status", (int)pid);
	f = fopen(name, "re");
	if (!f)
		return -errno;
	c->n = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %u %u %u %u", &u[0], &u[1], &u[2], &u[3]) == 4)
			c->uid = u[3], got |= 1;
		else if (sscanf(line, "Gid: %u %u %u %u", &u[0], &u[1], &u[2], &u[3]) == 4)
			c->gid = u[3], got |= 2;
		else if (!strncmp(line, "Groups:", 7))
			for (char *p = line + 7, *e; c->n < CREDS_GROUPS; p = e) {
				unsigned long g = strtoul(p, &e, 10);

				if (e == p)
					break;
				c->g[c->n++] = (gid_t)g;
			}
	}
	fclose(f);
	return got == 3 ? 0 : -EINVAL;
}

/* The calling thread's own file-system credentials into *c; 0 or -errno. */
static int creds_own(struct creds *c)
{
	int n = getgroups(CREDS_GROUPS, c->g);

	c->uid = (uid_t)syscall(SYS_setfsuid, (uid_t)-1);	/* -1 changes nothing */
	c->gid = (gid_t)syscall(SYS_setfsgid, (gid_t)-1);
	c->n = n;
	return n < 0 ? -errno : 0;
}

/* Give the calling thread alone (raw system calls: the C library would
 * give every thread the groups) the credentials c.  0; -EPERM when the
 * groups were refused (nothing changed: a sampler that is not root);
 * -EIO when the fsuid or fsgid did not take after the groups did. */
static int creds_put(const struct creds *c)
{
	if (syscall(SYS_setgroups, (size_t)c->n, c->g))
		return -EPERM;
	syscall(SYS_setfsgid, c->gid);
	syscall(SYS_setfsuid, c->uid);
	if ((uid_t)syscall(SYS_setfsuid, (uid_t)-1) != c->uid ||
	    (gid_t)syscall(SYS_setfsgid, (gid_t)-1) != c->gid)
		return -EIO;
	return 0;
}

/* Set once the thread could not take its own credentials back: it opens
 * nothing more. */
static __thread int creds_lost;

/* Open path with flags (openat2's resolve rules when resolve is not 0) as
 * the process of credentials c could: in the calling thread, under them,
 * unless they are the thread's own.  A descriptor, or -errno (-EPERM: the
 * credentials could not be taken). */
static int open_as(const struct creds *c, const char *path, int flags, uint64_t resolve)
{
	struct open_how how = { .flags = (uint64_t)flags, .resolve = resolve };
	struct creds own;
	int fd, e, same;

	if (creds_lost || creds_own(&own))
		return -EPERM;
	same = own.uid == c->uid && own.gid == c->gid;
	if (!same && (e = creds_put(c))) {
		if (e == -EIO)
			creds_lost = creds_put(&own) != 0;
		return -EPERM;
	}
	fd = resolve ? (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how)) : -1;
	if (!resolve || (fd < 0 && errno == ENOSYS))
		fd = open(path, flags);
	e = errno;
	if (!same)
		creds_lost = creds_put(&own) != 0;
	return fd < 0 ? -e : fd;
}

/* ---- one process's modules ------------------------------------------------- */

/* A module being looked up in one process. */
struct look {
	struct lc_prof_module *m;	/* pid and hash set */
	char *path;		/* the first object mapped that hashes to it */
	unsigned long long lo, hi;	/* that mapping */
	unsigned long long start;	/* the mapping of its file offset 0 */
	int based;
};

/* Whether the maps line of object path (lo, hi, offset off) is what l
 * looks for; then note it. */
static void look_line(struct look *l, uint32_t hash, const char *path, unsigned long long lo,
		      unsigned long long hi, unsigned long long off)
{
	if (!l->path) {
		if (l->m->hash != hash || !(l->path = strdup(path)))
			return;
		l->lo = lo;
		l->hi = hi;
	} else if (l->based || strcmp(l->path, path)) {
		return;
	}
	if (!off) {
		l->start = lo;
		l->based = 1;
	}
}

/* One read of /proc/PID/maps for the n modules of l (the main program's
 * path, from /proc/PID/exe, already in its path): each one's mapping, and
 * the start of its file offset 0.  0 or -errno. */
static int maps_scan(int32_t pid, struct look *l, uint32_t n)
{
	uint64_t wanted[65536 / 64] = { 0 };
	char name[64], line[PATH_MAX + 256];
	unsigned long long lo, hi, off;
	FILE *f;
	int at;

	snprintf(name, sizeof(name), "/proc/%d/maps", (int)pid);
	f = fopen(name, "re");
	if (!f)
		return -errno;
	for (uint32_t k = 0; k < n; k++)	/* the main program (0) on every line */
		wanted[l[k].m->hash / 64] |= 1ull << (l[k].m->hash % 64);
	while (fgets(line, sizeof(line), f)) {
		uint32_t h;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &lo, &hi, &off, &at) != 3 ||
		    line[at] != '/')
			continue;
		h = lc_tag_module_hash(line + at);
		if (!(wanted[0] & 1) && !(wanted[h / 64] >> (h % 64) & 1))
			continue;
		for (uint32_t k = 0; k < n; k++)
			look_line(&l[k], h, line + at, lo, hi, off);
	}
	fclose(f);
	return 0;
}

/* The page-aligned link-time address of the ELF file open as fd's first
 * PT_LOAD (the one mapped from file offset 0) into *v: 0 or -EINVAL. */
static int first_load(int fd, uint64_t *v)
{
	Elf *e;
	GElf_Phdr ph;
	size_t n = 0;
	int r = -EINVAL;

	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && !elf_getphdrnum(e, &n))
		for (size_t i = 0; i < n && r; i++)
			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
				*v = (ph.p_vaddr - ph.p_offset) & ~(uint64_t)0xfff;
				r = 0;
			}
	elf_end(e);
	return r;
}

/* The file of module l open as the process of credentials c could open
 * it: the very file it mapped, else (map_files not allowed: a sampler
 * that is not root) its path, never through a symbolic link.  Only a
 * regular file, and neither a FIFO nor a device waited for.  A descriptor
 * or -errno. */
static int module_open(const struct look *l, const struct creds *c)
{
	const int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	char link[96];
	int fd;

	if (!l->m->hash)
		snprintf(link, sizeof(link), "/proc/%d/exe", (int)l->m->pid);
	else
		snprintf(link, sizeof(link), "/proc/%d/map_files/%llx-%llx", (int)l->m->pid, l->lo,
			 l->hi);
	fd = open_as(c, link, flags, 0);
	if (l->m->hash && (fd == -EPERM || fd == -ENOENT))
		fd = open_as(c, l->path, flags | O_NOFOLLOW,
			     RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	return fd;
}

/* Fill size, mtime, build id and bias of l's module from its file, as the
 * process of credentials c could read it.  0 or -errno. */
static int module_stat(const struct look *l, const struct creds *c)
{
	struct lc_prof_module *m = l->m;
	char hex[LC_BUILD_ID_HEX];
	struct stat st;
	uint64_t v = 0;
	int fd = module_open(l, c), r = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > LC_MODULE_SIZE_MAX) {
		r = -EINVAL;
		goto out;
	}
	m->size = (uint64_t)st.st_size;
	m->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
	m->build_id = lc_elf_build_id(fd, hex, sizeof(hex)) ? NULL : strdup(hex);
	if (l->based && !first_load(fd, &v) && l->start >= v) {
		m->bias = l->start - v;
		m->based = 1;
	}
out:
	close(fd);
	return r;
}

/* Look up the n modules l[] of process pid (each one's m pid and hash
 * set; no path yet); the result of each into its found[k] (0 or -errno). */
static void look_up(int32_t pid, struct look *l, uint32_t n, int *found)
{
	char exe[64], path[PATH_MAX];
	struct creds c;
	ssize_t len;
	int r = creds_of(pid, &c);

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	for (uint32_t k = 0; k < n && !r; k++)
		if (!l[k].m->hash) {
			len = readlink(exe, path, sizeof(path) - 1);
			path[len > 0 ? len : 0] = 0;
			l[k].path = len > 0 ? strdup(path) : NULL;
		}
	if (!r)
		r = maps_scan(pid, l, n);
	for (uint32_t k = 0; k < n; k++) {
		found[k] = r ? r : !l[k].path ? -ENOENT : module_stat(&l[k], &c);
		if (!found[k]) {
			l[k].m->path = l[k].path;
			continue;
		}
		free(l[k].path);
		free(l[k].m->build_id);
		l[k].m->build_id = NULL;
	}
}

int lc_module_find(struct lc_prof_module *m)
{
	struct look l = { .m = m };
	int found;

	look_up(m->pid, &l, 1, &found);
	return found;
}

/* ---- the resolver ------------------------------------------------------- */

enum { WAITING, FOUND, NOT_FOUND };

struct ent {
	struct lc_prof_module m;
	int state;		/* WAITING, FOUND, NOT_FOUND */
};

/* Who writes what: the sampling thread writes an entry's m.pid and m.hash
 * and idx[] before it publishes n (release); the resolver (or, without
 * it, lc_modres_write) reads n (acquire), fills the rest of an entry's m
 * and then its state (release), and publishes done under lock with cond;
 * lc_modres_write reads m only of an entry whose state (acquire) is
 * FOUND.  stop: set by lc_modres_free before it wakes and joins. */
struct lc_modres {
	struct ent ent[LC_PLACE_MODULES_MAX];
	uint16_t idx[2 * LC_PLACE_MODULES_MAX];	/* entry + 1 by (pid, hash); 0 free */
	uint32_t n, done;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	sem_t wake;
	pthread_t thread;
	int have_thread, stop;
	/* the resolver's (or lc_modres_write's) work space */
	struct look l[LC_PLACE_MODULES_MAX];
	struct ent *which[LC_PLACE_MODULES_MAX];
	int found[LC_PLACE_MODULES_MAX];
};

/* Look up the entries noted up to n, those of one process together. */
static void resolve_upto(struct lc_modres *r, uint32_t n)
{
	uint32_t k;

	for (uint32_t i = r->done; i < n; i++) {
		int32_t pid = r->ent[i].m.pid;

		if (r->ent[i].state != WAITING)
			continue;
		k = 0;
		for (uint32_t j = i; j < n; j++)
			if (r->ent[j].m.pid == pid && r->ent[j].state == WAITING) {
				r->which[k] = &r->ent[j];
				r->l[k++] = (struct look){ .m = &r->ent[j].m };
			}
		look_up(pid, r->l, k, r->found);
		for (uint32_t j = 0; j < k; j++)
			__atomic_store_n(&r->which[j]->state, r->found[j] ? NOT_FOUND : FOUND,
					 __ATOMIC_RELEASE);
	}
	pthread_mutex_lock(&r->lock);
	r->done = n;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

/* The resolver thread: at ordinary priority wherever the process may run
 * (not on the sampler's CPU alone, whatever thread started it). */
static void *resolver(void *arg)
{
	struct lc_modres *r = arg;
	struct sched_param sp = { 0 };
	cpu_set_t set;

	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	if (!sched_getaffinity(getpid(), sizeof(set), &set))
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	prctl(PR_SET_NAME, "lc-modules", 0, 0, 0);
	for (;;) {
		while (sem_wait(&r->wake) && errno == EINTR)
			;
		if (__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
			break;
		resolve_upto(r, __atomic_load_n(&r->n, __ATOMIC_ACQUIRE));
	}
	return NULL;
}

struct lc_modres *lc_modres_new(void)
{
	struct lc_modres *r = calloc(1, sizeof(*r));
	pthread_condattr_t ca;

	if (!r)
		return NULL;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, &ca);
	pthread_condattr_destroy(&ca);
	sem_init(&r->wake, 0, 0);
	r->have_thread = !lc_thread_start(&r->thread, resolver, r);
	return r;
}

void lc_modres_free(struct lc_modres *r)
{
	if (!r)
		return;
	if (r->have_thread) {
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
		sem_post(&r->wake);
		pthread_join(r->thread, NULL);
	}
	for (uint32_t i = 0; i < r->n; i++) {
		free(r->ent[i].m.path);
		free(r->ent[i].m.build_id);
	}
	sem_destroy(&r->wake);
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

void lc_modres_note(struct lc_modres *r, int32_t pid, uint64_t w)
{
	const uint32_t mask = 2 * LC_PLACE_MODULES_MAX - 1;
	int32_t m = lc_module_of_place(w);
	uint32_t n = r->n, i;

	if (m < 0)
		return;
	i = (uint32_t)(((uint64_t)(uint32_t)pid << 16 | (uint32_t)m) * 0x9e3779b97f4a7c15ull >> 40);
	for (i &= mask; r->idx[i]; i = (i + 1) & mask) {
		const struct lc_prof_module *e = &r->ent[r->idx[i] - 1].m;

		if (e->pid == pid && e->hash == (uint32_t)m)
			return;
	}
	if (n >= LC_PLACE_MODULES_MAX)
		return;
	r->ent[n].m.pid = pid;
	r->ent[n].m.hash = (uint32_t)m;
	r->idx[i] = (uint16_t)(n + 1);
	__atomic_store_n(&r->n, n + 1, __ATOMIC_RELEASE);
	if (r->have_thread)
		sem_post(&r->wake);
}

/* Wait until the resolver has been through the first n entries, or until
 * wait_ns have passed. */
static void wait_done(struct lc_modres *r, uint32_t n, uint64_t wait_ns)
{
	struct timespec ts;
	uint64_t end;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + wait_ns;
	ts = (struct timespec){ .tv_sec = (time_t)(end / 1000000000u),
				.tv_nsec = (long)(end % 1000000000u) };
	pthread_mutex_lock(&r->lock);
	while (r->done < n && pthread_cond_timedwait(&r->cond, &r->lock, &ts) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&r->lock);
}

int lc_modres_write(struct lc_modres *r, struct lc_pwriter *w, uint64_t wait_ns)
{
	uint32_t n = __atomic_load_n(&r->n, __ATOMIC_ACQUIRE);
	int rc = 0;

	if (r->have_thread)
		wait_done(r, n, wait_ns);
	else
		resolve_upto(r, n);
	for (uint32_t i = 0; i < n && !rc; i++)
		if (__atomic_load_n(&r->ent[i].state, __ATOMIC_ACQUIRE) == FOUND)
			rc = lc_pwriter_module(w, &r->ent[i].m);
	return rc;
}
