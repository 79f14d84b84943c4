/*
 * tagname.c — names for the OpenMP tool's fragment tags (see tagname.h):
 * find the program from the profile's command line, read the source lines
 * of its tags from its debug information (libdw), fall back to raw names.
 */
#include "tagname.h"
#include "lc_util.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_profile.h"
#include "lc_program.h"
#include "where_print.h"

struct entry {
	int64_t tag;
	char *name;		/* NULL: no name */
};

struct lc_tagnames {
	uint32_t n;
	struct entry *e;
};

/* The raw name of OpenMP tag t. */
static char *raw_name(int64_t t)
{
	char buf[64];

	if (LC_TAGN_MODULE(t) == LC_TAGN_MODULE_MAIN)
		snprintf(buf, sizeof(buf), "omp:main+0x%" PRIx64, LC_TAGN_VADDR(t));
	else
		snprintf(buf, sizeof(buf), "omp:%04" PRIx32 "+0x%" PRIx64, LC_TAGN_MODULE(t),
			 LC_TAGN_VADDR(t));
	return strdup(buf);
}

/* "file.c:LINE (function)" of a source line, or NULL when it says
 * nothing.  The file is shown by its base name; compiler-made functions
 * (".omp_outlined...") are left out. */
static char *pretty(const char *file, int line, const char *func)
{
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	char buf[PATH_MAX + 300];

	if (line <= 0 || !base[0])
		return NULL;
	if (func[0] && func[0] != '.')
		snprintf(buf, sizeof(buf), "%s:%d (%s)", base, line, func);
	else
		snprintf(buf, sizeof(buf), "%s:%d", base, line);
	return strdup(buf);
}

/* Whether tag t is an OpenMP tag of the main program with an address. */
static int main_omp_tag(int64_t t)
{
	return LC_TAGN_KIND(t) == LC_TAGN_KIND_OMP && LC_TAGN_VADDR(t) != 0 &&
	       LC_TAGN_MODULE(t) == LC_TAGN_MODULE_MAIN;
}

/* Name the main program's OpenMP tags of tn from exe's debug information;
 * tags it cannot name keep their NULL name. */
static void resolve(struct lc_tagnames *tn, const char *exe)
{
	struct lc_program_dbg *d = NULL;
	char file[PATH_MAX], func[256];
	int line;

	for (uint32_t i = 0; i < tn->n; i++) {
		if (!main_omp_tag(tn->e[i].tag))
			continue;
		if (!d && !(d = lc_program_dbg_open(exe)))
			return;
		if (!lc_program_srcline(d, LC_TAGN_VADDR(tn->e[i].tag) - 1, file, sizeof(file),
					&line, func, sizeof(func)))
			tn->e[i].name = pretty(file, line, func);
	}
	lc_program_dbg_close(d);
}

/* Entries by tag (qsort). */
static int by_tag(const void *a, const void *b)
{
	int64_t x = ((const struct entry *)a)->tag, y = ((const struct entry *)b)->tag;

	return (x > y) - (x < y);
}

/* The entries are sorted by tag, so that a lookup is a binary search: a
 * profile may hold tens of thousands of tags, and report looks up each
 * (a linear search made report --tags quadratic: 21,000 tags took 0.8 s,
 * 6,000 took 0.05 s). */
struct lc_tagnames *lc_tagnames_new(const char *command, const int64_t *tags, uint32_t n)
{
	struct lc_tagnames *tn = calloc(1, sizeof(*tn));
	char exe[PATH_MAX];

	if (!tn || !(tn->e = calloc(n + 1, sizeof(*tn->e)))) {
		free(tn);
		return NULL;
	}
	tn->n = n;
	for (uint32_t i = 0; i < n; i++)
		tn->e[i].tag = tags[i];
	qsort(tn->e, n, sizeof(*tn->e), by_tag);
	if (!lc_program_of_command(command, exe, sizeof(exe)))
		resolve(tn, exe);
	for (uint32_t i = 0; i < n; i++)
		if (tn->e[i].tag == LC_TAG_OTHER)	/* the tags beyond the cap */
			tn->e[i].name = strdup("other tags");
		else if (!tn->e[i].name && LC_TAGN_KIND(tn->e[i].tag) == LC_TAGN_KIND_OMP)
			tn->e[i].name = raw_name(tn->e[i].tag);
	return tn;
}

const char *lc_tagnames_get(const void *arg, int64_t tag)
{
	const struct lc_tagnames *tn = arg;
	uint32_t lo = 0, hi = tn ? tn->n : 0;

	while (lo < hi) {	/* the first entry of tag (a tag of two sources is twice) */
		uint32_t mid = lo + (hi - lo) / 2;

		if (tn->e[mid].tag < tag)
			lo = mid + 1;
		else
			hi = mid;
	}
	return tn && lo < tn->n && tn->e[lo].tag == tag ? tn->e[lo].name : NULL;
}

/* Nonzero when name designates full, a "file:line (function)" name: equal
 * to it, or to its part before " (". */
static int name_matches(const char *full, const char *name)
{
	const char *paren = strstr(full, " (");
	size_t n = paren ? (size_t)(paren - full) : strlen(full);

	return !strcmp(full, name) || (strlen(name) == n && !strncmp(full, name, n));
}

/* How many distinct tags of tn have a name that name designates (whole,
 * or with whole 0 its "file:line" part); the last one into *tag.  A tag of
 * two sources is listed twice. */
