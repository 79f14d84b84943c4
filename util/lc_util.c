/*
 * lc_util.c — parsing, growing arrays, reasons, whole writes, output files.
 */
#include "lc_util.h"
#include "lc_emit.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The units a duration may carry, longest suffix first within a prefix. */
static const struct {
	const char *suffix;
	double ns;
} units[] = {
	{ "ns", 1.0 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e3 },
};

/* v in the unit suffix names (no suffix: microseconds) as whole ns into
 * *ns; 0, -ERANGE, or -EINVAL (an unknown unit, under 1 ns). */
static int scaled(double v, const char *suffix, uint64_t *ns)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(suffix, units[i].suffix) != 0)
			continue;
		v *= units[i].ns;
		if (v >= 1.8e19)
			return -ERANGE;
		if (v < 1)
			return -EINVAL;
		*ns = (uint64_t)v;
		return 0;
	}
	return -EINVAL;
}

int lc_parse_duration(const char *s, uint64_t *ns)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v <= 0)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	return scaled(v, end, ns);
}

int lc_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

size_t lc_lower_bound(const void *base, size_t n, size_t size, const void *key,
		      int (*cmp)(const void *key, const void *elem))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(key, (const char *)base + mid * size) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int lc_grow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t c = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	if (sz && c > SIZE_MAX / sz)
		return -ENOMEM;
	q = realloc(*p, c * sz);
	if (!q)
		return -ENOMEM;
	memset((char *)q + *cap * sz, 0, (c - *cap) * sz);
	*p = q;
	*cap = c;
	return 0;
}

void lc_free_rows(void *rows, size_t n, size_t size, void (*free_row)(void *row))
{
	for (size_t i = 0; rows && i < n; i++)
		free_row((char *)rows + i * size);
	free(rows);
}

void lc_free_field(void *rows, size_t n, size_t size, size_t off)
{
	for (size_t i = 0; rows && i < n; i++) {
		void *p;

		memcpy(&p, (char *)rows + i * size + off, sizeof(p));
		free(p);
	}
	free(rows);
}

int lc_vfail(char *msg, size_t len, int err, const char *fmt, va_list ap)
{
	if (msg && len) {
		vsnprintf(msg, len, fmt, ap);
		lc_emit_text_fix(msg, 1);	/* a reason may quote any input */
	}
	return err;
}

int lc_fail(char *msg, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lc_vfail(msg, len, err, fmt, ap);
	va_end(ap);
	return err;
}

int lc_fail_at(const struct lc_at *at, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return lc_fail(at->msg, at->len, -EINVAL, "%s:%d: %s", at->file, at->line, text);
}

void lc_note(lc_note_fn *fn, void *arg, const char *fmt, ...)
{
	char text[600];
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fn(arg, text);
}

void lc_append_line(char *buf, size_t len, const char *fmt, ...)
{
	size_t at = strnlen(buf, len);
	va_list ap;

	if (at + 2 > len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + at, len - at - 1, fmt, ap);	/* room for the newline */
	va_end(ap);
	at += strlen(buf + at);
	buf[at++] = '\n';
	buf[at] = '\0';
}

int lc_read_num(const char *path, long long *v)
{
	FILE *f = fopen(path, "re");
	int r;

	if (!f)
		return -errno;
	r = fscanf(f, "%lld", v) == 1 ? 0 : -EINVAL;
	fclose(f);
	return r;
}

int lc_read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = len > 1 ? read(fd, buf, len - 1) : 0;
	if (n < 0)
		n = -errno;
	close(fd);
	if (n <= 0)
		return n < 0 ? (int)n : -ENODATA;
	buf[n] = 0;
	return 0;
}

int lc_write_all(int fd, const void *p, size_t n)
{
	const char *b = p;

	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

int lc_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	/* faults are delivered to the thread that caused them, and the kernel
	 * kills the process for a blocked one: leave them to their handlers */
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -rc;
}

void lc_thread_stop(pthread_t t, pthread_mutex_t *lock, pthread_cond_t *cond, int *stop)
{
	pthread_mutex_lock(lock);
	*stop = 1;
	pthread_cond_broadcast(cond);
	pthread_mutex_unlock(lock);
	pthread_join(t, NULL);
	pthread_mutex_destroy(lock);
	pthread_cond_destroy(cond);
}

/* True when c ends a word: white space or one of seps. */
static int word_end(char c, const char *seps)
{
	return isspace((unsigned char)c) || (seps && c && strchr(seps, c));
}

const char *lc_next_word(const char **s, const char *end, const char *seps, size_t *len)
{
	const char *p = *s, *w;

	while ((end ? p < end : *p) && word_end(*p, seps))
		p++;
	if (end ? p >= end : !*p) {
		*s = p;
		return NULL;
	}
	w = p;
	while ((end ? p < end : *p) && !word_end(*p, seps))
		p++;
	*len = (size_t)(p - w);
	*s = p;
	return w;
}

int lc_strv_push(char ***v, int *n, const char *str)
{
	char *copy = strdup(str);
	char **nv;

	if (!copy)
		return -ENOMEM;
	nv = realloc(*v, ((size_t)*n + 1) * sizeof(*nv));
	if (!nv) {
		free(copy);
		return -ENOMEM;
	}
	nv[(*n)++] = copy;
	*v = nv;
	return 0;
}

