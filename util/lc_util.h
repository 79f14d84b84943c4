/*
 * lc_util.h — small helpers every tool layer may use (the lowest layer of
 * the tool; see docs/architecture.md): number and duration parsing with full
 * error checks, growing arrays, reasons, whole writes.  The clock is
 * lc_clock_ns() of flaglib/lc_abi.h, the one the targets stamp with.
 */
#ifndef LC_UTIL_H
#define LC_UTIL_H

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

/* ns in seconds. */
double lc_sec(uint64_t ns);

/* A duration for people, three significant digits in the largest unit
 * that keeps it at least 1 ("29.6 s", "1.25 ms", "350 us"), or with exact
 * set the form lc_parse_duration reads back to the nanosecond ("2ms",
 * "250us", "1500ns").  Writes it into buf[len] and returns buf. */
const char *lc_fmt_duration(uint64_t ns, int exact, char *buf, size_t len);

/* Parse a duration such as "100us", "2ms", "1.5s", "250ns" or "100" (no unit
 * means microseconds) into nanoseconds.  Returns 0 on success, -EINVAL when the
 * text is not a positive duration, -ERANGE when it does not fit. */
int lc_parse_duration(const char *s, uint64_t *ns);

/* Parse a whole unsigned decimal number in [min, max].  Returns 0 or -EINVAL
 * (not a number, trailing characters) or -ERANGE (outside [min, max]). */
int lc_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Grow the array *p of *cap elements of size sz to hold at least need
 * elements (doubling, zero-filling the new ones).  0, or -ENOMEM with *p
 * and *cap unchanged. */
int lc_grow(void **p, size_t *cap, size_t need, size_t sz);

/* The first of the n elements of size bytes at base (sorted by cmp) that
 * is not below key: cmp(key, elem) < 0 when key is below elem, 0 when
 * equal.  n when every element is below key. */
size_t lc_lower_bound(const void *base, size_t n, size_t size, const void *key,
		      int (*cmp)(const void *key, const void *elem));

/* Free an array of n rows of size bytes: what each row points to through
 * free_row (given the row), then the array.  rows may be NULL. */
void lc_free_rows(void *rows, size_t n, size_t size, void (*free_row)(void *row));

/* Free an array of n rows of size bytes whose one allocation is the
 * pointer at byte offset off of each row (a name): those, then the array.
 * LC_FREE_FIELD(rows, n, field) names the field. */
void lc_free_field(void *rows, size_t n, size_t size, size_t off);
#define LC_FREE_FIELD(rows, n, field) \
	lc_free_field((rows), (n), sizeof(*(rows)), offsetof(__typeof__(*(rows)), field))

/* Free table t (NULL is fine): its t->n rows t->rows through free_row, then
 * t itself.  t is evaluated more than once: give a variable. */
#define LC_FREE_TABLE(t, rows, n, free_row) \
	do { \
		if (t) \
			lc_free_rows((t)->rows, (t)->n, sizeof(*(t)->rows), (free_row)); \
		free(t); \
	} while (0)

/* Format a one-line reason into msg[len] and return err (a -errno), for
 * library functions that explain their refusals.  msg may be NULL (or len
 * 0): only err is returned then.  The one way a library layer gives a
 * reason; modules whose reasons carry more (a line, a column) fill those
 * and pass the text on through lc_vfail. */
