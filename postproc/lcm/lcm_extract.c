/*
 * lcm_extract.c — build a structure file from annotated C sources (see
 * lcm.h and docs/structure.md, "Structure from the source").
 *
 * A scanner, not a C parser: it follows braces, skips strings and comments,
 * and recognises
 *   #pragma omp [parallel] sections { ... } a parallel node
 *   #pragma omp section { ... }             a serial node (one task)
 *   #pragma omp parallel for / for           a fragment: the loop after it
 *   LC_FRAGMENT_BEGIN(tag) ... LC_FRAGMENT_END(tag)   a fragment
 *   / * lcm: LINE ... * /                    lines for the next node
 * Everything else is code outside any fragment (not modelled).  The
 * contents of a fragment are not looked into.
 */
#include "lc_util.h"
#include "lcm.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XMAXNODES 256
#define XMAXCHILD 32
#define XMAXDEPTH 32
#define XMAXCONST 256

enum xkind { X_SERIAL, X_PARALLEL, X_FRAGMENT };

struct xnode {
	enum xkind kind;
	char name[64];
	const char *file;
	int line;
	char *attrs;			/* attribute lines, each ending in '\n' */
	int nchild;
	int child[XMAXCHILD];
};

struct xs {
	struct xnode nodes[XMAXNODES];
	int nnodes;
	int stack[XMAXDEPTH];		/* open nodes */
	int close_depth[XMAXDEPTH];	/* brace depth that closes them (-1: not open yet) */
	int depth_sp;
	int nconst;			/* integer constants of the sources and their headers */
	char cname[XMAXCONST][64];
	long long cval[XMAXCONST];
	char *pending;			/* lcm: lines for the next node */
	char *global;			/* size and transfer lines */
	struct lc_at at;		/* the file, the line, the reason */
	const char *t;			/* the text */
	size_t i, n;
	int braces;
};

/* Append line (with a newline) to *buf. */
static int append(char **buf, const char *line, size_t n)
{
	size_t old = *buf ? strlen(*buf) : 0;
	char *b = realloc(*buf, old + n + 2);

	if (!b)
		return -ENOMEM;
	memcpy(b + old, line, n);
	b[old + n] = '\n';
	b[old + n + 1] = '\0';
	*buf = b;
	return 0;
}

/* A "name:" line among the pending ones: take it as the node's name. */
static void take_name(char *attrs, char *name, size_t len)
{
	char *p = attrs;

	while (p && *p) {
		char *eol = strchr(p, '\n');

		if (!strncmp(p, "name:", 5)) {
			char *v = p + 5;
			size_t k;

			while (*v == ' ' || *v == '\t')
				v++;
			k = strcspn(v, " \t\n");
			snprintf(name, len, "%.*s", (int)k, v);
			memmove(p, eol + 1, strlen(eol + 1) + 1);
			continue;
		}
		p = eol ? eol + 1 : NULL;
	}
}

/* A new node of kind k as a child of the innermost open node. */
static int new_node(struct xs *x, enum xkind k, const char *defname)
{
	struct xnode *nd;
	int parent = x->stack[x->depth_sp - 1];

	if (x->nnodes == XMAXNODES || x->nodes[parent].nchild == XMAXCHILD)
		return lc_fail_at(&x->at, "too many nodes");
	nd = &x->nodes[x->nnodes];
	memset(nd, 0, sizeof(*nd));
	nd->kind = k;
	nd->file = x->at.file;
	nd->line = x->at.line;
	snprintf(nd->name, sizeof(nd->name), "%s", defname);
	nd->attrs = x->pending;
	x->pending = NULL;
	if (nd->attrs)
		take_name(nd->attrs, nd->name, sizeof(nd->name));
	x->nodes[parent].child[x->nodes[parent].nchild++] = x->nnodes;
	return x->nnodes++;
}

/* Advance over one character, counting lines. */
static void step(struct xs *x)
{
	if (x->t[x->i] == '\n')
		x->at.line++;
	x->i++;
}

