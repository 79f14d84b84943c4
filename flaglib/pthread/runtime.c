/*
 * runtime.c — where the OpenMP runtime's code lies, so that the pthread
 * layer leaves the runtime's own threads and waits to the OpenMP tool: a
 * worker of libomp sleeping in pthread_cond_wait between parallel regions
 * is idle, not synchronizing, and the runtime's threads do not make work
 * exist.
 */
#include <link.h>
#include <string.h>

#include "pt_layer.h"

#define MAX_RANGES 16

/* Executable segments of the runtime libraries loaded at start-up.  Written
 * once by lc_pt_find_runtime() (from the layer's constructor), read-only
 * afterwards. */
static struct {
	uintptr_t lo, hi;
} ranges[MAX_RANGES];
static int nranges;

/* Nonzero if path names an OpenMP runtime library. */
static int is_runtime(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "libomp.", 7) || !strncmp(base, "libomp5", 7) ||
	       !strncmp(base, "libgomp.", 8) || !strncmp(base, "libiomp5", 8);
}

/* dl_iterate_phdr callback: remember the executable segments of a runtime
 * library.  Returns 0 to go on. */
static int add_object(struct dl_phdr_info *info, size_t size, void *unused)
{
	(void)size;
	(void)unused;
	if (!info->dlpi_name || !is_runtime(info->dlpi_name))
		return 0;
	for (int i = 0; i < info->dlpi_phnum && nranges < MAX_RANGES; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		ranges[nranges].lo = info->dlpi_addr + ph->p_vaddr;
		ranges[nranges].hi = ranges[nranges].lo + ph->p_memsz;
		nranges++;
	}
	return 0;
}

void lc_pt_find_runtime(void)
{
	nranges = 0;
	dl_iterate_phdr(add_object, NULL);
}

int lc_pt_from_runtime(const void *ra)
{
	uintptr_t a = (uintptr_t)ra;

	for (int i = 0; i < nranges; i++)
		if (a >= ranges[i].lo && a < ranges[i].hi)
			return 1;
	return 0;
}
