/*
 * lca_formula.c — parse, evaluate and print expressions and model formulae.
 *
 * An expression is a tree stored in one array of nodes (children by index),
 * built by a recursive-descent parser over a small tokenizer.  See
 * lca_formula.h for the grammar.
 */
#include "lc_util.h"
#include "lca_formula.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op {
	OP_NUM, OP_VAR, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW,
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_AND, OP_OR, OP_FN1, OP_FN2,
};

enum fn { FN_SQRT, FN_LOG, FN_LN, FN_LOG2, FN_LOG10, FN_EXP, FN_ABS, FN_CEIL,
	  FN_FLOOR, FN_MAX, FN_MIN, FN_POW };

/* The functions the parser knows, with their arity. */
static const struct fninfo {
	const char *name;
	int arity;
} fntab[] = {
	[FN_SQRT] = { "sqrt", 1 }, [FN_LOG] = { "log", 1 }, [FN_LN] = { "ln", 1 },
	[FN_LOG2] = { "log2", 1 }, [FN_LOG10] = { "log10", 1 }, [FN_EXP] = { "exp", 1 },
	[FN_ABS] = { "abs", 1 }, [FN_CEIL] = { "ceil", 1 }, [FN_FLOOR] = { "floor", 1 },
	[FN_MAX] = { "max", 2 }, [FN_MIN] = { "min", 2 }, [FN_POW] = { "pow", 2 },
};
#define NFN (sizeof(fntab) / sizeof(fntab[0]))

struct node {
	enum op op;
	int a, b;		/* children, -1 when absent */
	int fn;			/* for OP_FN1 / OP_FN2 */
	int slot;		/* for OP_VAR */
	int depth;		/* levels of the subtree (a leaf: 1) */
	double num;		/* for OP_NUM */
};

struct lc_expr {
	struct node *nodes;
	int n;
	size_t cap;
	int root;
	unsigned flags;		/* LC_EXPR_LOG2 / LC_EXPR_LOG10 */
};

/* Parser state: the text, the position, and the resolver. */
struct parser {
	const char *text;
	const char *pos;
	unsigned flags;
	lc_resolve_fn resolve;
	void *ctx;
	struct lc_expr *e;
	struct lc_parse_error *err;
	int failed;
	int nest;		/* parse_unary calls open: the parser's recursion */
};

/* Record the first error at column (p - text + 1) with a printf message.
 * Always returns -1 so callers can "return fail(...)". */