/* Skip a string or character literal starting at x->i. */
static void skip_literal(struct xs *x)
{
	char q = x->t[x->i];

	step(x);
	while (x->i < x->n && x->t[x->i] != q) {
		if (x->t[x->i] == '\\' && x->i + 1 < x->n)
			step(x);
		step(x);
	}
	if (x->i < x->n)
		step(x);
}

/* A comment at x->i: collect lcm: lines. */
static int comment(struct xs *x)
{
	size_t start, end;
	int block = x->t[x->i + 1] == '*', first = 1, rc;

	x->i += 2;
	start = x->i;
	if (block) {
		const char *e = strstr(x->t + x->i, "*/");

		end = e ? (size_t)(e - x->t) : x->n;
	} else {
		end = x->i + strcspn(x->t + x->i, "\n");
	}
	/* look at each line of the comment */
	for (size_t p = start; p < end;) {
		size_t q = p, eol;

		while (q < end && x->t[q] != '\n')
			q++;
		eol = q;
		while (p < eol && (isspace((unsigned char)x->t[p]) || x->t[p] == '*'))
			p++;
		if (eol - p >= 4 && !strncmp(x->t + p, "lcm:", 4))
			p += 4;
		else if (first)
			break;		/* not an lcm comment */
		first = 0;
		while (p < eol && isspace((unsigned char)x->t[p]))
			p++;
		while (eol > p && isspace((unsigned char)x->t[eol - 1]))
			eol--;
		if (eol > p) {
			int global = (eol - p > 5 && !strncmp(x->t + p, "size ", 5)) ||
				     (eol - p > 9 && !strncmp(x->t + p, "transfer ", 9));

			if ((rc = append(global ? &x->global : &x->pending, x->t + p, eol - p)))
				return rc;
		}
		p = q + 1;
	}
	while (x->i < end)
		step(x);
	if (block && x->i < x->n)
		x->i += 2;
	return 0;
}

/* Skip blanks and comments (not collecting). */
static void skip_space(struct xs *x)
{
	for (;;) {
		while (x->i < x->n && isspace((unsigned char)x->t[x->i]))
			step(x);
		if (x->i + 1 < x->n && x->t[x->i] == '/' && x->t[x->i + 1] == '*') {
			x->i += 2;
			while (x->i + 1 < x->n && !(x->t[x->i] == '*' && x->t[x->i + 1] == '/'))
				step(x);
			x->i += 2;
		} else if (x->i + 1 < x->n && x->t[x->i] == '/' && x->t[x->i + 1] == '/') {
			while (x->i < x->n && x->t[x->i] != '\n')
				step(x);
		} else {
			return;
		}
	}
}

/* Skip a balanced (...) or {...} starting at x->i. */
static void skip_balanced(struct xs *x, char open, char close)
{
	int d = 0;

	while (x->i < x->n) {
		char c = x->t[x->i];

		if (c == '"' || c == '\'') {
			skip_literal(x);
			continue;
		}
		if (c == '/' && x->i + 1 < x->n && (x->t[x->i + 1] == '*' || x->t[x->i + 1] == '/')) {
			skip_space(x);
			continue;
		}
		step(x);
		if (c == open)
			d++;
		else if (c == close && --d == 0)
			return;
	}
}

/* Skip one statement: a block, or up to its ';' (a for or while header
 * first). */
static void skip_statement(struct xs *x)
{
	skip_space(x);
	if (x->t[x->i] == '{') {
		skip_balanced(x, '{', '}');
		return;
	}
	if (!strncmp(x->t + x->i, "for", 3) || !strncmp(x->t + x->i, "while", 5)) {
		while (x->i < x->n && x->t[x->i] != '(')
			step(x);
		skip_balanced(x, '(', ')');
		skip_statement(x);
		return;
	}
	while (x->i < x->n && x->t[x->i] != ';') {
		if (x->t[x->i] == '"' || x->t[x->i] == '\'')
			skip_literal(x);
		else if (x->t[x->i] == '{')
			skip_balanced(x, '{', '}');
		else
			step(x);
	}
	if (x->i < x->n)
		step(x);
}

