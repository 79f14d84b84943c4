/*
 * manymaps — a program with many file mappings whose thread stands in
 * places that name many modules, for the sampler's module lookups
 * (tests/t_modules.sh).
 *
 *	manymaps FILE N MS [PLANT]
 *
 * Maps FILE N times (read-only, private, each at its own address), then
 * for MS milliseconds is BUSY (asleep, to leave the CPUs to the sampler)
 * while it moves, every 2 ms, through sync
 * places: one naming FILE's module (its path hashed as the layers hash
 * it), one the main program, and 300 naming modules that no mapping has,
 * each at call site 0x1000.  With PLANT, before the places, FILE is removed and the path
 * /proc/PID/maps then gives it, "FILE (deleted)", becomes a symbolic link
 * to PLANT, or a FIFO when PLANT is "fifo"; the module named is that
 * path.  Prints "mapped N" once mapped.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_auto.h"
#include "lostcycles.h"

#define FAKES 300u	/* modules no mapping has */

static void die(const char *what)
{
	fprintf(stderr, "manymaps: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Map the file open as fd n times; each mapping of one page at its own
 * address (adjacent ones of the same offset do not merge). */
static void map_many(int fd, long n)
{
	for (long i = 0; i < n; i++)
		if (mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED)
			die("mmap");
}

/* Remove file and put at "file (deleted)" a link to plant or a FIFO;
 * that path into mod[PATH_MAX + 16]. */
static void plant(const char *file, const char *with, char *mod)
{
	snprintf(mod, PATH_MAX + 16, "%s (deleted)", file);
	if (unlink(file))
		die("unlink");
	if (!strcmp(with, "fifo") ? mkfifo(mod, 0644) : symlink(with, mod))
		die(mod);
}

int main(int argc, char **argv)
{
	char file[PATH_MAX], mod[PATH_MAX + 16];
	uint64_t end, k = 0;
	long n;
	int fd;

	if (argc < 4 || argc > 5 || (n = strtol(argv[2], NULL, 10)) < 1) {
		fprintf(stderr, "usage: manymaps FILE N MS [PLANT]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !realpath(argv[1], file))
		die(argv[1]);
	map_many(fd, n);
	close(fd);
	snprintf(mod, sizeof(mod), "%s", file);
	if (argc == 5)
		plant(file, argv[4], mod);
	printf("mapped %ld\n", n);
	fflush(stdout);
	LC_BUSY();
	end = now_ns() + (uint64_t)strtoul(argv[3], NULL, 10) * 1000000ull;
	while (now_ns() < end) {
		uint32_t i = (uint32_t)(k % (FAKES + 2)), m = i == 1 ? LC_TAG_MODULE_MAIN :
							   i ? i * 211u % 0xfffeu + 1u :
							       lc_tag_module_hash(mod);
		struct timespec ts = { 0, 2000000 };

		lc_auto_place_push(lc_place_site(LC_PLACE_SYNC, LC_WAIT_USER, m, 0x1000));
		nanosleep(&ts, NULL);
		lc_auto_place_pop();
		k++;
	}
	LC_IDLE();
	return 0;
}
