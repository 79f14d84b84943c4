/*
 * tagname.h — names for fragment tags.  The OpenMP tool's tags (LC_TAG_OMP,
 * lc_abi.h) carry a module and an address; those of the main program are
 * named "file.c:LINE (function)" through its debug information with
 * addr2line(1) from binutils, found from the profile's command line.  A tag
 * that cannot be resolved that way gets a raw name, "omp:main+0xADDR" or
 * "omp:MODULE+0xADDR"; a program's own tags have no name.
 */
#ifndef LC_TAGNAME_H
#define LC_TAGNAME_H

#include <stdint.h>

struct lc_tagnames;

/* Name the n tags of tags[] for a profile of command (its command line,
 * space-separated; may be NULL).  Runs addr2line at most once.  Returns
 * NULL only when out of memory. */
struct lc_tagnames *lc_tagnames_new(const char *command, const int64_t *tags, uint32_t n);

/* The name of tag, or NULL when it has none.  The string lives as long as
 * tn.  The const void * argument fits lc_report_opts.tag_name. */
const char *lc_tagnames_get(const void *tn, int64_t tag);

/* Find the tag whose name is name, or ends with "/" name, or whose name's
 * "file:line" part is name.  Returns 0 and sets *tag, or -1. */
int lc_tagnames_find(const struct lc_tagnames *tn, const char *name, int64_t *tag);

/* Free tn; accepts NULL. */
void lc_tagnames_free(struct lc_tagnames *tn);

#endif /* LC_TAGNAME_H */
