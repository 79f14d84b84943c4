/*
 * lc_util.h — small helpers every tool layer may use (the lowest layer of
 * the tool; see docs/architecture.md): number and duration parsing with full
 * error checks, growing arrays, reasons, whole writes.  The clock is
 * lc_clock_ns() of flaglib/lc_abi.h, the one the targets stamp with.
 */
#ifndef LC_UTIL_H
#define LC_UTIL_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdio.h>

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

/* The path of data file name (e.g. "models.txt") into buf: the file named
 * by environment variable env when set (NULL: none), else the first
 * readable of share/NAME beside the running program (a build tree),
 * ../share/lostcycles/NAME from it (an installed tree), LC_DATADIR/NAME.
 * Returns 0, or -ENOENT with the last path tried in buf. */
int lc_share_file(const char *name, const char *env, char *buf, size_t len);

/* Write s to out as a JSON string: lc_emit_json_str of lc_emit.h, the
 * one escaping ('"', '\\', control characters; invalid UTF-8 as U+FFFD);
 * NULL writes null. */
void lc_json_str(FILE *out, const char *s);

/* Read the decimal number a file begins with (a /proc/sys setting) into
 * *v.  Returns 0, -errno when the file cannot be opened, or -EINVAL when
 * it does not begin with a number. */
int lc_read_num(const char *path, long long *v);

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

/* lc_out_create as a stdio stream for writing; NULL with errno set. */
FILE *lc_out_fopen(const char *path);

/* lc_out_prepare, then lc_out_fopen: the one call for a command's output
 * file.  NULL with the reason in msg[len]. */
FILE *lc_out_open(const char *path, enum lc_out_mode how, char *msg, size_t len);

#endif