static int matches(const struct lc_tagnames *tn, const char *name, int whole, int64_t *tag)
{
	int found = 0;

	for (uint32_t i = 0; tn && i < tn->n; i++)
		if (tn->e[i].name &&
		    (whole ? !strcmp(tn->e[i].name, name) : name_matches(tn->e[i].name, name)) &&
		    (!found || tn->e[i].tag != *tag)) {
			*tag = tn->e[i].tag;
			found++;
		}
	return found;
}

int lc_tagnames_find(const struct lc_tagnames *tn, const char *name, int64_t *tag)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	int found = matches(tn, base, 1, tag);

	if (!found)
		found = matches(tn, base, 0, tag);
	return found == 1 ? 0 : found ? -2 : -1;
}

static void free_entry(void *e)
{
	free(((struct entry *)e)->name);
}

void lc_tagnames_free(struct lc_tagnames *tn)
{
	LC_FREE_TABLE(tn, e, n, free_entry);
}

/* Whether a place row of pr has place word w. */
static int has_place(const struct lc_profile *pr, uint64_t w)
{
	for (int s = 0; s < LC_NSRC; s++)
		for (uint32_t i = 0; i < pr->data[s].nplaces; i++)
			if (pr->data[s].places[i].place == w)
				return 1;
	return 0;
}

/* Entry e's name with the kind of its construct: "tri.c:8 (main)" ->
 * "tri.c:8 (main, loop)", "tri.c:8" -> "tri.c:8 (loop)". */
static void tell_apart(struct entry *e, const char *kind)
{
	size_t n = strlen(e->name);
	char buf[PATH_MAX + 400], *c;

	if (n > 1 && e->name[n - 1] == ')' && strstr(e->name, " ("))
		snprintf(buf, sizeof(buf), "%.*s, %s)", (int)(n - 1), e->name, kind);
	else
		snprintf(buf, sizeof(buf), "%s (%s)", e->name, kind);
	if ((c = strdup(buf))) {
		free(e->name);
		e->name = c;
	}
}

/* Whether OpenMP tag t opened a worksharing construct (its place word is
 * its tag with the 'W' kind; the other OpenMP tags are regions'). */
static int is_work(const struct lc_profile *pr, int64_t t)
{
	return has_place(pr, ((uint64_t)t & 0x00ffffffffffffffull) | (uint64_t)0x57 << 56);
}

/* Tell apart the names that OpenMP tags of different kinds share (the
 * region and the loop of a combined "parallel for" are one source line):
 * "tri.c:8 (main)" -> "tri.c:8 (main, region)", "tri.c:8 (main, loop)".
 * Tags of one name and kind keep it ("tag NUMBER = NAME" tells them apart
 * where they are listed). */
static void distinct_names(const struct lc_profile *pr, struct lc_tagnames *tn)
{
	uint32_t n = tn->n;
	int *kind = calloc(n + 1, sizeof(*kind)), *mixed = calloc(n + 1, sizeof(*mixed));

	for (uint32_t i = 0; kind && mixed && i < n; i++)
		kind[i] = LC_TAGN_KIND(tn->e[i].tag) != LC_TAGN_KIND_OMP ? 0 :
			  1 + is_work(pr, tn->e[i].tag);
	for (uint32_t i = 0; kind && mixed && i < n; i++)
		for (uint32_t j = i + 1; tn->e[i].name && kind[i] && j < n; j++)
			if (tn->e[j].name && kind[j] && kind[j] != kind[i] &&
			    !strcmp(tn->e[i].name, tn->e[j].name))
				mixed[i] = mixed[j] = 1;
	for (uint32_t i = 0; kind && mixed && i < n; i++)
		if (mixed[i])
			tell_apart(&tn->e[i], kind[i] == 2 ? "loop" : "region");
	free(kind);
	free(mixed);
}

struct lc_tagnames *lc_tagnames_of_profile(const struct lc_profile *pr)
{
	struct lc_tagnames *tn;
	uint32_t n = 0, k = 0;
	int64_t *tags;

	for (int s = 0; s < LC_NSRC; s++)
		n += pr->data[s].ntags;
	tags = calloc(n + 1, sizeof(*tags));
	if (!tags)
		return NULL;
	for (int s = 0; s < LC_NSRC; s++)
		for (uint32_t i = 0; i < pr->data[s].ntags; i++)
			tags[k++] = pr->data[s].tags[i].tag;
	tn = lc_tagnames_new(pr->info.command, tags, k);
	free(tags);
	if (tn)
		distinct_names(pr, tn);
	return tn;
}

int lc_tagnames_row(const struct lc_tagnames *tn, const char *text, int64_t *tag)
{
	char *end;
	int64_t t;

	if (strncmp(text, "tag ", 4))
		return -1;
	errno = 0;
	t = strtoll(text + 4, &end, 10);
	if (!errno && end > text + 4 && (!*end || !strncmp(end, " = ", 3))) {
		*tag = t;
		return 0;
	}
	return lc_tagnames_find(tn, text + 4, tag) ? -1 : 0;
}

int lc_tag_resolve(const struct lc_profile *pr, int src, const struct lc_tagnames *tn,
		   const char *text, int64_t *tag, char *msg, size_t len)
{
	int r = lc_tagnames_find(tn, text, tag);

	if (!r)
		return LC_TAGREF_TAG;
	if (!lc_tagnames_row(tn, text, tag))
		return LC_TAGREF_ROW;
	if (lc_where_names(pr, (enum lc_source)src, text, msg, len))
		return LC_TAGREF_PLACE;
	if (r == -2)
		return lc_fail(msg, len, -1, "'%s' names several fragment tags (--tags lists them: "
			       "give the whole name or the number)", text);
	if (!strstr(msg, " names "))
		lc_fail(msg, len, -1, "no fragment tag or place is named '%s' (--tags and --where "
			"list them)", text);
	return -1;
}
