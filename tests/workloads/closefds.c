/*
 * closefds — a program that does what daemons, closefrom() users and
 * sandboxes do: it closes every descriptor from 3 up, then opens its own
 * output file, which gets the lowest free number, the one the library's
 * trace file had.
 *
 *	closefds OUT [unlink]
 *
 * 50 ms of BUSY/IDLE transitions (trace records in the buffer), then every
 * descriptor >= 3 is closed, OUT is created and "RESULT=42\n" written to
 * it, more transitions follow, and the program exits (the library writes
 * its trace buffers then).  With "unlink" it first removes its own trace
 * file, so that the library cannot open it again.  OUT must hold exactly
 * its result afterwards.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lostcycles.h"

/* 2 x n transitions, BUSY and IDLE, 100 us apart. */
static void transitions(int n)
{
	struct timespec ts = { 0, 100000 };

	for (int i = 0; i < n; i++) {
		LC_BUSY();
		nanosleep(&ts, NULL);
		LC_IDLE();
	}
}

/* Remove this process's trace file from LOSTCYCLES_TRACE_DIR. */
static void unlink_trace(void)
{
	const char *dir = getenv(LC_ENV_TRACE_DIR);
	char prefix[64], path[4096];
	struct dirent *e;
	DIR *d;

	if (!dir || !(d = opendir(dir)))
		return;
	snprintf(prefix, sizeof(prefix), ".%d.", (int)getpid());
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, LC_TRACE_PREFIX, strlen(LC_TRACE_PREFIX)) &&
		    strstr(e->d_name, prefix)) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
}

/* Close every descriptor from 3 up. */
static void close_from_3(void)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
		return;
#endif
	for (int fd = 3; fd < 65536; fd++)
		close(fd);
}

int main(int argc, char **argv)
{
	static const char result[] = "RESULT=42\n";
	int fd;

	if (argc < 2 || (argc == 3 && strcmp(argv[2], "unlink")) || argc > 3) {
		fprintf(stderr, "usage: closefds OUT [unlink]\n");
		return 2;
	}
	transitions(250);
	if (argc == 3)
		unlink_trace();
	close_from_3();
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, result, sizeof(result) - 1) != (ssize_t)sizeof(result) - 1) {
		perror(argv[1]);
		return 1;
	}
	transitions(250);
	return 0;	/* fd stays open: the library's exit flush comes after */
}
