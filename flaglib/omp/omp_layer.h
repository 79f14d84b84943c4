/*
 * omp_layer.h — private declarations of liblostcycles-omp, the OMPT tool.
 */
#ifndef LC_OMP_LAYER_H
#define LC_OMP_LAYER_H

#include <stdint.h>

/* The fragment tag of the construct whose codeptr_ra is ra (lc_abi.h,
 * LC_TAG_OMP), or 0 for a NULL ra: also the construct's place word of kind
 * LC_PLACE_OMP_REGION (the same kind byte).  Uses a per-thread cache: safe
 * from any thread, no lock on a hit. */
int64_t lc_omp_tag(const void *ra);

/* The place word of kind kind (LC_PLACE_OMP_*) of a tag of lc_omp_tag. */
#define LC_OMP_PLACE(tag, kind) \
	((uint64_t)(tag) ? ((uint64_t)(tag) & 0x00ffffffffffffffull) | (uint64_t)(kind) << 56 : 0)

#endif /* LC_OMP_LAYER_H */