/* Open a node that a following block holds. */
static int open_block(struct xs *x, int node)
{
	if (x->depth_sp == XMAXDEPTH)
		return lc_fail_at(&x->at, "nested too deeply");
	x->stack[x->depth_sp] = node;
	x->close_depth[x->depth_sp] = -1;	/* set at its '{' */
	x->depth_sp++;
	skip_space(x);
	if (x->i >= x->n || x->t[x->i] != '{')
		return lc_fail_at(&x->at, "put the block after this pragma in braces");
	return 0;
}

/* A "#pragma omp ..." line (already read into buf). */
static int pragma(struct xs *x, const char *buf)
{
	char def[64];
	int nd;

	if (strstr(buf, "sections")) {
		snprintf(def, sizeof(def), "sections_%d", x->at.line);
		if ((nd = new_node(x, X_PARALLEL, def)) < 0)
			return nd;
		return open_block(x, nd);
	}
	if (strstr(buf, "section")) {
		if (x->nodes[x->stack[x->depth_sp - 1]].kind != X_PARALLEL)
			return lc_fail_at(&x->at, "'omp section' outside 'omp parallel sections'");
		snprintf(def, sizeof(def), "section_%d", x->at.line);
		if ((nd = new_node(x, X_SERIAL, def)) < 0)
			return nd;
		return open_block(x, nd);
	}
	if (strstr(buf, " for")) {
		snprintf(def, sizeof(def), "loop_%d", x->at.line);
		if ((nd = new_node(x, X_FRAGMENT, def)) < 0)
			return nd;
		skip_statement(x);
		return 0;
	}
	return 0;
}

/* A preprocessor line at x->i. */
static int directive(struct xs *x)
{
	char buf[512];
	size_t k = 0;
	int line = x->at.line;

	while (x->i < x->n && x->t[x->i] != '\n') {
		if (x->t[x->i] == '\\' && x->i + 1 < x->n && x->t[x->i + 1] == '\n')
			step(x);
		else if (k + 1 < sizeof(buf))
			buf[k++] = x->t[x->i] == '\t' ? ' ' : x->t[x->i];
		step(x);
	}
	buf[k] = '\0';
	if (!strstr(buf, "pragma") || !strstr(buf, "omp"))
		return 0;
	x->at.line = line;		/* nodes are named by the pragma's line */
	{
		int rc = pragma(x, buf);

		return rc;
	}
}

/* Remember the constant name = v (the first definition wins). */
static void add_const(struct xs *x, const char *name, size_t n, long long v)
{
	if (x->nconst == XMAXCONST || n >= sizeof(x->cname[0]))
		return;
	for (int i = 0; i < x->nconst; i++)
		if (strlen(x->cname[i]) == n && !strncmp(x->cname[i], name, n))
			return;
	snprintf(x->cname[x->nconst], sizeof(x->cname[0]), "%.*s", (int)n, name);
	x->cval[x->nconst++] = v;
}

/* The length of the identifier at p. */
static size_t ident(const char *p)
{
	size_t n = 0;

	if (isalpha((unsigned char)*p) || *p == '_')
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
	return n;
}

/* "#define NAME INTEGER" after the '#' at p: NAME's value collected.
 * Where the scan goes on. */
static const char *collect_define(struct xs *x, const char *p)
{
	const char *q = p + 1 + strspn(p + 1, " \t") + 6, *v;
	size_t n;
	char *end;
	long long val;

	q += strspn(q, " \t");
	n = ident(q);
	v = q + n + strspn(q + n, " \t");
	val = strtoll(v, &end, 0);
	if (n && end != v && (*end == '\n' || *end == ' ' || *end == '\t' || !*end))
		add_const(x, q, n, val);
	return q;
}

