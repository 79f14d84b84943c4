/*
 * strace.c — the synchronization trace of a trace-mode recording: fragment
 * instances and waits (see lc_strace.h).
 */
#include "lc_strace.h"
#include "lc_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXOPEN 64		/* tags open at once in one process */
#define MAXSLOT 65536u		/* docs/shm-abi.md: at most 65536 slots */

/* A record, decoded. */
struct rec {
	uint64_t t, arg;
	uint32_t op, slot;
	size_t order;		/* position in the file: the sort is stable */
};

/* A field of width n at p, in the machine's byte order (docs/shm-abi.md). */
static uint64_t field(const unsigned char *p, size_t n)
{
	uint64_t v64 = 0;
	uint32_t v32 = 0;
	uint16_t v16 = 0;

	if (n == 8) {
		memcpy(&v64, p, 8);
		return v64;
	}
	if (n == 4) {
		memcpy(&v32, p, 4);
		return v32;
	}
	memcpy(&v16, p, 2);
	return v16;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int inst_cmp(const void *a, const void *b)
{
	const struct lc_strace_inst *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int wait_cmp(const void *a, const void *b)
{
	const struct lc_strace_wait *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* The capacities of t's arrays. */
struct caps {
	size_t inst, wait;
};

static int add_inst(struct lc_strace *t, struct caps *c, int64_t tag, uint64_t b, uint64_t e, int32_t pid)
{
	if (lc_grow((void **)&t->inst, &c->inst, t->ninst + 1, sizeof(*t->inst)))
		return -ENOMEM;
	t->inst[t->ninst++] = (struct lc_strace_inst){ .tag = tag, .begin = b, .end = e, .pid = pid };
	return 0;
}

static int add_wait(struct lc_strace *t, struct caps *c, int32_t pid, uint32_t slot, uint64_t b, uint64_t e)
{
	if (lc_grow((void **)&t->wait, &c->wait, t->nwait + 1, sizeof(*t->wait)))
		return -ENOMEM;
	t->wait[t->nwait++] = (struct lc_strace_wait){ .pid = pid, .slot = slot, .begin = b, .end = e };
	return 0;
}

/* The per-file state of the replay: open tags and waiting threads. */
struct fstate {
	int64_t tag[MAXOPEN];
	uint32_t depth[MAXOPEN];
	uint64_t since[MAXOPEN];
	int nopen;
	uint64_t *wait_since;		/* [MAXSLOT]: 0 when not waiting, else begin + 1 */
};

/* A begin of tag at t, open k of s (k = s->nopen: not open yet). */
static void frag_begin(struct fstate *s, int k, int64_t tag, uint64_t t)
{
	if (k < s->nopen) {
		s->depth[k]++;
	} else if (s->nopen < MAXOPEN) {
		s->tag[k] = tag;
		s->depth[k] = 1;
		s->since[k] = t;
		s->nopen++;
	}
}

/* A fragment begin or end. */
static int tag_op(struct lc_strace *t, struct caps *c, struct fstate *s, const struct rec *r, int32_t pid)
{
	int64_t tag = (int64_t)r->arg;
	int k = 0;

	while (k < s->nopen && s->tag[k] != tag)
		k++;
	if (r->op == LC_STRACE_OP_FRAG_BEGIN) {
		frag_begin(s, k, tag, r->t);
		return 0;
	}
	if (k == s->nopen || --s->depth[k])
		return 0;
	if (add_inst(t, c, tag, s->since[k], r->t, pid))
		return -ENOMEM;
	s->nopen--;
	s->tag[k] = s->tag[s->nopen];
	s->depth[k] = s->depth[s->nopen];
	s->since[k] = s->since[s->nopen];
	return 0;
}

/* Replay record r of process pid: a fragment's begin or end, or a
 * slot's wait beginning (SYNC) or ending (another state, a release). */
static int replay_rec(struct lc_strace *t, struct caps *c, struct fstate *s, const struct rec *r,
		      int32_t pid)
{
	uint64_t *w = r->slot < MAXSLOT ? &s->wait_since[r->slot] : NULL;
	int rc = 0;

	if (r->op == LC_STRACE_OP_FRAG_BEGIN || r->op == LC_STRACE_OP_FRAG_END) {
		rc = tag_op(t, c, s, r, pid);
	} else if (w && r->op == LC_STRACE_OP_STATE && (r->arg & 0xff) == LC_STRACE_ST_SYNC) {
		if (!*w)
			*w = r->t + 1;
	} else if (w && (r->op == LC_STRACE_OP_STATE || r->op == LC_STRACE_OP_RELEASE) && *w) {
		rc = add_wait(t, c, pid, r->slot, *w - 1, r->t);
		*w = 0;
	}
	return rc;
}

/* Replay the sorted records of one process. */
static int replay(struct lc_strace *t, struct caps *c, const struct rec *r, size_t n, int32_t pid)
{
	struct fstate s = { .nopen = 0 };
	uint64_t last = n ? r[n - 1].t : 0;
	int rc = 0;

	if (!(s.wait_since = calloc(MAXSLOT, sizeof(*s.wait_since))))
		return -ENOMEM;
	for (size_t i = 0; i < n && !rc; i++)
		rc = replay_rec(t, c, &s, &r[i], pid);
	for (uint32_t k = 0; k < MAXSLOT && !rc; k++)
		if (s.wait_since[k])
			rc = add_wait(t, c, pid, k, s.wait_since[k] - 1, last);
	for (int k = 0; k < s.nopen && !rc; k++)
		rc = add_inst(t, c, s.tag[k], s.since[k], last, pid);
	free(s.wait_since);
	return rc;
}

/* Check the header of trace file fd (of path): its pid into *pid and its
 * number of records into *n; 0 or -EINVAL with the reason. */
static int read_header(int fd, const char *path, int32_t *pid, size_t *n, char *msg, size_t len)
{
	unsigned char hdr[LC_STRACE_HDR];
	struct stat st;

	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(hdr) || pread(fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    field(hdr, 8) != LC_STRACE_MAGIC)
		return lc_fail(msg, len, -EINVAL, "%s: not a trace file of lostcycles record --trace", path);
	if (field(hdr + 8, 2) != LC_STRACE_MAJOR || field(hdr + 12, 4) != LC_STRACE_REC)
		return lc_fail(msg, len, -EINVAL, "%s: trace ABI %u with %u-byte records; this tool reads %u with %u",
			       path, (unsigned)field(hdr + 8, 2), (unsigned)field(hdr + 12, 4), LC_STRACE_MAJOR,
			       LC_STRACE_REC);
	*pid = (int32_t)field(hdr + 16, 4);
	*n = ((size_t)st.st_size - sizeof(hdr)) / LC_STRACE_REC;
	return 0;
}

/* Decode the n records of buf into r, in file order. */
static void decode(const unsigned char *buf, size_t n, struct rec *r)
{
	for (size_t i = 0; i < n; i++) {
		const unsigned char *p = buf + i * LC_STRACE_REC;

		r[i] = (struct rec){ .t = field(p, 8), .op = (uint32_t)field(p + 8, 2),
				     .slot = (uint32_t)field(p + 12, 4), .arg = field(p + 16, 8), .order = i };
	}
}

/* Read the n records of trace file fd (of path) into *r (free it); 0 or
 * -errno with the reason. */
static int read_records(int fd, const char *path, size_t n, struct rec **r, char *msg, size_t len)
{
	unsigned char *buf = malloc(n * LC_STRACE_REC + 1);
	int rc = 0;

	*r = malloc((n + 1) * sizeof(**r));
	if (!buf || !*r)
		rc = -ENOMEM;
	else if (n && pread(fd, buf, n * LC_STRACE_REC, LC_STRACE_HDR) != (ssize_t)(n * LC_STRACE_REC))
		rc = lc_fail(msg, len, -EIO, "%s: short read", path);
	else
		decode(buf, n, *r);
	free(buf);
	return rc;
}

/* Read one trace file into t. */
static int read_file(const char *path, struct lc_strace *t, struct caps *c, char *msg, size_t len)
{
	struct rec *r = NULL;
	size_t n = 0;
	int32_t pid = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	rc = read_header(fd, path, &pid, &n, msg, len);
	if (!rc)
		rc = read_records(fd, path, n, &r, msg, len);
	close(fd);
	if (!rc) {
		qsort(r, n, sizeof(*r), rec_cmp);
		rc = replay(t, c, r, n, pid);
		t->files++;
	}
	free(r);
	return rc;
}

/* The session of a trace file name "lostcycles-trace.S.PID.NONCE" into
 * buf; -1 when the name is not one. */
static int session_of(const char *name, char *buf, size_t len)
{
	size_t pl = strlen(LC_STRACE_PREFIX);
	const char *nonce, *pid;

	if (strncmp(name, LC_STRACE_PREFIX, pl) || !(nonce = strrchr(name + pl, '.')) || nonce == name + pl)
		return -1;
	for (pid = nonce - 1; pid > name + pl && *pid != '.'; pid--)
		;
	if (pid <= name + pl || (size_t)(pid - (name + pl)) >= len)
		return -1;
	snprintf(buf, len, "%.*s", (int)(pid - (name + pl)), name + pl);
	return 0;
}

/* Read every trace file of the one session in folder dir. */
static int read_dir(const char *dir, struct lc_strace *t, struct caps *c, char *msg, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char session[256] = "", s[256], path[8192];
	int rc = 0;

	if (!d)
		return lc_fail(msg, len, -errno, "%s: %s", dir, strerror(errno));
	while (!rc && (de = readdir(d))) {
		if (session_of(de->d_name, s, sizeof(s)))
			continue;
		if (session[0] && strcmp(s, session)) {
			rc = lc_fail(msg, len, -EINVAL, "%s holds the trace files of two sessions, %s and %s: "
				     "name one file", dir, session, s);
			break;
		}
		snprintf(session, sizeof(session), "%s", s);
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		rc = read_file(path, t, c, msg, len);
	}
	closedir(d);
	if (!rc && !t->files)
		rc = lc_fail(msg, len, -EINVAL, "%s: no trace file (" LC_STRACE_PREFIX "*) in this folder", dir);
	return rc;
}

/* Read a trace.  See lc_strace.h. */
int lc_strace_read(const char *path, struct lc_strace *t, char *msg, size_t len)
{
	struct caps c = { 0, 0 };
	struct stat st;
	int rc;

	memset(t, 0, sizeof(*t));
	if (stat(path, &st))
		return lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	rc = S_ISDIR(st.st_mode) ? read_dir(path, t, &c, msg, len) : read_file(path, t, &c, msg, len);
	if (rc) {
		lc_strace_free(t);
		return rc;
	}
	if (t->ninst)
		qsort(t->inst, t->ninst, sizeof(*t->inst), inst_cmp);
	if (t->nwait)
		qsort(t->wait, t->nwait, sizeof(*t->wait), wait_cmp);
	for (size_t i = 0; i < t->ninst; i++) {
		size_t j = i;

		while (j > 0 && t->inst[j - 1].tag != t->inst[i].tag)
			j--;
		t->inst[i].seq = j > 0 ? t->inst[j - 1].seq + 1 : 1;
	}
	return 0;
}

/* Free a trace.  See lc_strace.h. */
void lc_strace_free(struct lc_strace *t)
{
	free(t->inst);
	free(t->wait);
	memset(t, 0, sizeof(*t));
}
