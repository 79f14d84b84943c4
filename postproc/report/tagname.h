/*
 * tagname.h — names for fragment tags.  The OpenMP tool's tags carry a
 * module and an address; those of the main program are named
 * "file.c:LINE (function)" through its debug information (libdw,
 * lc_program.h), the program found from the profile's command line.  A tag
 * that cannot be resolved that way gets a raw name, "omp:main+0xADDR" or
 * "omp:MODULE+0xADDR"; a program's own tags have no name.
 */
#ifndef LC_TAGNAME_H
#define LC_TAGNAME_H

#include <stddef.h>
#include <stdint.h>

/* The layout of the OpenMP tool's tags (docs/shm-abi.md, LC_TAG_OMP of
 * lc_abi.h, which analysis does not include; tests/test_tagname.c checks
 * these against it): bits 56-63 the kind, bits 40-55 the module (0: the
 * main program), bits 0-39 the return address as a link-time address of the
 * module; the construct's line is that of the address - 1. */
#define LC_TAGN_KIND(t)		((uint64_t)(t) >> 56)
#define LC_TAGN_KIND_OMP	0x4fu
#define LC_TAGN_MODULE(t)	((uint32_t)(((uint64_t)(t) >> 40) & 0xffffu))
#define LC_TAGN_VADDR(t)	((uint64_t)(t) & (uint64_t)0xffffffffffu)
#define LC_TAGN_MODULE_MAIN	0u

struct lc_tagnames;

/* Name the n tags of tags[] for a profile of command (its command line,
 * space-separated; may be NULL).  Reads the program's debug information at
 * most once.  Returns NULL only when out of memory. */
struct lc_tagnames *lc_tagnames_new(const char *command, const int64_t *tags, uint32_t n);

struct lc_profile;

/* Names for the fragment tags of profile pr (of every source), its command
 * line naming the program.  NULL when out of memory. */
struct lc_tagnames *lc_tagnames_of_profile(const struct lc_profile *pr);

/* The name of tag, or NULL when it has none.  The string lives as long as
 * tn.  The const void * argument fits lc_report_opts.tag_name. */
const char *lc_tagnames_get(const void *tn, int64_t tag);

/* Find the tag whose name is name, or ends with "/" name, or whose name's
 * "file:line" part is name.  Returns 0 and sets *tag, -1 when no tag has
 * that name, or -2 when several do (a line of several constructs: a loop
 * the compiler copied, a function inlined twice). */
int lc_tagnames_find(const struct lc_tagnames *tn, const char *name, int64_t *tag);

/* text as a tag's row of report --where --inclusive: "tag NUMBER",
 * "tag NUMBER = NAME" (how the text table prints a shared name) or
 * "tag NAME".  Returns 0 and sets *tag when it names one, else -1. */
int lc_tagnames_row(const struct lc_tagnames *tn, const char *text, int64_t *tag);

/* What report's -t TEXT names in profile pr (its source src, tn its tag
 * names): a tag by number or name (LC_TAGREF_TAG), the tag of a "tag NAME"
 * row of --where --inclusive (LC_TAGREF_ROW), both with *tag set, or a
 * place of --where (LC_TAGREF_PLACE).  -1 with the reason in msg when it
 * names none, or several tags and no place. */
enum { LC_TAGREF_TAG = 1, LC_TAGREF_ROW, LC_TAGREF_PLACE };
int lc_tag_resolve(const struct lc_profile *pr, int src, const struct lc_tagnames *tn,
		   const char *text, int64_t *tag, char *msg, size_t len);

/* Free tn; accepts NULL. */
void lc_tagnames_free(struct lc_tagnames *tn);

#endif /* LC_TAGNAME_H */