/* The members of the "enum { ... }" whose '{' is q and '}' close: each
 * one's value (given, or the previous one's plus 1) collected. */
static void collect_members(struct xs *x, const char *q, const char *close)
{
	long long next = 0;

	for (q++; q < close;) {
		size_t n;
		char *end;

		q += strspn(q, " \t\n,");
		if (!(n = ident(q)))
			break;
		end = (char *)q + n;
		end += strspn(end, " \t\n");
		if (*end == '=') {
			const char *v = end + 1 + strspn(end + 1, " \t");

			next = strtoll(v, &end, 0);
			if (end == v)
				break;
		}
		add_const(x, q, n, next++);
		q = strchr(end, ',');
		if (!q || q > close)
			break;
	}
}

/* "enum" at p: the members of its body, when it has one before the next
 * ';'.  Where the scan goes on. */
static const char *collect_enum(struct xs *x, const char *p)
{
	const char *q = strchr(p, '{'), *close = q ? strchr(q, '}') : NULL;

	p += 4;
	if (!q || !close || strchr(p, ';') < q)
		return p;
	collect_members(x, q, close);
	return close;
}

/* The integer constants of text t: "#define NAME INTEGER" and the members
 * of "enum { A = 1, B, ... }" (a member without a value is the previous
 * one's plus 1).  Enough to give a fragment tag named by a constant its
 * number; anything more complex is not followed. */
static void collect_consts(struct xs *x, const char *t)
{
	for (const char *p = t; (p = strpbrk(p, "#e"));) {
		if (*p == '#' && !strncmp(p + 1 + strspn(p + 1, " \t"), "define", 6))
			p = collect_define(x, p);
		else if (*p == 'e' && !strncmp(p, "enum", 4) && !ident(p + 4) &&
			 (p == t || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')))
			p = collect_enum(x, p);
		else
			p++;
	}
}

/* The value of a tag written as tag: an integer, or a constant collected
 * from the sources; 0 and *v set, or -1. */
static int tag_value(const struct xs *x, const char *tag, long long *v)
{
	char *end;

	*v = strtoll(tag, &end, 0);
	if (end != tag && !*end)
		return 0;
	for (int i = 0; i < x->nconst; i++)
		if (!strcmp(x->cname[i], tag)) {
			*v = x->cval[i];
			return 0;
		}
	return -1;
}

/* LC_FRAGMENT_BEGIN(tag) at x->i: a fragment up to LC_FRAGMENT_END(tag). */
static int fragment_tag(struct xs *x)
{
	char tag[64], def[80], end[96], line[96];
	size_t k = 0;
	const char *e;
	long long v;
	int nd;

	x->i += strlen("LC_FRAGMENT_BEGIN");
	skip_space(x);
	if (x->t[x->i] != '(')
		return lc_fail_at(&x->at, "LC_FRAGMENT_BEGIN without '('");
	step(x);
	while (x->i < x->n && x->t[x->i] != ')') {
		if (!isspace((unsigned char)x->t[x->i]) && k + 1 < sizeof(tag))
			tag[k++] = x->t[x->i];
		step(x);
	}
	tag[k] = '\0';
	snprintf(def, sizeof(def), "%s%s", isdigit((unsigned char)tag[0]) ? "tag" : "", tag);
	for (char *p = def; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			*p = '_';
	if ((nd = new_node(x, X_FRAGMENT, def)) < 0)
		return nd;
	if (!tag_value(x, tag, &v) && !(x->nodes[nd].attrs && strstr(x->nodes[nd].attrs, "tag:"))) {
		snprintf(line, sizeof(line), "tag: %lld", v);
		if (append(&x->nodes[nd].attrs, line, strlen(line)))
			return -ENOMEM;
	}
	snprintf(end, sizeof(end), "LC_FRAGMENT_END(%s)", tag);
	e = strstr(x->t + x->i, end);
	if (!e)
		return lc_fail_at(&x->at, "LC_FRAGMENT_BEGIN(%s) without %s", tag, end);
	while (x->t + x->i < e + strlen(end))
		step(x);
	return 0;
}

/* Scan one file's text. */
static int scan(struct xs *x)
{
	int bol = 1, rc = 0;

	while (!rc && x->i < x->n) {
		char c = x->t[x->i];

		if (c == '"' || c == '\'') {
			skip_literal(x);
		} else if (c == '/' && x->i + 1 < x->n && (x->t[x->i + 1] == '*' || x->t[x->i + 1] == '/')) {
			rc = comment(x);
		} else if (c == '#' && bol) {
			rc = directive(x);
		} else if (c == '{') {
			x->braces++;
			if (x->depth_sp > 1 && x->close_depth[x->depth_sp - 1] < 0)
				x->close_depth[x->depth_sp - 1] = x->braces;
			step(x);
		} else if (c == '}') {
			while (x->depth_sp > 1 && x->close_depth[x->depth_sp - 1] == x->braces)
				x->depth_sp--;
			x->braces--;
			step(x);
		} else if (c == 'L' && !strncmp(x->t + x->i, "LC_FRAGMENT_BEGIN", 17) &&
			   (x->i == 0 || !(isalnum((unsigned char)x->t[x->i - 1]) || x->t[x->i - 1] == '_'))) {
			rc = fragment_tag(x);
		} else {
			step(x);
		}
		if (x->i > 0 && x->i <= x->n)
			bol = x->t[x->i - 1] == '\n' || (bol && isspace((unsigned char)x->t[x->i - 1]));
	}
	return rc;
}

/* Read a whole file. */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, used = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t r;

		if (used + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = 2 * cap + 8192);

			if (!b)
				break;
			buf = b;
		}
		r = fread(buf + used, 1, cap - used - 1, f);
		used += r;
		if (r == 0)
			break;
	}
	fclose(f);
	if (buf)
		buf[used] = '\0';
	*n = used;
	return buf;
}

