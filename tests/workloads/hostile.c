/*
 * hostile — a program that does to its own segment (or to the sampler)
 * what a careless or hostile program may, for the tests of the sampler's
 * distrust of shared memory (docs/trust-segments.md).
 *
 *	hostile sigterm MS
 *		BUSY; on SIGTERM it takes MS milliseconds more to die of it
 *		(its segment name stays behind: no exit handler runs)
 *	hostile children N MS
 *		N children, each BUSY for MS milliseconds; before it exits each
 *		checks that its segment name is still in /dev/shm (the sampler
 *		must never unlink the name of a live process) and fails if not;
 *		exits 0 when every child passed
 *	hostile truncate MS
 *		a child BUSY for 3 x MS; the parent BUSY for MS, then it
 *		truncates its own segment to 0 bytes for MS (touching no slot
 *		meanwhile), gives it back its size, and waits for the child
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lostcycles.h"

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

/* Sleep ms milliseconds. */
static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* sigterm MS: wait for SIGTERM, then die of it MS milliseconds later. */
static int do_sigterm(long ms)
{
	signal(SIGTERM, on_term);
	LC_BUSY();
	while (!got_term)
		pause();
	sleep_ms(ms);
	signal(SIGTERM, SIG_DFL);
	raise(SIGTERM);
	return 1;
}

/* The path of this process's segment into path[len]; returns whether there
 * is one in /dev/shm. */
static int own_name(char *path, size_t len)
{
	const char *ses = getenv("LOSTCYCLES_SESSION");
	char prefix[128];
	struct dirent *e;
	DIR *d = opendir("/dev/shm");
	int found = 0;

	if (!ses || !d) {
		if (d)
			closedir(d);
		return 0;
	}
	snprintf(prefix, sizeof(prefix), "lostcycles.%s.%d.", ses, (int)getpid());
	while (!found && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix))) {
			snprintf(path, len, "/dev/shm/%s", e->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

/* Whether this process's segment name is in /dev/shm. */
static int own_name_exists(void)
{
	char path[300];

	return own_name(path, sizeof(path));
}

/* truncate MS: see the top of the file. */
static int do_truncate(long ms)
{
	char path[300];
	struct stat st;
	int fd, ws;
	pid_t pid;

	LC_BUSY();
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		LC_BUSY();
		sleep_ms(3 * ms);
		LC_IDLE();
		_exit(0);
	}
	sleep_ms(ms);
	if (!own_name(path, sizeof(path)) || (fd = open(path, O_RDWR)) < 0 || fstat(fd, &st)) {
		fprintf(stderr, "hostile: no segment of my own\n");
		return 1;
	}
	if (ftruncate(fd, 0) || (sleep_ms(ms), ftruncate(fd, st.st_size))) {
		perror("hostile: ftruncate");
		return 1;
	}
	close(fd);
	LC_IDLE();
	waitpid(pid, &ws, 0);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 1;
}

/* children N MS: see the top of the file. */
static int do_children(int n, long ms)
{
	int bad = 0, ws;

	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			LC_BUSY();
			sleep_ms(ms);
			LC_IDLE();
			_exit(own_name_exists() ? 0 : 3);
		}
	}
	while (wait(&ws) > 0)
		bad += !WIFEXITED(ws) || WEXITSTATUS(ws);
	if (bad)
		fprintf(stderr, "hostile: %d children lost their segment name while alive\n", bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "truncate"))
		return do_truncate(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "children"))
		return do_children(atoi(argv[2]), atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "sigterm"))
		return do_sigterm(atol(argv[2]));
	fprintf(stderr, "usage: hostile sigterm MS | children N MS | truncate MS\n");
	return 2;
}