static int fail(struct parser *ps, const char *p, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return -1;
	ps->failed = 1;
	if (ps->err) {
		ps->err->column = (int)(p - ps->text) + 1;
		va_start(ap, fmt);
		lc_vfail(ps->err->msg, sizeof(ps->err->msg), -1, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* The levels of the subtree at node i (0: none). */
static int depth_of(const struct lc_expr *e, int i)
{
	return i < 0 ? 0 : e->nodes[i].depth;
}

/* Append a node to e; returns its index or -1 when out of memory. */
static int add_node(struct lc_expr *e, enum op op, int a, int b)
{
	int da = depth_of(e, a), db = depth_of(e, b);

	if (lc_grow((void **)&e->nodes, &e->cap, (size_t)e->n + 1, sizeof(*e->nodes)))
		return -1;
	e->nodes[e->n] = (struct node){ .op = op, .a = a, .b = b, .fn = -1, .slot = -1,
					.depth = 1 + (da > db ? da : db) };
	return e->n++;
}

/* Allocate an empty expression, or NULL. */
static struct lc_expr *expr_new(void)
{
	struct lc_expr *e = calloc(1, sizeof(*e));

	if (e)
		e->root = -1;
	return e;
}

/* Skip blanks at the parse position. */
static void skip_ws(struct parser *ps)
{
	while (isspace((unsigned char)*ps->pos))
		ps->pos++;
}

/* If the text at the parse position (after blanks) starts with tok, consume
 * it and return 1; otherwise return 0.  Word tokens must end at a non-name
 * character. */
static int accept(struct parser *ps, const char *tok)
{
	size_t len = strlen(tok);

	skip_ws(ps);
	if (strncmp(ps->pos, tok, len))
		return 0;
	if (isalpha((unsigned char)tok[0]) &&
	    (isalnum((unsigned char)ps->pos[len]) || ps->pos[len] == '_'))
		return 0;
	ps->pos += len;
	return 1;
}

static int parse_or(struct parser *ps);
static int parse_unary(struct parser *ps);

/* Append a node to the parsed expression; its index, or -1 after "out of
 * memory" at the text at. */
static int new_node(struct parser *ps, const char *at, enum op op, int a, int b)
{
	int i;

	if (depth_of(ps->e, a) >= LC_EXPR_MAX_DEPTH || depth_of(ps->e, b) >= LC_EXPR_MAX_DEPTH)
		return fail(ps, at, "more than %d levels of operations (terms, factors or "
			    "calls in a row): refused", LC_EXPR_MAX_DEPTH);
	i = add_node(ps->e, op, a, b);
	return i < 0 ? fail(ps, at, "out of memory") : i;
}

/* Make a binary node of a and b (-1 when either failed). */
static int binary(struct parser *ps, enum op op, int a, int b)
{
	if (a < 0 || b < 0)
		return -1;
	return new_node(ps, ps->pos, op, a, b);
}

/* Look up a function name; returns its index or -1. */
static int find_fn(const char *name, size_t len)
{
	for (size_t i = 0; i < NFN; i++)
		if (strlen(fntab[i].name) == len && !strncmp(fntab[i].name, name, len))
			return (int)i;
	return -1;
}

/* Parse a function call's arguments after "name(" and build the node. */
static int parse_call(struct parser *ps, const char *name, int fn)
{
	int args[2] = { -1, -1 }, nargs = 0, i;

	for (;;) {
		if (nargs == 2)
			return fail(ps, ps->pos, "too many arguments to %s()", fntab[fn].name);
		args[nargs++] = parse_or(ps);
		if (args[nargs - 1] < 0)
			return -1;
		if (accept(ps, ","))
			continue;
		if (accept(ps, ")"))
			break;
		skip_ws(ps);
		return fail(ps, ps->pos, *ps->pos ? "expected ',' or ')' in call of %s()"
				       : "missing ')' to close %s(", fntab[fn].name);
	}
	if (nargs != fntab[fn].arity)
		return fail(ps, name, "%s() takes %d argument%s, got %d", fntab[fn].name,
			    fntab[fn].arity, fntab[fn].arity == 1 ? "" : "s", nargs);
	i = new_node(ps, ps->pos, fntab[fn].arity == 1 ? OP_FN1 : OP_FN2, args[0], args[1]);
	if (i < 0)
		return -1;
	if (fn == FN_LOG)	/* resolved now, so that it prints with its base */
		fn = ps->flags & LC_EXPR_LOG2 ? FN_LOG2 : ps->flags & LC_EXPR_LOG10 ? FN_LOG10 : FN_LN;
	ps->e->nodes[i].fn = fn;
	return i;
}

/* Parse a name: a function call or a variable the resolver knows. */
static int parse_name(struct parser *ps)
{
	const char *start = ps->pos;
	size_t len;
	int fn, slot, i;

	while (isalnum((unsigned char)*ps->pos) || *ps->pos == '_')
		ps->pos++;
	len = (size_t)(ps->pos - start);
	if (accept(ps, "(")) {
		fn = find_fn(start, len);
		if (fn < 0)
			return fail(ps, start, "unknown function '%.*s'", (int)len, start);
		return parse_call(ps, start, fn);
	}
	slot = ps->resolve ? ps->resolve(ps->ctx, start, len) : -1;
	if (slot < 0)
		return fail(ps, start, "unknown variable '%.*s'", (int)len, start);
	if ((i = new_node(ps, start, OP_VAR, -1, -1)) >= 0)
		ps->e->nodes[i].slot = slot;
	return i;
}

/* Parse a number with strtod, refusing strtod's words (inf, nan, hex). */
static int parse_number(struct parser *ps)
{
	const char *start = ps->pos;
	char *end;
	double v;
	int i;

	if (start[0] == '0' && (start[1] == 'x' || start[1] == 'X'))
		return fail(ps, start, "hexadecimal numbers are not allowed");
	errno = 0;
	v = strtod(start, &end);
	if (end == start)
		return fail(ps, start, "expected a number");
	if (errno == ERANGE && isinf(v))
		return fail(ps, start, "number out of range");
	ps->pos = end;
	if ((i = new_node(ps, start, OP_NUM, -1, -1)) >= 0)
		ps->e->nodes[i].num = v;
	return i;
}

/* atom := NUMBER | NAME | NAME "(" args ")" | "(" or ")" */
static int parse_atom(struct parser *ps)
{
	const char *open;
	int i;

	skip_ws(ps);
	open = ps->pos;
	if (accept(ps, "(")) {
		i = parse_or(ps);
		if (i < 0)
			return -1;
		if (!accept(ps, ")"))
			return fail(ps, ps->pos, *ps->pos ? "expected ')' to match '(' at column %d"
					       : "missing ')' to match '(' at column %d",
				    (int)(open - ps->text) + 1);
		return i;
	}
	if (isdigit((unsigned char)*ps->pos) || (*ps->pos == '.' && isdigit((unsigned char)ps->pos[1])))
		return parse_number(ps);
	if (isalpha((unsigned char)*ps->pos) || *ps->pos == '_')
		return parse_name(ps);
	if (!*ps->pos)
		return fail(ps, ps->pos, "unexpected end of formula");
	return fail(ps, ps->pos, "unexpected '%c'", *ps->pos);
}

/* pow := atom ( ("^" | "**") unary )?  (right-associative through unary) */
static int parse_pow(struct parser *ps)
{
	int a = parse_atom(ps);

	if (a < 0)
		return -1;
	if (accept(ps, "**") || accept(ps, "^"))
		return binary(ps, OP_POW, a, parse_unary(ps));
	return a;
}

/* The body of parse_unary: a sign and its operand, or a pow. */
static int unary_body(struct parser *ps)
{
	int a;

	if (accept(ps, "-")) {
		a = parse_unary(ps);
		if (a < 0)
			return -1;
		return new_node(ps, ps->pos, OP_NEG, a, -1);
	}
	if (accept(ps, "+"))
		return parse_unary(ps);
	return parse_pow(ps);
}

/* unary := "-" unary | "+" unary | pow; every nesting (a bracket, a call,
 * a sign, an exponent) comes through here, so ps->nest bounds the
 * parser's recursion. */
static int parse_unary(struct parser *ps)
{
	int a;

	if (ps->nest >= LC_EXPR_MAX_NEST)
		return fail(ps, ps->pos, "nested more than %d deep (brackets, calls, signs or "
			    "exponents): refused", LC_EXPR_MAX_NEST);
	ps->nest++;
	a = unary_body(ps);
	ps->nest--;
	return a;
}

/* prod := unary ( ("*" | "/") unary )* */
static int parse_prod(struct parser *ps)
{
	int a = parse_unary(ps);

	while (a >= 0) {
		skip_ws(ps);
		if (ps->pos[0] == '*' && ps->pos[1] != '*' && accept(ps, "*"))
			a = binary(ps, OP_MUL, a, parse_unary(ps));
		else if (accept(ps, "/"))
			a = binary(ps, OP_DIV, a, parse_unary(ps));
		else
			break;
	}
	return a;
}

/* sum := prod ( ("+" | "-") prod )* */
static int parse_sum(struct parser *ps)
{
	int a = parse_prod(ps);

	while (a >= 0) {
		if (accept(ps, "+"))
			a = binary(ps, OP_ADD, a, parse_prod(ps));
		else if (accept(ps, "-"))
			a = binary(ps, OP_SUB, a, parse_prod(ps));
		else
			break;
	}
	return a;
}

/* The comparison operators, longest first so "<=" wins over "<". */
static const struct { const char *tok; enum op op; } cmptab[] = {
	{ "==", OP_EQ }, { "!=", OP_NE }, { "<=", OP_LE }, { ">=", OP_GE },
	{ "=", OP_EQ }, { "<", OP_LT }, { ">", OP_GT },
};

/* cmp := sum ( OP sum )? */
static int parse_cmp(struct parser *ps)
{
	int a = parse_sum(ps);

	if (a < 0)
		return -1;
	for (size_t i = 0; i < sizeof(cmptab) / sizeof(cmptab[0]); i++)
		if (accept(ps, cmptab[i].tok))
			return binary(ps, cmptab[i].op, a, parse_sum(ps));
	return a;
}

/* and := cmp ( ("&&" | "and") cmp )* */
static int parse_and(struct parser *ps)
{
	int a = parse_cmp(ps);

	while (a >= 0 && (accept(ps, "&&") || accept(ps, "and")))
		a = binary(ps, OP_AND, a, parse_cmp(ps));
	return a;
}

/* or := and ( ("||" | "or") and )* */
static int parse_or(struct parser *ps)
{
	int a = parse_and(ps);

	while (a >= 0 && (accept(ps, "||") || accept(ps, "or")))
		a = binary(ps, OP_OR, a, parse_and(ps));
	return a;
}

/* Set up a parser over text with a fresh expression; returns 0 or -ENOMEM. */
static int parser_init(struct parser *ps, const char *text, unsigned flags,
		       lc_resolve_fn resolve, void *ctx, struct lc_parse_error *err)
{
	*ps = (struct parser){ .text = text, .pos = text, .flags = flags,
			       .resolve = resolve, .ctx = ctx, .err = err };
	if (err) {
		err->column = 0;
		err->msg[0] = '\0';
	}
	ps->e = expr_new();
	if (!ps->e)
		return -ENOMEM;
	if (strnlen(text, LC_EXPR_MAX_LEN + 1) > LC_EXPR_MAX_LEN)
		fail(ps, text, "longer than %d characters: refused", LC_EXPR_MAX_LEN);
	return 0;
}

/* Finish a parse: check for trailing text, hand out or free the result. */
static int parser_finish(struct parser *ps, int root, struct lc_expr **out)
{
	skip_ws(ps);
	if (root >= 0 && *ps->pos)
		root = fail(ps, ps->pos, "unexpected '%c' after a complete expression", *ps->pos);
	if (root < 0) {
		lc_expr_free(ps->e);
		*out = NULL;
		return -EINVAL;
	}
	ps->e->root = root;
	ps->e->flags = ps->flags;
	*out = ps->e;
	return 0;
}

/* Parse text as one expression.  See lca_formula.h. */
int lc_expr_parse(const char *text, unsigned flags, lc_resolve_fn resolve, void *ctx,
		  struct lc_expr **out, struct lc_parse_error *err)
{
	struct parser ps;

	if (parser_init(&ps, text, flags, resolve, ctx, err))
		return -ENOMEM;
	return parser_finish(&ps, ps.failed ? -1 : parse_or(&ps), out);
}

/* Parse a list of conditions joined by commas or juxtaposition (both mean
 * "and").  See lca_formula.h. */
int lc_expr_parse_cond(const char *text, unsigned flags, lc_resolve_fn resolve, void *ctx,
		       struct lc_expr **out, struct lc_parse_error *err)
{
	struct parser ps;
	int root;

	if (parser_init(&ps, text, flags, resolve, ctx, err))
		return -ENOMEM;
	root = ps.failed ? -1 : parse_or(&ps);
	for (;;) {
		if (root < 0)
			break;
		accept(&ps, ",");
		skip_ws(&ps);
		if (!*ps.pos)
			break;
		root = binary(&ps, OP_AND, root, parse_or(&ps));
	}
	return parser_finish(&ps, root, out);
}

/* Evaluate a one-argument function. */
static double eval_fn1(int fn, double x, unsigned flags)
{
	switch (fn) {
	case FN_SQRT:	return sqrt(x);
	case FN_LOG:	return flags & LC_EXPR_LOG2 ? log2(x) : flags & LC_EXPR_LOG10 ? log10(x) : log(x);
	case FN_LN:	return log(x);
	case FN_LOG2:	return log2(x);
	case FN_LOG10:	return log10(x);
	case FN_EXP:	return exp(x);
	case FN_ABS:	return fabs(x);
	case FN_CEIL:	return ceil(x);
	case FN_FLOOR:	return floor(x);
	}
	return NAN;
}

/* Evaluate the subtree at node i. */
static double eval_node(const struct lc_expr *e, int i, const double *v)
{
	const struct node *n = &e->nodes[i];
	double a, b;

	switch (n->op) {
	case OP_NUM:	return n->num;
	case OP_VAR:	return v[n->slot];
	case OP_NEG:	return -eval_node(e, n->a, v);
	case OP_FN1:	return eval_fn1(n->fn, eval_node(e, n->a, v), e->flags);
	default:	break;
	}
	a = eval_node(e, n->a, v);
	b = eval_node(e, n->b, v);
	switch (n->op) {
	case OP_ADD:	return a + b;
	case OP_SUB:	return a - b;
	case OP_MUL:	return a * b;
	case OP_DIV:	return a / b;
	case OP_POW:	return pow(a, b);
	case OP_EQ:	return a == b;
	case OP_NE:	return !isnan(a) && !isnan(b) && a != b;
	case OP_LT:	return a < b;
	case OP_LE:	return a <= b;
	case OP_GT:	return a > b;
	case OP_GE:	return a >= b;
	case OP_AND:	return a != 0 && b != 0 && !isnan(a) && !isnan(b);
	case OP_OR:	return (a != 0 && !isnan(a)) || (b != 0 && !isnan(b));
	case OP_FN2:	return n->fn == FN_MAX ? fmax(a, b) : n->fn == FN_MIN ? fmin(a, b) : pow(a, b);
	default:	return NAN;
	}
}

/* Evaluate e.  See lca_formula.h. */
double lc_expr_eval(const struct lc_expr *e, const double *vals)
{
	return eval_node(e, e->root, vals);
}

/* Free e.  See lca_formula.h. */
void lc_expr_free(struct lc_expr *e)
{
	if (!e)
		return;
	free(e->nodes);
	free(e);
}

/* Precedence levels for printing, matching the grammar. */
enum { P_OR = 1, P_AND, P_CMP, P_SUM, P_PROD, P_UNARY, P_POW, P_ATOM };

/* The precedence of node i when printed. */
static int prec_of(const struct lc_expr *e, int i)
{
	const struct node *n = &e->nodes[i];

	switch (n->op) {
	case OP_OR:	return P_OR;
	case OP_AND:	return P_AND;
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
			return P_CMP;
	case OP_ADD: case OP_SUB:
			return P_SUM;
	case OP_MUL: case OP_DIV:
			return P_PROD;
	case OP_NEG:	return P_UNARY;
	case OP_POW:	return P_POW;
	case OP_NUM:	return n->num < 0 || signbit(n->num) ? P_UNARY : P_ATOM;
	default:	return P_ATOM;
	}
}

/* An output buffer that counts what it could not hold. */
struct out {
	char *buf;
	size_t len, used;
};

/* Append printf-formatted text to o. */
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;
	size_t room = o->used < o->len ? o->len - o->used : 0;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->used += (size_t)n;
}

static void print_node(struct out *o, const struct lc_expr *e, int i,
		       const char *const *names, int precision, int minprec);

/* Print the binary node i as "a OP b" with the right operand needing rprec. */
static void print_binary(struct out *o, const struct lc_expr *e, int i, const char *op,
			 const char *const *names, int precision, int lprec, int rprec)
{
	print_node(o, e, e->nodes[i].a, names, precision, lprec);
	put(o, "%s", op);
	print_node(o, e, e->nodes[i].b, names, precision, rprec);
}

/* Print node i, in parentheses when its precedence is below minprec. */
static void print_node(struct out *o, const struct lc_expr *e, int i,
		       const char *const *names, int precision, int minprec)
{
	const struct node *n = &e->nodes[i];
	int p = prec_of(e, i), paren = p < minprec;
	static const char *const opname[] = {
		[OP_ADD] = " + ", [OP_SUB] = " - ", [OP_MUL] = "*", [OP_DIV] = "/",
		[OP_EQ] = " = ", [OP_NE] = " != ", [OP_LT] = " < ", [OP_LE] = " <= ",
		[OP_GT] = " > ", [OP_GE] = " >= ", [OP_AND] = " && ", [OP_OR] = " || ",
	};

	if (paren)
		put(o, "(");
	switch (n->op) {
	case OP_NUM:	put(o, "%.*g", precision, n->num); break;
	case OP_VAR:	put(o, "%s", names[n->slot]); break;
	case OP_NEG:	put(o, "-"); print_node(o, e, n->a, names, precision, P_UNARY); break;
	case OP_POW:	print_binary(o, e, i, "^", names, precision, P_ATOM, P_UNARY); break;
	case OP_FN1:
	case OP_FN2:
		put(o, "%s(", fntab[n->fn].name);
		print_node(o, e, n->a, names, precision, P_OR);
		if (n->op == OP_FN2) {
			put(o, ", ");
			print_node(o, e, n->b, names, precision, P_OR);
		}
		put(o, ")");
		break;
	case OP_SUB: case OP_DIV:
		print_binary(o, e, i, opname[n->op], names, precision, p, p + 1);
		break;
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		print_binary(o, e, i, opname[n->op], names, precision, p + 1, p + 1);
		break;
	default:
		print_binary(o, e, i, opname[n->op], names, precision, p, p);
		break;
	}
	if (paren)
		put(o, ")");
}

/* Print e as text.  See lca_formula.h. */
int lc_expr_print(const struct lc_expr *e, const char *const *names, int precision,
		  char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	print_node(&o, e, e->root, names, precision, 0);
	return (int)o.used;
}

/* Report the slots read under node i. */
static void slots_node(const struct lc_expr *e, int i, void (*fn)(void *, int), void *ctx)
{
	if (i < 0)
		return;
	if (e->nodes[i].op == OP_VAR)
		fn(ctx, e->nodes[i].slot);
	slots_node(e, e->nodes[i].a, fn, ctx);
	slots_node(e, e->nodes[i].b, fn, ctx);
}

/* Call fn for each slot e reads.  See lca_formula.h. */
void lc_expr_slots(const struct lc_expr *e, void (*fn)(void *ctx, int slot), void *ctx)
{
	slots_node(e, e->root, fn, ctx);
}

/* Copy the subtree of src at node i into dst; returns the new index or -1. */
static int copy_node(struct lc_expr *dst, const struct lc_expr *src, int i)
{
	int a = -1, b = -1, j;

	if (src->nodes[i].a >= 0 && (a = copy_node(dst, src, src->nodes[i].a)) < 0)
		return -1;
	if (src->nodes[i].b >= 0 && (b = copy_node(dst, src, src->nodes[i].b)) < 0)
		return -1;
	j = add_node(dst, src->nodes[i].op, a, b);
	if (j < 0)
		return -1;
	dst->nodes[j].fn = src->nodes[i].fn;
	dst->nodes[j].slot = src->nodes[i].slot;
	dst->nodes[j].num = src->nodes[i].num;
	return j;
}

/* A new expression holding a copy of the subtree of src at node i. */
static struct lc_expr *subtree(const struct lc_expr *src, int i)
{
	struct lc_expr *e = expr_new();

	if (!e)
		return NULL;
	e->flags = src->flags;
	e->root = copy_node(e, src, i);
	if (e->root < 0) {
		lc_expr_free(e);
		return NULL;
	}
	return e;
}

/* Split the leading numeric factor off the subtree at i, building the rest
 * in dst.  Sets *coef (1 when there is none) and returns the index of the
 * rest in dst, -2 when the rest is empty (the term is a bare number), or -1
 * when out of memory. */
static int split_coef(struct lc_expr *dst, const struct lc_expr *src, int i, double *coef)
{
	const struct node *n = &src->nodes[i];
	int rest, b, one;

	if (n->op == OP_NUM) {
		*coef = n->num;
		return -2;
	}
	if (n->op == OP_NEG && src->nodes[n->a].op == OP_NUM) {
		*coef = -src->nodes[n->a].num;
		return -2;
	}
	if (n->op != OP_MUL && n->op != OP_DIV) {
		*coef = 1;
		return copy_node(dst, src, i);
	}
	rest = split_coef(dst, src, n->a, coef);
	if (rest == -1 || (b = copy_node(dst, src, n->b)) < 0)
		return -1;
	if (rest >= 0)
		return add_node(dst, n->op, rest, b);
	if (n->op == OP_MUL)
		return b;
	one = add_node(dst, OP_NUM, -1, -1);
	if (one < 0)
		return -1;
	dst->nodes[one].num = 1;
	return add_node(dst, OP_DIV, one, b);
}

/* Collect the terms of the sum at node i with the given sign and group. */
static int collect_terms(const struct lc_expr *e, int i, int sign, int group,
			 struct lc_term *t, int n, int max)
{
	const struct node *nd = &e->nodes[i];
	struct lc_expr *b;

	if (nd->op == OP_ADD || nd->op == OP_SUB) {
		n = collect_terms(e, nd->a, sign, group, t, n, max);
		if (n < 0)
			return n;
		return collect_terms(e, nd->b, nd->op == OP_SUB ? -sign : sign, group, t, n, max);
	}
	if (n == max)
		return -E2BIG;
	b = expr_new();
	if (!b)
		return -ENOMEM;
	b->flags = e->flags;
	t[n] = (struct lc_term){ .sign = sign, .group = group, .basis = b };
	b->root = split_coef(b, e, i, &t[n].coef);
	if (b->root == -2) {
		b->root = add_node(b, OP_NUM, -1, -1);
		if (b->root >= 0)
			b->nodes[b->root].num = 1;
	}
	if (b->root < 0) {
		lc_expr_free(b);
		return -ENOMEM;
	}
	return n + 1;
}

/* True when e is max(A, B) at the top.  See lca_formula.h. */
int lc_expr_is_max(const struct lc_expr *e)
{
	const struct node *n = &e->nodes[e->root];

	return n->op == OP_FN2 && n->fn == FN_MAX;
}

/* Split e into terms.  See lca_formula.h. */
int lc_expr_terms(const struct lc_expr *e, struct lc_term *terms, int max)
{
	int n;

	if (!lc_expr_is_max(e))
		n = collect_terms(e, e->root, 1, 0, terms, 0, max);
	else if ((n = collect_terms(e, e->nodes[e->root].a, 1, 1, terms, 0, max)) >= 0)
		n = collect_terms(e, e->nodes[e->root].b, 1, 2, terms, n, max);
	if (n < 0)
		for (int i = 0; i < max && terms[i].basis; i++)
			lc_expr_free(terms[i].basis);
	return n;
}

/* Add the terms of the sum at node i of e to formula f, unsigned. */
static int formula_terms(struct lc_formula *f, const struct lc_expr *e, int i)
{
	const struct node *n = &e->nodes[i];
	int r;

	if (n->op == OP_ADD || n->op == OP_SUB) {
		r = formula_terms(f, e, n->a);
		return r ? r : formula_terms(f, e, n->b);
	}
	if (n->op == OP_NEG)
		return formula_terms(f, e, n->a);
	if (n->op == OP_NUM && n->num == 0)
		return 0;	/* a zero term contributes nothing */
	if (f->nterms == LC_FORMULA_MAXTERMS)
		return -E2BIG;
	f->term[f->nterms] = subtree(e, i);
	if (!f->term[f->nterms])
		return -ENOMEM;
	f->nterms++;
	return 0;
}

/* Parse a formula.  See lca_formula.h. */
int lc_formula_parse(const char *text, unsigned flags, lc_resolve_fn resolve, void *ctx,
		     struct lc_formula **out, struct lc_parse_error *err)
{
	struct lc_expr *e = NULL;
	struct lc_formula *f = NULL;
	int r;

	*out = NULL;
	r = lc_expr_parse(text, flags, resolve, ctx, &e, err);
	if (r)
		goto out;
	r = -ENOMEM;
	f = calloc(1, sizeof(*f));
	if (!f)
		goto out;
	if (lc_expr_is_max(e)) {
		f->is_max = 1;
		r = formula_terms(f, e, e->nodes[e->root].a);
		f->na = f->nterms;
		if (!r)
			r = formula_terms(f, e, e->nodes[e->root].b);
		if (!r && (f->na == 0 || f->na == f->nterms)) {
			r = -EINVAL;
			if (err) {
				err->column = 1;
				snprintf(err->msg, sizeof(err->msg),
					 "both arguments of a threshold max() need terms");
			}
		}
	} else {
		r = formula_terms(f, e, e->root);
	}
	if (r == -E2BIG && err) {
		err->column = 1;
		snprintf(err->msg, sizeof(err->msg), "more than %d terms", LC_FORMULA_MAXTERMS);
	}
	if (!r) {
		*out = f;
		f = NULL;
	}
out:
	lc_formula_free(f);
	lc_expr_free(e);
	return r;
}

/* True when expression e is the number 1. */
static int is_one(const struct lc_expr *e)
{
	return e->nodes[e->root].op == OP_NUM && e->nodes[e->root].num == 1;
}

/* Print terms [from, to) of f as a sum, each times its coefficient. */
static void print_sum(struct out *o, const struct lc_formula *f, int from, int to,
		      const double *coef, const char *const *names, int cprec)
{
	if (from == to)
		put(o, "0");
	for (int i = from; i < to; i++) {
		const struct lc_expr *t = f->term[i];
		double c = coef ? coef[i] : 1;

		if (i > from)
			put(o, c < 0 && coef ? " - " : " + ");
		else if (c < 0 && coef)
			put(o, "-");
		if (coef && is_one(t)) {
			put(o, "%.*g", cprec, fabs(c));
			continue;
		}
		if (coef)
			put(o, "%.*g*", cprec, fabs(c));
		print_node(o, t, t->root, names, 10, coef ? P_PROD : P_SUM + 1);
	}
}

/* Print a formula with coefficients.  See lca_formula.h. */
int lc_formula_print(const struct lc_formula *f, const double *coef, const char *const *names,
		     int cprec, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	if (!f->is_max) {
		print_sum(&o, f, 0, f->nterms, coef, names, cprec);
		return (int)o.used;
	}
	put(&o, "max(");
	print_sum(&o, f, 0, f->na, coef, names, cprec);
	put(&o, ", ");
	print_sum(&o, f, f->na, f->nterms, coef, names, cprec);
	put(&o, ")");
	return (int)o.used;
}

/* Free f.  See lca_formula.h. */
void lc_formula_free(struct lc_formula *f)
{
	if (!f)
		return;
	for (int i = 0; i < f->nterms; i++)
		lc_expr_free(f->term[i]);
	free(f);
}

/* A copy of e.  See lca_formula.h. */
struct lc_expr *lc_expr_copy(const struct lc_expr *e)
{
	return subtree(e, e->root);
}

/* A formula with a subset of f's terms.  See lca_formula.h. */
struct lc_formula *lc_formula_subset(const struct lc_formula *f, const int *keep)
{
	struct lc_formula *g = calloc(1, sizeof(*g));
	int na = 0;

	if (!g)
		return NULL;
	for (int i = 0; i < f->nterms; i++) {
		if (!keep[i])
			continue;
		g->term[g->nterms] = lc_expr_copy(f->term[i]);
		if (!g->term[g->nterms]) {
			lc_formula_free(g);
			return NULL;
		}
		g->nterms++;
		na += f->is_max && i < f->na;
	}
	g->is_max = f->is_max && na > 0 && na < g->nterms;
	g->na = g->is_max ? na : 0;
	return g;
}