/* Collect the constants of text t (of the file at path) and of the headers
 * it includes with #include "NAME", from path's folder. */
static void collect_includes(struct xs *x, const char *path, const char *t)
{
	const char *slash = strrchr(path, '/');

	collect_consts(x, t);
	for (const char *p = t; (p = strstr(p, "#include \""));) {
		char inc[4096];
		size_t n = strcspn(p + 10, "\"\n"), hn;
		char *h;

		snprintf(inc, sizeof(inc), "%.*s%.*s", slash ? (int)(slash - path + 1) : 0, path, (int)n, p + 10);
		if ((h = slurp(inc, &hn))) {
			collect_consts(x, h);
			free(h);
		}
		p += 10 + n;
	}
}

/* Scan the file at path into x's structure, below its root. */
static int scan_file(struct xs *x, const char *path)
{
	char *t = slurp(path, &x->n);
	int rc;

	if (!t)
		return lc_fail(x->at.msg, x->at.len, errno ? -errno : -ENOMEM, "%s: %s", path,
			       strerror(errno ? errno : ENOMEM));
	collect_includes(x, path, t);
	x->at.file = path;
	x->t = t;
	x->i = 0;
	x->at.line = 1;
	x->braces = 0;
	x->depth_sp = 1;
	x->stack[0] = 0;
	rc = scan(x);
	if (!rc && x->pending)
		rc = lc_fail(x->at.msg, x->at.len, -EINVAL, "%s: an lcm: comment at the end is not followed by a node",
			     path);
	free(t);
	return rc;
}

/* Make every node's name unique (a repeated name gets _2, _3, ...), with
 * a note naming the renamed node's place and the node that has the name. */
