/*
 * tag.c — fragment tags and places from OpenMP constructs' codeptr_ra: the
 * module that holds the address and the address as the module's link-time
 * virtual address (lc_auto_code_site, cached per thread), so that
 * "lostcycles report" can name the source line.
 */
#include "lc_abi.h"
#include "lc_auto.h"
#include "omp_layer.h"

int64_t lc_omp_tag(const void *ra)
{
	uint64_t site = lc_auto_code_site(ra);

	return site ? (int64_t)(site | (uint64_t)LC_PLACE_OMP_REGION << 56) : 0;
}
