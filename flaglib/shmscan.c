/*
 * shmscan.c — what a new process finds in /dev/shm when it sets up its
 * session: the segment its own previous image made before exec() (a launch
 * script exec'd into the program), which it takes over so that the process
 * stays one process of the profile with one main thread; and names left by
 * processes that are gone (killed, or _exit without the destructor), which
 * it removes.  Only names of the form lostcycles.SESSION.PID.NONCE are
 * looked at; the files are untrusted (every size is checked).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_internal.h"

#define SHM_DIR "/dev/shm"

/* Parse the PID and NONCE of a segment name NAME (without the leading "/")
 * of any session.  Returns 0, or -1 when it is not a segment name. */
static int name_parse(const char *name, int *pid, uint64_t *nonce, size_t *session_end)
{
	const char *dot2 = strrchr(name, '.'), *dot1;
	char *end;
	long v;

	if (strncmp(name, LC_SHM_PREFIX, strlen(LC_SHM_PREFIX)) || !dot2 || dot2 == name)
		return -1;
	for (dot1 = dot2 - 1; dot1 > name && *dot1 != '.'; dot1--)
		;
	if (dot1 <= name + strlen(LC_SHM_PREFIX))
		return -1;
	errno = 0;
	v = strtol(dot1 + 1, &end, 10);
	if (errno || end != dot2 || v <= 0 || v > INT32_MAX)
		return -1;
	*nonce = strtoull(dot2 + 1, &end, 16);
	if (*end || end - dot2 != 17)
		return -1;
	*pid = (int)v;
	*session_end = (size_t)(dot1 - name);
	return 0;
}

/* Map the segment at name if it is this process's own (its previous
 * image's: same pid, same process start time, this library's layout).
 * Returns the mapping or NULL. */
static struct lc_seg_hdr *own_map(const char *name, uint64_t start, uint64_t *size)
{
	struct lc_seg_hdr *h = MAP_FAILED;
	struct stat st;
	int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_uid == geteuid() && st.st_size >= (off_t)LC_HDR_SIZE)
		h = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (h == MAP_FAILED)
		return NULL;
	if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != LC_SEG_MAGIC ||
	    h->abi_major != LC_ABI_MAJOR || h->hdr_size != LC_HDR_SIZE ||
	    h->slot_size != sizeof(struct lc_slot) || h->pid != (int32_t)getpid() ||
	    !start || h->proc_start != start || h->nslots == 0 || h->nslots > LC_SLOTS_MAX ||
	    h->seg_size != lc_seg_size_of(h->flags & (LC_SEG_PLACES | LC_SEG_STAMPS), h->nslots) ||
	    h->seg_size != (uint64_t)st.st_size || (h->flags & LC_SEG_TRACE)) {
		munmap(h, (size_t)st.st_size);
		return NULL;
	}
	*size = (uint64_t)st.st_size;
	return h;
}

/* The process-wide predicates and the tag table of h, emptied. */
static void reset_process_wide(struct lc_seg_hdr *h)
{
	uint32_t s;

	__atomic_store_n(&h->work_exists, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->solution_found, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->team, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->job_ready, 0, __ATOMIC_RELAXED);
	s = __atomic_load_n(&h->tag_seq, __ATOMIC_RELAXED) | 1u;
	__atomic_store_n(&h->tag_seq, s, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&h->ntags, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->tag_seq, s + 1, __ATOMIC_RELEASE);
}

/* Empty every owned slot of h; the first one of thread tid stays its own
 * (adopt_slot), the others are freed. */
static void reset_slots(struct lc_seg_hdr *h, uint32_t tid)
{
	lc_priv_g.adopt_slot = LC_NO_SLOT;
	for (uint32_t i = 0; i < h->nslots; i++) {
		struct lc_slot *sl = lc_seg_slot(h, i);
		uint32_t owner = __atomic_load_n(&sl->tid, __ATOMIC_RELAXED);

		if (!owner)
			continue;
		__atomic_store_n(&sl->state, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sl->flags, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sl->task, 0, __ATOMIC_RELAXED);
		if (h->flags & LC_SEG_PLACES)	/* the old image's places (ABI 1.4) */
			__atomic_store_n(&lc_seg_places(h)[i], 0, __ATOMIC_RELAXED);
		if (h->flags & LC_SEG_STAMPS)	/* and stamps (1.5) */
			__atomic_store_n(&lc_seg_stamps(h)[i].head, 0, __ATOMIC_RELAXED);
		if (owner == tid && lc_priv_g.adopt_slot == LC_NO_SLOT)
			lc_priv_g.adopt_slot = i;
		else
			__atomic_store_n(&sl->tid, 0, __ATOMIC_RELEASE);
	}
}

/* The new image starts afresh: no work, no team, no tags, no job, and the
 * slots of the old image's threads (gone with exec) free; the main
 * thread's slot stays claimed for it (lc_priv_g.adopt_slot). */
static void own_reset(struct lc_seg_hdr *h)
{
	reset_process_wide(h);
	reset_slots(h, (uint32_t)gettid());
}

size_t lc_priv_read_stat(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return (size_t)n;
}

/* 1 if process pid has exited and waits to be reaped (a zombie). */
static int zombie(int pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (!lc_priv_read_stat(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'Z';
}

/* Remove name when its process is gone (ESRCH, or a zombie: never on
 * another error). */
static void reap(const char *name, int pid)
{
	if (pid != (int)getpid() && ((kill(pid, 0) && errno == ESRCH) || zombie(pid))) {
		lc_priv_debug("removing %s: its process %d is gone", name, pid);
		shm_unlink(name);
	}
}

/* Whether segment name d_name (its session ending at send) is of this
 * process's session, for a takeover (never in trace mode). */
static int own_session(const char *d_name, size_t send)
{
	size_t slen = strlen(lc_priv_g.session), pl = strlen(LC_SHM_PREFIX);

	return !lc_priv_g.trace && send == pl + slen &&
	       !strncmp(d_name + pl, lc_priv_g.session, slen);
}

/* Take over segment name of this process's image before exec; 1 when
 * it is now this process's segment, else 0. */
static int take_over(const char *name, uint64_t start)
{
	uint64_t size;

	lc_priv_g.hdr = own_map(name, start, &size);
	if (!lc_priv_g.hdr)
		return 0;
	snprintf(lc_priv_g.shm_name, sizeof(lc_priv_g.shm_name), "%s", name);
	lc_priv_g.seg_size = size;
	lc_priv_g.nslots = lc_priv_g.hdr->nslots;
	own_reset(lc_priv_g.hdr);
	lc_priv_debug("segment %s: taken over from this process's image before exec", name);
	return 1;
}

int lc_priv_shm_scan(uint64_t start)
{
	DIR *d = opendir(SHM_DIR);
	struct dirent *e;
	uint64_t nonce;
	size_t send;
	int pid, found = 0;
	char name[sizeof(lc_priv_g.shm_name)];

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (name_parse(e->d_name, &pid, &nonce, &send) ||
		    strlen(e->d_name) + 2 > sizeof(name))
			continue;
		snprintf(name, sizeof(name), "/%s", e->d_name);
		if (pid != (int)getpid())
			reap(name, pid);
		else if (!found && own_session(e->d_name, send))
			found = take_over(name, start);
	}
	closedir(d);
	return found;
}
