/*
 * tag.c — fragment tags from OpenMP constructs' codeptr_ra: the module that
 * holds the address and the address as the module's link-time virtual
 * address, so that "lostcycles report" can name the source line.
 */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>

#include "lc_abi.h"
#include "omp_layer.h"

#define CACHE_SIZE 64u		/* per-thread entries, direct-mapped */

struct tag_cache {
	const void *ra;
	int64_t tag;
};

static __thread struct tag_cache cache[CACHE_SIZE];

/* The module field for the object described by lm (lc_abi.h). */
static uint32_t module_of(const struct link_map *lm)
{
	char path[PATH_MAX];

	if (!lm->l_name || !lm->l_name[0])
		return LC_TAG_MODULE_MAIN;	/* the main program has no name */
	if (!realpath(lm->l_name, path))
		return lc_tag_module_hash(lm->l_name);
	return lc_tag_module_hash(path);
}

/* Compute the tag of ra (cache miss): ask the dynamic loader which object
 * holds it and at which load bias. */
static int64_t tag_compute(const void *ra)
{
	struct link_map *lm = NULL;
	uint64_t vaddr = (uintptr_t)ra;
	uint32_t module = LC_TAG_MODULE_UNKNOWN;
	Dl_info info;

	if (dladdr1(ra, &info, (void **)&lm, RTLD_DL_LINKMAP) && lm) {
		module = module_of(lm);
		vaddr -= lm->l_addr;
	}
	return LC_TAG_OMP | (int64_t)((uint64_t)module << 40) |
	       (int64_t)(vaddr & 0xffffffffffull);
}

int64_t lc_omp_tag(const void *ra)
{
	struct tag_cache *c;

	if (!ra)
		return 0;
	c = &cache[((uintptr_t)ra >> 2) % CACHE_SIZE];
	if (c->ra != ra) {
		c->tag = tag_compute(ra);
		c->ra = ra;
	}
	return c->tag;
}
