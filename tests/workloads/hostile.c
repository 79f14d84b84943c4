/*
 * hostile — a program that does to its own segment (or to the sampler)
 * what a careless or hostile program may, for the tests of the sampler's
 * distrust of shared memory (docs/trust-segments.md).
 *
 *	hostile sigterm MS
 *		BUSY; on SIGTERM it takes MS milliseconds more to die of it
 *		(its segment name stays behind: no exit handler runs)
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

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "sigterm"))
		return do_sigterm(atol(argv[2]));
	fprintf(stderr, "usage: hostile sigterm MS\n");
	return 2;
}
