/*
 * lca_formula.h — arithmetic expressions and model formulae for lost cycles
 * analysis.
 *
 * An expression is parsed once into an opaque compiled form and evaluated many
 * times.  Identifiers are resolved at parse time by a caller-supplied function
 * to slot numbers; evaluation reads the values of those slots from an array.
 * Grammar, lowest precedence first:
 *
 *   or   := and ( ("||" | "or") and )*
 *   and  := cmp ( ("&&" | "and") cmp )*
 *   cmp  := sum ( ("=" | "==" | "!=" | "<" | "<=" | ">" | ">=") sum )?
 *   sum  := prod ( ("+" | "-") prod )*
 *   prod := unary ( ("*" | "/") unary )*
 *   unary:= "-" unary | "+" unary | pow
 *   pow  := atom ( ("^" | "**") unary )?
 *   atom := NUMBER | NAME | NAME "(" args ")" | "(" or ")"
 *
 * Functions: sqrt log ln log2 log10 exp abs ceil floor (one argument),
 * max min pow (two).  log() is the natural logarithm unless the parse flags
 * say otherwise; it is resolved when parsed and prints as ln(), log2() or
 * log10(), so that printed text never depends on the flags.  A comparison is 1 when true and 0 when false; comparisons
 * with NaN are false.
 *
 * A formula is an expression read as a sum of terms, each of which gets a
 * fitted coefficient: "p*sqrt(p) + 1" has the terms p*sqrt(p) and 1.  A
 * formula whose whole text is max(A, B) is a threshold model: the terms of A
 * and of B are fitted on the two sides of a threshold (Table 5.1's RC form).
 *
 * Nothing here prints; errors come back as -errno plus a column and a message.
 */
#ifndef LCA_FORMULA_H
#define LCA_FORMULA_H

#include <stddef.h>

/* What the parser refuses, so that no text can exhaust the stack of the
 * parser or of the walks over the parsed tree (evaluation, printing): a
 * text longer than LC_EXPR_MAX_LEN characters, brackets, calls, signs and
 * exponents nested deeper than LC_EXPR_MAX_NEST, and a tree deeper than
 * LC_EXPR_MAX_DEPTH levels (a sum of that many terms in a row). */
#define LC_EXPR_MAX_LEN		65536
#define LC_EXPR_MAX_NEST	256
#define LC_EXPR_MAX_DEPTH	1000

/* Largest number of terms in a formula. */
#define LC_FORMULA_MAXTERMS 32

/* Parse flags: what log() means (natural by default). */
#define LC_EXPR_LOG2	0x1u
#define LC_EXPR_LOG10	0x2u

struct lc_expr;

/* Map the identifier name[0..len) to a slot number >= 0, or return -1 when it
 * is unknown.  ctx is passed through unchanged. */
typedef int (*lc_resolve_fn)(void *ctx, const char *name, size_t len);

/* Where and why a parse failed: column is 1-based within the text. */
struct lc_parse_error {
	int column;
	char msg[160];
};

/* Parse text into *out.  Returns 0, -EINVAL on a syntax error or unknown
 * name (err says where), or -ENOMEM. */
int lc_expr_parse(const char *text, unsigned flags, lc_resolve_fn resolve, void *ctx,
		  struct lc_expr **out, struct lc_parse_error *err);

/* Parse a comparison list for extraction: juxtaposed comparisons and commas
 * mean "and", so "n=1024 p>=4" and "n=1024, p>=4" both work. */
int lc_expr_parse_cond(const char *text, unsigned flags, lc_resolve_fn resolve, void *ctx,
		       struct lc_expr **out, struct lc_parse_error *err);

/* Evaluate e with slot values vals.  Undefined results are NaN or inf. */
double lc_expr_eval(const struct lc_expr *e, const double *vals);

/* Write e as text into buf (at most len bytes, NUL-terminated) using names[]
 * for the slots and precision significant digits for numbers.  Returns the
 * length the full text needs, like snprintf. */
int lc_expr_print(const struct lc_expr *e, const char *const *names, int precision,
		  char *buf, size_t len);

/* Call fn(ctx, slot) for every slot e reads (with repeats): which
 * variables a model line needs, how complex a term is. */
void lc_expr_slots(const struct lc_expr *e, void (*fn)(void *ctx, int slot), void *ctx);

/* Free e; NULL is fine. */
void lc_expr_free(struct lc_expr *e);

/*
 * A coefficient-bearing term of a model: value = sign * coef * basis.  Used
 * to read back fitted models: "2.5e-05 * n*log(n) - 3" has the terms
 * (+, 2.5e-05, n*log(n)) and (-, 3, 1).  A term without a leading number has
 * coefficient 1.  group is 0, or 1/2 for the first/second argument of a
 * top-level max().
 */
struct lc_term {
	int sign;
	int group;
	double coef;
	struct lc_expr *basis;
};

/* Split e into its terms (at most max).  Returns the number of terms, or
 * -E2BIG / -ENOMEM.  The bases are new expressions the caller frees. */
int lc_expr_terms(const struct lc_expr *e, struct lc_term *terms, int max);

/* True when e is max(A, B) at the top level. */
int lc_expr_is_max(const struct lc_expr *e);

/* A formula: terms to fit, and for a threshold model how many of them form
 * the rising branch A (the rest form B). */
struct lc_formula {
	int nterms;
	int is_max;
	int na;
	struct lc_expr *term[LC_FORMULA_MAXTERMS];
};

/* Parse text as a formula into *out.  Same returns as lc_expr_parse, and
 * -E2BIG (with err filled) when there are too many terms. */
int lc_formula_parse(const char *text, unsigned flags, lc_resolve_fn resolve, void *ctx,
		     struct lc_formula **out, struct lc_parse_error *err);

/* Print formula f with the coefficients coef (NULL: none) as text; numbers
 * in terms get precision digits, coefficients cprec digits.  Returns the
 * length needed, like snprintf. */
int lc_formula_print(const struct lc_formula *f, const double *coef, const char *const *names,
		     int cprec, char *buf, size_t len);

/* A new formula with the terms of f for which keep[i] is non-zero (a
 * threshold model stays one only when both branches keep a term), or NULL
 * when out of memory. */
struct lc_formula *lc_formula_subset(const struct lc_formula *f, const int *keep);

/* A copy of e, or NULL when out of memory. */
struct lc_expr *lc_expr_copy(const struct lc_expr *e);

/* Free f; NULL is fine. */
void lc_formula_free(struct lc_formula *f);

#endif
