/*
 * lca_ppchart.h — the stacked-bar predicate profile chart (the thesis's
 * Figure 4.5): for each number of processors p in a runs file, the seconds
 * lost in each category, stacked, with pure computation on top.
 */
#ifndef LCA_PPCHART_H
#define LCA_PPCHART_H

#include <stdio.h>

#include "lc_util.h"

/* Average the categories of the runs in path (those where extract holds;
 * NULL: all) per value of p, print the table to out, and write
 * <base>.data, <base>.gp and, with gnuplot, png (base is png without
 * ".png"); files that exist are treated as how says (lc_out_prepare).
 * Returns 0 or -errno with the reason in why. */
int lc_ppchart_write(const char *path, const char *extract, const char *png,
		     enum lc_out_mode how, FILE *out, char *why, size_t len);

#endif