static void unique_names(struct xs *x, char *notes, size_t nlen)
{
	for (int i = 1; i < x->nnodes; i++) {
		int k = 1, first = -1;
		char base[64];

		snprintf(base, sizeof(base), "%s", x->nodes[i].name);
		for (int j = 0; j < i; j++)
			if (!strcmp(x->nodes[j].name, x->nodes[i].name)) {
				if (first < 0)
					first = j;
				snprintf(x->nodes[i].name, sizeof(x->nodes[i].name), "%.50s_%d", base, ++k);
				j = -1;
			}
		if (first == 0)
			lc_append_line(notes, nlen, "%s:%d: node '%s' renamed '%s': 'main' is the root node of "
				       "an extracted structure", x->nodes[i].file, x->nodes[i].line, base,
				       x->nodes[i].name);
		else if (first > 0)
			lc_append_line(notes, nlen, "%s:%d: node '%s' renamed '%s': %s:%d has that name",
				       x->nodes[i].file, x->nodes[i].line, base, x->nodes[i].name,
				       x->nodes[first].file, x->nodes[first].line);
	}
}

/* True when node i holds a fragment somewhere below. */
static int has_fragment(const struct xs *x, int i)
{
	if (x->nodes[i].kind == X_FRAGMENT)
		return 1;
	for (int c = 0; c < x->nodes[i].nchild; c++)
		if (has_fragment(x, x->nodes[i].child[c]))
			return 1;
	return 0;
}

/* Write node i and its subtree as structure text. */
static int emit(const struct xs *x, int i, char **out)
{
	const struct xnode *nd = &x->nodes[i];
	static const char *const kw[] = { "serial", "parallel", "fragment" };
	char line[2048];
	size_t used;
	int rc;

	used = (size_t)snprintf(line, sizeof(line), "%s %s", kw[nd->kind], nd->name);
	for (int c = 0, first = 1; c < nd->nchild; c++)
		if (has_fragment(x, nd->child[c])) {
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%s %s", first ? ":" : "",
						 x->nodes[nd->child[c]].name);
			first = 0;
		}
	if (nd->file)
		used += (size_t)snprintf(line + used, sizeof(line) - used, "    # %s:%d", nd->file, nd->line);
	if ((rc = append(out, line, strlen(line))))
		return rc;
	for (const char *p = nd->attrs; p && *p;) {
		size_t k = strcspn(p, "\n");

		snprintf(line, sizeof(line), "    %.*s", (int)k, p);
		if ((rc = append(out, line, strlen(line))))
			return rc;
		p += k + (p[k] == '\n');
	}
	for (int c = 0; c < nd->nchild; c++)
		if (has_fragment(x, nd->child[c]) && (rc = emit(x, nd->child[c], out)))
			return rc;
	return 0;
}

/* Extract.  See lcm.h. */
int lcm_extract(const char *const *paths, int n, char **text, char *notes, size_t nlen, char *msg,
		size_t len)
{
	struct xs *x = calloc(1, sizeof(*x));
	char *out = NULL, head[512];
	int rc = 0;

	*text = NULL;
	if (!x)
		return -ENOMEM;
	x->at.msg = msg;
	x->at.len = len;
	x->nnodes = 1;
	snprintf(x->nodes[0].name, sizeof(x->nodes[0].name), "main");
	x->nodes[0].kind = X_SERIAL;
	for (int f = 0; f < n && !rc; f++)
		rc = scan_file(x, paths[f]);
	if (!rc && !has_fragment(x, 0))
		rc = lc_fail(msg, len, -EINVAL, "%s: no fragments (omp parallel for, LC_FRAGMENT_BEGIN)", paths[0]);
	if (!rc) {
		unique_names(x, notes, nlen);
		snprintf(head, sizeof(head), "# structure extracted by lostcycles compose --extract from %s%s",
			 paths[0], n > 1 ? " and others" : "");
		rc = append(&out, head, strlen(head));
	}
	if (!rc && x->global)
		rc = append(&out, x->global, strlen(x->global) - 1);
	if (!rc)
		rc = emit(x, 0, &out);
	for (int i = 0; i < x->nnodes; i++)
		free(x->nodes[i].attrs);
	free(x->pending);
	free(x->global);
	free(x);
	if (rc)
		free(out);
	else
		*text = out;
	return rc;
}