int lc_fail(char *msg, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* lc_fail with a va_list. */
int lc_vfail(char *msg, size_t len, int err, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* Where a reader of a text file is, and where its reasons go. */
struct lc_at {
	const char *file;
	int line;
	char *msg;
	size_t len;
};

/* lc_fail's -EINVAL with the reason "FILE:LINE: ..." for the place at: the
 * one error helper of the readers of line-numbered input. */
int lc_fail_at(const struct lc_at *at, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The callback type of a library call's notes: a reason that does not stop
 * the call (the command prints it; NULL drops it). */
typedef void lc_note_fn(void *arg, const char *text);

/* Format a note and hand it to fn(arg, text); nothing when fn is NULL.
 * Notes longer than 600 bytes are cut. */
void lc_note(lc_note_fn *fn, void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append a formatted line (a newline is added) to the text in buf[len],
 * dropping what does not fit.  For lists of notes. */
void lc_append_line(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The next word of the text at *s, which ends at end (NULL: at its NUL):
 * skips white space and any character of seps (NULL: none), returns where
 * the word starts with its length in *len, and moves *s past it.  NULL when
 * no word is left.  For "n p", "li=0, sl*=0.5", "p=1:16; n=64". */
const char *lc_next_word(const char **s, const char *end, const char *seps, size_t *len);

/* Append a copy of str to the string vector *v of *n strings.  0, or
 * -ENOMEM with *v and *n unchanged. */
int lc_strv_push(char ***v, int *n, const char *str);

/* Free a string vector of n strings; accepts NULL. */
void lc_strv_free(char **v, int n);

/* Start a thread running fn(arg) with every signal blocked in it but the
 * faults (SIGBUS, SIGSEGV, SIGFPE, SIGILL, which go to the faulting thread),
 * so that signals reach the thread that waits for them.  Returns 0 or
 * -errno. */
int lc_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/* Stop thread t that waits on cond under lock until *stop is set: set it
 * under lock, wake t, join it, then destroy lock and cond. */
void lc_thread_stop(pthread_t t, pthread_mutex_t *lock, pthread_cond_t *cond, int *stop);

/* The path of data file name (e.g. "models.txt") into buf: the file named
 * by environment variable env when set (NULL: none), else the first
 * readable of share/NAME beside the running program (a build tree),
 * ../share/lostcycles/NAME from it (an installed tree), LC_DATADIR/NAME.
 * Returns 0, or -ENOENT with the last path tried in buf. */
int lc_share_file(const char *name, const char *env, char *buf, size_t len);

/* Read the decimal number a file begins with (a /proc/sys setting) into
 * *v.  Returns 0, -errno when the file cannot be opened, or -EINVAL when
 * it does not begin with a number. */
int lc_read_num(const char *path, long long *v);

/* Read the start of the small text file path (a /proc or tracefs file)
 * into buf[len], NUL-terminated.  Returns 0, -errno when it cannot be
 * opened or read, or -ENODATA when it is empty. */
int lc_read_text(const char *path, char *buf, size_t len);

/* Write all n bytes of p to fd, retrying short writes and EINTR.  Returns
 * 0 or -errno. */
int lc_write_all(int fd, const void *p, size_t n);

/* What lc_out_prepare does with an output file that already exists. */
enum lc_out_mode {
	LC_OUT_KEEP,	/* refuse: -EEXIST ("give --force to replace it") */
	LC_OUT_FORCE,	/* remove the name (a file or a symbolic link, never
			 * what the link points to), then create afresh */
	LC_OUT_ROTATE,	/* rename a file to PATH.old first, as perf does */
};

/* Make path free for a new output file of the tool: nothing there, or what
 * is there handled as how says.  A directory, another user's device or FIFO
 * is never replaced; a FIFO or character device of this user or root (a
 * pipe, /dev/null) is left to be written into as a stream.  Returns 0, or
 * -errno with the reason in msg[len]. */
int lc_out_prepare(const char *path, enum lc_out_mode how, char *msg, size_t len);

/* Create the output file path, which must not exist: O_CREAT|O_EXCL|
 * O_NOFOLLOW, so a name planted since lc_out_prepare (a symbolic link, a
 * file) is refused, never followed or truncated; only a stream as
 * lc_out_prepare leaves (a FIFO or character device of this user or root)
 * is opened as it is.  Returns the descriptor (close-on-exec) or -errno. */
int lc_out_create(const char *path, int mode);

/* The descriptor fd (or -errno, passed through) as a stdio stream of mode;
 * NULL with errno set (fd is then closed). */
FILE *lc_fd_stream(int fd, const char *mode);

/* lc_out_create as a stdio stream for writing; NULL with errno set. */
FILE *lc_out_fopen(const char *path);

/* lc_out_prepare, then lc_out_fopen: the one call for a command's output
 * file.  NULL with the reason in msg[len]. */
FILE *lc_out_open(const char *path, enum lc_out_mode how, char *msg, size_t len);

/* ---- files and processes (lc_sys.c) ---------------------------------------- */

struct rusage;

/* The path of the tool's configuration file name ("memory", "loggp") into
 * buf: the file environment variable env names when set (NULL: none), else
 * $XDG_CONFIG_HOME/lostcycles/NAME, else $HOME/.config/lostcycles/NAME.
 * Returns 0; -ENOENT when neither XDG_CONFIG_HOME nor HOME is set (buf
 * then holds ./.config/lostcycles/NAME); -ENAMETOOLONG. */
int lc_config_path(const char *name, const char *env, char *buf, size_t len);

/* mkdir -p: make path and every folder above it that is missing, with
 * mode.  Returns 0 (also when it exists) or -errno. */
int lc_mkdir_p(const char *path, int mode);

/* Make the directory path (mode) when it is missing, and accept it only
 * when files put there can be read back as written: a directory itself
 * (not a symbolic link), owned by the caller or root, and not writable by
 * its group or everyone unless sticky.  Returns 0, or -errno with a
 * one-line reason (-EPERM: refused). */
int lc_safe_dir(const char *path, int mode, char *msg, size_t len);

/* Replace the file path atomically with what write_fn(f, arg) writes
 * (write_fn returns 0 or -errno): its folder is made (mkdir -p), the text
 * goes to a new file PATH.tmpPID (lc_out_fopen: never through a link),
 * is flushed and synced, then renamed over path.  On failure the
 * temporary is removed and path is as it was.  Returns 0 or -errno. */
int lc_replace_file(const char *path, int (*write_fn)(FILE *f, void *arg), void *arg);

/* Open path for appending, creating it (0644); a symbolic link is refused
 * (O_NOFOLLOW), never followed.  The descriptor (close-on-exec) or -errno. */
int lc_append_open(const char *path);

/* lc_append_open as a stdio stream; NULL with errno set. */
FILE *lc_append_fopen(const char *path);

/* Open path for reading only when it is a regular file of at most max
 * bytes (0: no cap): what analysis opens by a name a profile, a folder or
 * another user gave it.  Nothing else is opened: the name is looked at
 * through an O_PATH descriptor (which opens no device and waits for no
 * FIFO's writer) and the file reopened through it, so a FIFO or device
 * planted at the name, or swapped in between, is never opened or waited
 * for.  Returns the descriptor (O_RDONLY, close-on-exec), or -errno:
 * -EINVAL not a regular file, -EFBIG larger than max; the reason, for the
 * caller to put after the name ("a FIFO, not a regular file: not
 * opened"), in msg[len] when msg is not NULL. */
int lc_open_regular(const char *path, uint64_t max, char *msg, size_t len);

/* How lc_spawn sets up the child.  Zeroed fields change nothing. */
struct lc_spawn_io {
	const char *out;	/* stdout to this file (created or truncated,
				 * never through a link) */
	const char *err;	/* stderr likewise */
	int out_fd;		/* > 0: stdout to this descriptor (a pipe) */
	char *const *env;	/* NAME=VALUE strings added to its environment,
				 * NULL-terminated */
	int die_with_parent;	/* killed (SIGKILL) when this process ends */
	const sigset_t *sigmask; /* the child's signal mask (NULL: this one's) */
	int (*prepare)(void *arg); /* run in the child after the above, before
				    * the exec: 0, or -errno to fail with;
				    * system calls only (no malloc, setenv) */
	void *arg;		/* prepare's argument */
	const sigset_t *stopset; /* blocked signals that, arriving before the
				  * exec, kill the child: -EINTR */
	int *stopsig;		/* where to put that signal */
};

/* Start argv[0] (searched in PATH) with argv, set up as io says (NULL:
 * inherit everything); argv NULL starts a child that only waits to be
 * killed (a target for per-process probes).  Returns the child's pid, or
 * -errno: of fork, or of the exec or redirection in the child (-ENOENT:
 * no such program), which has then been reaped; -EINTR when a signal of
 * io->stopset arrived before the exec.  The environment is built before
 * the fork: the child makes system calls only, as the child of a threaded
 * process must. */
pid_t lc_spawn(char *const argv[], const struct lc_spawn_io *io);

/* lc_wait_status flag: return -EINTR when a signal interrupts the wait
 * (else the wait is resumed). */
#define LC_WAIT_EINTR 0x40000000

/* Wait for child pid (flags: 0, WNOHANG, LC_WAIT_EINTR) and say how it
 * ended, as a shell does: its exit status 0..255, or 128 + the signal
 * that killed it.  -EAGAIN when WNOHANG and it still runs, -EINTR (with
 * LC_WAIT_EINTR), or -errno.  ru (NULL: not wanted) gets its resource
 * use. */
int lc_wait_status(pid_t pid, int flags, struct rusage *ru);

/* Kill child pid (SIGKILL) and reap it; pid <= 0 does nothing. */
void lc_spawn_end(pid_t pid);

#endif
