/*
 * lca_models.h — the file of default typical forms per category
 * (share/models.txt, user-editable).  The categories themselves are the
 * table of profile/lc_profile.h.
 *
 * Nothing here prints; errors come back as -errno with a line number.
 */
#ifndef LCA_MODELS_H
#define LCA_MODELS_H

#include <stddef.h>

/* Find the default models file: $LOSTCYCLES_MODELS, then
 * <exe dir>/share/models.txt, <exe dir>/../share/lostcycles/models.txt and
 * LC_DATADIR/models.txt.  Writes the path into buf.  Returns 0 or -ENOENT. */
int lc_models_path(char *buf, size_t len);

/* The forms for category cat over exactly the variables vars[0..nvars) (in
 * any order) from the models file at path.  *forms gets a malloc'd array of
 * malloc'd strings (free with lc_strv_free of util), *n their count.  Returns 0,
 * -errno from reading, or -EINVAL for a malformed line (*line says which). */
int lc_models_load(const char *path, const char *cat, const char *const *vars, int nvars,
		   char ***forms, int *n, int *line);


#endif
