/*
 * lca_models.c — the default models file.
 */
#include "lc_util.h"
#include "lca_models.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* True when path names a readable file. */
/* Find the models file.  See lca_models.h. */
int lc_models_path(char *buf, size_t len)
{
	return lc_share_file("models.txt", "LOSTCYCLES_MODELS", buf, len);
}

/* True when the blank-separated words of list[0..len) are exactly the set
 * vars[0..nvars). */
static int same_vars(const char *list, size_t len, const char *const *vars, int nvars)
{
	int seen = 0;
	const char *s = list, *end = list + len;

	const char *w;
	size_t wl;

	while ((w = lc_next_word(&s, end, NULL, &wl))) {
		int hit = 0;

		for (int i = 0; i < nvars; i++)
			hit |= strlen(vars[i]) == wl && !strncmp(vars[i], w, wl);
		if (!hit)
			return 0;
		seen++;
	}
	return seen == nvars;
}

/* Handle one non-comment line "CAT VARS : FORMULA".  Returns 0, -EINVAL
 * for a malformed line, -ENOMEM. */
static int models_line(char *s, const char *cat, const char *const *vars, int nvars,
		       char ***forms, int *n)
{
	char *colon = strchr(s, ':'), *form, *e;
	size_t clen = strcspn(s, " \t:");

	if (!colon || clen == 0)
		return -EINVAL;
	for (form = colon + 1; isspace((unsigned char)*form); form++)
		;
	for (e = form + strlen(form); e > form && isspace((unsigned char)e[-1]); e--)
		;
	*e = '\0';
	if (!*form)
		return -EINVAL;
	if (strlen(cat) != clen || strncmp(s, cat, clen))
		return 0;
	if (!same_vars(s + clen, (size_t)(colon - s) - clen, vars, nvars))
		return 0;
	return lc_strv_push(forms, n, form);
}

/* Load the forms for a category.  See lca_models.h. */
int lc_models_load(const char *path, const char *cat, const char *const *vars, int nvars,
		   char ***forms, int *n, int *line)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *s;
	size_t cap = 0;
	int rc = 0;

	*forms = NULL;
	*n = 0;
	*line = 0;
	if (!f)
		return -errno;
	while (!rc && getline(&buf, &cap, f) >= 0) {
		(*line)++;
		buf[strcspn(buf, "\r\n")] = '\0';
		for (s = buf; isspace((unsigned char)*s); s++)
			;
		if (*s && *s != '#')
			rc = models_line(s, cat, vars, nvars, forms, n);
	}
	free(buf);
	fclose(f);
	if (rc) {
		lc_strv_free(*forms, *n);
		*forms = NULL;
		*n = 0;
	} else {
		*line = 0;
	}
	return rc;
}

