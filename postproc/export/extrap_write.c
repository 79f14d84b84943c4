/*
 * extrap_write.c — an Extra-P table in Extra-P's text or JSON-lines format
 * (see extrap_write.h).
 */
#include "extrap_write.h"

#include <errno.h>
#include <stdlib.h>

#include "lc_emit.h"
#include "lc_util.h"

/* v in plain decimal notation, with the fewest digits that read back as v,
 * into b. */
static const char *num_text(char b[512], double v)
{
	for (int prec = 0; prec < 340; prec++) {
		snprintf(b, 512, "%.*f", prec, v);
		if (strtod(b, NULL) == v)
			break;
	}
	return b;
}

static void num(FILE *out, double v)
{
	char b[512];

	fputs(num_text(b, v), out);
}

/* Whether metric m has values at every point. */
static int complete(const struct lc_xp_table *t, int m)
{
	for (size_t p = 0; p < t->npt; p++)
		if (!lc_xp_cell(t, m, p)->n)
			return 0;
	return 1;
}

/* The DATA lines of slot m, or nothing (*dropped counted) when some point
 * has no value. */
static void write_slot(FILE *out, const struct lc_xp_table *t, int m, int *dropped)
{
	if (!complete(t, m)) {
		(*dropped)++;
		return;
	}
	fprintf(out, "METRIC %s\n", t->met[m]);
	for (size_t p = 0; p < t->npt; p++) {
		const struct lc_xp_vals *c = lc_xp_cell(t, m, p);

		fputs("DATA", out);
		for (size_t k = 0; k < c->n; k++) {
			fputc(' ', out);
			num(out, c->v[k]);
		}
		fputc('\n', out);
	}
}

static void write_text(FILE *out, const struct lc_xp_table *t, int *dropped)
{
	fputs("# lostcycles export --extrap: one metric per lost cycles category, in seconds "
	      "summed over the processors\n", out);
	for (int j = 0; j < t->npar; j++)
		fprintf(out, "PARAMETER %s\n", t->par[j]);
	fputs("POINTS", out);
	for (size_t p = 0; p < t->npt; p++) {
		fputs(" (", out);
		for (int j = 0; j < t->npar; j++) {
			fputs(j ? " " : "", out);
			num(out, t->pt[p * LC_XP_MAXPAR + j]);
		}
		fputc(')', out);
	}
	fputc('\n', out);
	for (int g = 0; g < t->nreg; g++) {
		fprintf(out, "REGION %s\n", t->reg[g]);
		for (int m = 0; m < t->nslot; m++)
			if (t->mreg[m] == g)
				write_slot(out, t, m, dropped);
	}
}

/* One JSON line, a document of its own: the values of slot m at point p. */
static void write_jline(FILE *out, const struct lc_xp_table *t, int m, size_t p)
{
	const struct lc_xp_vals *c = lc_xp_cell(t, m, p);
	struct lc_doc d;
	char b[512];

	lc_doc_init(&d, out, 0);
	lc_doc_obj(&d, NULL, LC_DOC_TIGHT);
	lc_doc_obj(&d, "params", LC_DOC_TIGHT);
	for (int j = 0; j < t->npar; j++)
		lc_doc_raw(&d, t->par[j], num_text(b, t->pt[p * LC_XP_MAXPAR + j]));
	lc_doc_end(&d);
	lc_doc_str(&d, "callpath", t->reg[t->mreg[m]]);
	lc_doc_str(&d, "metric", t->met[m]);
	lc_doc_arr(&d, "value", LC_DOC_TIGHT);
	for (size_t k = 0; k < c->n; k++)
		lc_doc_raw(&d, NULL, num_text(b, c->v[k]));
	lc_doc_end(&d);
	lc_doc_end(&d);
}

static void write_jsonl(FILE *out, const struct lc_xp_table *t)
{
	for (size_t p = 0; p < t->npt; p++)
		for (int m = 0; m < t->nslot; m++)
			if (lc_xp_cell(t, m, p)->n)
				write_jline(out, t, m, p);
}

int lc_extrap_write(FILE *out, const struct lc_xp_table *t, int jsonl, int *dropped, char *msg,
		    size_t len)
{
	*dropped = 0;
	if (jsonl)
		write_jsonl(out, t);
	else
		write_text(out, t, dropped);
	if (fflush(out) || ferror(out))
		return lc_fail(msg, len, -EIO, "cannot write the Extra-P file");
	return 0;
}
