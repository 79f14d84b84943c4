/*
 * omp_layer.h — private declarations of liblostcycles-omp, the OMPT tool.
 */
#ifndef LC_OMP_LAYER_H
#define LC_OMP_LAYER_H

#include <stdint.h>

/* The fragment tag of the construct whose codeptr_ra is ra (lc_abi.h,
 * LC_TAG_OMP), or 0 for a NULL ra.  Uses a per-thread cache: safe from
 * any thread, no lock on a hit. */
int64_t lc_omp_tag(const void *ra);

#endif /* LC_OMP_LAYER_H */