void lc_strv_free(char **v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

#ifndef LC_DATADIR
#define LC_DATADIR "/usr/local/share/lostcycles"
#endif

/* Data file name beside this program (share/ of a build tree, or
 * ../share/lostcycles of an installed one) into buf; 0, or -ENOENT when
 * it is in neither. */
static int share_beside_exe(const char *name, char *buf, size_t len)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(buf, len, "%s/share/%s", exe, name);
	if (!access(buf, R_OK))
		return 0;
	snprintf(buf, len, "%s/../share/lostcycles/%s", exe, name);
	return access(buf, R_OK) ? -ENOENT : 0;
}

int lc_share_file(const char *name, const char *env, char *buf, size_t len)
{
	const char *e = env ? getenv(env) : NULL;

	if (e && *e) {
		snprintf(buf, len, "%s", e);
		return access(buf, R_OK) ? -ENOENT : 0;
	}
	if (!share_beside_exe(name, buf, len))
		return 0;
	snprintf(buf, len, "%s/%s", LC_DATADIR, name);
	return access(buf, R_OK) ? -ENOENT : 0;
}

double lc_sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

const char *lc_fmt_duration(uint64_t ns, int exact, char *buf, size_t len)
{
	if (exact && ns % 1000000000u == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000u));
	else if (exact && ns % 1000000u == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000u));
	else if (exact && ns % 1000u == 0)
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000u));
	else if (exact)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns >= 1000000000u)
		snprintf(buf, len, "%.3g s", (double)ns / 1e9);
	else if (ns >= 1000000u)
		snprintf(buf, len, "%.3g ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3g us", (double)ns / 1e3);
	return buf;
}

/* PATH.old for rotation into buf; -ENAMETOOLONG when it does not fit. */
static int old_name(const char *path, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s.old", path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Whether st is a stream an output may be written into as it is: a FIFO or
 * a character device (/dev/null, a terminal) of this user or of root.
 * Nothing there can be truncated; another user's FIFO is not trusted. */
static int is_stream(const struct stat *st)
{
	return (S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode)) &&
	       (st->st_uid == geteuid() || st->st_uid == 0);
}

/* Whether st, the name path, belongs to another user than this process's
 * in a sticky directory (/tmp): such a name is never replaced, not even by
 * root, whom the kernel would let remove it. */
static int others_in_sticky(const char *path, const struct stat *st)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat ds;

	if (st->st_uid == geteuid())
		return 0;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return !stat(dir, &ds) && (ds.st_mode & S_ISVTX);
}

/* Move path to PATH.old; 0 or -errno with the reason. */
static int rotate(const char *path, char *msg, size_t len)
{
	char old[4200];
	int r = old_name(path, old, sizeof(old));

	if (r)
		return lc_fail(msg, len, r, "%s: name too long", path);
	if (rename(path, old))
		return lc_fail(msg, len, -errno, "cannot move %s to %s: %s", path, old,
			       strerror(errno));
	return 0;
}

int lc_out_prepare(const char *path, enum lc_out_mode how, char *msg, size_t len)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return lc_fail(msg, len, -EISDIR, "%s is a directory", path);
	if (is_stream(&st))
		return 0;
	if (!S_ISREG(st.st_mode) && !(S_ISLNK(st.st_mode) && how == LC_OUT_FORCE))
		return lc_fail(msg, len, -EEXIST, "%s exists and is not a regular file; "
			       "not replaced", path);
	if (how == LC_OUT_KEEP)
		return lc_fail(msg, len, -EEXIST, "%s exists (give --force to replace it)", path);
	if (others_in_sticky(path, &st))
		return lc_fail(msg, len, -EPERM, "%s belongs to uid %u in a sticky directory: not "
			       "replaced (choose another name)", path, (unsigned)st.st_uid);
	if (how == LC_OUT_ROTATE)
		return rotate(path, msg, len);
	if (unlink(path) && errno != ENOENT)
		return lc_fail(msg, len, -errno, "cannot replace %s: %s", path, strerror(errno));
	return 0;
}

int lc_out_create(const char *path, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	struct stat st;

	if (fd >= 0 || errno != EEXIST)
		return fd < 0 ? -errno : fd;
	/* an existing stream of ours: opened as it is, checked once open */
	if (lstat(path, &st) || !is_stream(&st))
		return -EEXIST;
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !is_stream(&st)) {
		close(fd);
		return -EEXIST;
	}
	return fd;
}

FILE *lc_fd_stream(int fd, const char *mode)
{
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, mode);
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

FILE *lc_out_fopen(const char *path)
{
	return lc_fd_stream(lc_out_create(path, 0644), "w");
}

FILE *lc_out_open(const char *path, enum lc_out_mode how, char *msg, size_t len)
{
	FILE *f;

	if (lc_out_prepare(path, how, msg, len))
		return NULL;
	f = lc_out_fopen(path);
	if (!f)
		lc_fail(msg, len, -errno, "%s: %s", path, strerror(errno));
	return f;
}
