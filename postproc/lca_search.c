/*
 * lca_search.c — generate the hypothesis space of the --search mode.
 */
#include "lca_search.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exponents of v (as text, so that 1/3 stays exact) for one variable. */
static const char *const iexp_full[] = {
	"0", "1/4", "1/3", "1/2", "2/3", "3/4", "1", "5/4", "4/3", "3/2", "5/3", "7/4",
	"2", "9/4", "7/3", "5/2", "8/3", "11/4", "3",
};
/* Exponents of v for several variables (a coarser grid). */
static const char *const iexp_small[] = { "0", "1/2", "1", "3/2", "2", "3" };
#define NI_FULL (sizeof(iexp_full) / sizeof(iexp_full[0]))
#define NI_SMALL (sizeof(iexp_small) / sizeof(iexp_small[0]))
#define MAXJ 2

/* Append a copy of s to the list; 0 or -ENOMEM. */
static int push(char ***h, int *n, const char *s)
{
	char **nh = realloc(*h, (size_t)(*n + 1) * sizeof(*nh));

	if (!nh)
		return -ENOMEM;
	*h = nh;
	nh[*n] = strdup(s);
	if (!nh[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* Write the factor v^i*log2(v)^j into buf ("" when i = j = 0). */
static void factor(char *buf, size_t len, const char *v, const char *i, int j)
{
	int has_i = strcmp(i, "0") != 0;
	int frac = strchr(i, '/') != NULL;
	size_t used = 0;

	buf[0] = '\0';
	if (has_i)
		used = (size_t)snprintf(buf, len, strcmp(i, "1") ? (frac ? "%s^(%s)" : "%s^%s") : "%s",
					v, i);
	if (j > 0 && used < len)
		snprintf(buf + used, len - used, "%slog2(%s)%s", has_i ? "*" : "", v,
			 j > 1 ? "^2" : "");
}

/* The factors of one variable over a grid of i exponents; count in *n. */
static int factors(const char *v, const char *const *ie, size_t ni, char (*out)[64], int *n)
{
	*n = 0;
	for (size_t a = 0; a < ni; a++)
		for (int j = 0; j <= MAXJ; j++)
			if (strcmp(ie[a], "0") || j)
				factor(out[(*n)++], 64, v, ie[a], j);
	return 0;
}

/* Hypotheses for one variable: c0 + c1*f for every factor f. */
static int one_var(const char *v, char ***h, int *n)
{
	char fs[NI_FULL * (MAXJ + 1)][64], buf[160];
	int nf, rc = 0;

	factors(v, iexp_full, NI_FULL, fs, &nf);
	for (int a = 0; a < nf && !rc; a++) {
		snprintf(buf, sizeof(buf), "%.63s + 1", fs[a]);
		rc = push(h, n, buf);
	}
	return rc;
}

/* Hypotheses for two or three variables: c0 + c1*f1*f2(*f3), and for two
 * variables also c0 + c1*f1 + c2*f2. */
static int multi_var(const char *const *vars, int nvars, char ***h, int *n)
{
	static char fs[3][NI_SMALL * (MAXJ + 1)][64];
	int nf[3], rc = 0;
	char buf[256];

	for (int v = 0; v < nvars; v++)
		factors(vars[v], iexp_small, NI_SMALL, fs[v], &nf[v]);
	for (int a = 0; a < nf[0] && !rc; a++)
		for (int b = 0; b < nf[1] && !rc; b++) {
			if (nvars == 2) {
				snprintf(buf, sizeof(buf), "%s*%s + 1", fs[0][a], fs[1][b]);
				rc = push(h, n, buf);
				if (!rc) {
					snprintf(buf, sizeof(buf), "%s + %s + 1", fs[0][a], fs[1][b]);
					rc = push(h, n, buf);
				}
				continue;
			}
			for (int c = 0; c < nf[2] && !rc; c++) {
				snprintf(buf, sizeof(buf), "%s*%s*%s + 1", fs[0][a], fs[1][b], fs[2][c]);
				rc = push(h, n, buf);
			}
		}
	return rc;
}

/* Build the hypotheses.  See lca_search.h. */
int lc_search_hypotheses(const char *const *vars, int nvars, char ***out, int *n)
{
	int rc;

	*out = NULL;
	*n = 0;
	if (nvars < 1 || nvars > 3)
		return -E2BIG;
	rc = nvars == 1 ? one_var(vars[0], out, n) : multi_var(vars, nvars, out, n);
	if (rc) {
		lc_search_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

/* Free the hypotheses.  See lca_search.h. */
void lc_search_free(char **h, int n)
{
	for (int i = 0; i < n; i++)
		free(h[i]);
	free(h);
}
