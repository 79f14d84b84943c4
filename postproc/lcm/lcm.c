/*
 * lcm.c — structure files: reading, the checks of section 6.1.1, and
 * composition of fragment models (see lcm.h and docs/structure.md).
 */
#include "lc_util.h"
#include "lcm.h"
#include "lca_formula.h"
#include "lca_predict.h"

#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NAMELEN 64
#define MAXNODES 256
#define MAXCHILD 32
#define MAXOV 8
#define MAXDATA 16
#define MAXDEPTH 32
#define MAXSIZES 32
#define MAXINST 1024
#define MAXXFER 16

enum kind { K_SERIAL, K_PARALLEL, K_FRAGMENT, K_LEAF };
static const char *const kind_name[] = { "serial", "parallel", "fragment", "leaf" };

/* An expression with its text and where it was written. */
struct text_expr {
	char *text;
	struct lc_expr *e;
};

struct override {
	char var[32];
	struct text_expr x;
};

struct node {
	char name[NAMELEN];
	enum kind kind;
	int line;
	int nchild;
	char *childname[MAXCHILD];
	int child[MAXCHILD];		/* node index, -1 for a leaf */
	char *modelpath;		/* as written */
	char *inline_model;		/* "model:" lines */
	struct lc_model *model;
	int nin, nout;
	char *in[MAXDATA], *out[MAXDATA];
	int nov;
	struct override ov[MAXOV];
	char after[NAMELEN];
	int after_idx;			/* sibling position in the parent, set at eval */
	struct text_expr iters;
	double got_cl;			/* during lcm_eval: communication the data traces added */
	int visits;
	int has_tag;			/* "tag: N": the fragment's tag in a trace */
	int64_t tag;
	double t_last;			/* during lcm_eval: T of its latest visit */
};

struct size_decl {
	char item[NAMELEN];
	int line;
	struct text_expr x;
};

/* A fragment visit in the depth-first, left-to-right walk of the tree the
 * DAG unfolds to, and the data items it receives. */
struct inst {
	int node;
	int depth;
	int pos[MAXDEPTH];		/* child positions from the root */
	int kinds[MAXDEPTH + 1];	/* kinds of the nodes on the path */
	int nx;
	const char *xfer[MAXXFER];
};

struct lcm {
	char name[256], dir[4096];
	int nnodes, root;
	struct node *nodes;
	int nsizes;
	struct size_decl sizes[MAXSIZES];
	double latency, bandwidth;
	int have_transfer;
	char *basepath;			/* "measured FILE": where the fragments were measured */
	struct lcm *base;
	const struct lc_strace *trace;	/* --critical-path: the recorded synchronization trace */
	char trace_name[256];
	/* after lcm_bind */
	int nbound, nvars, tvar, pvar;
	char *vars[LCM_MAXVARS];
	int ninst;
	struct inst *inst;
	/* during lcm_eval */
	struct lc_clip clip;
	int visit;
	char *msg;
	size_t len;
};

/* A node's value during composition. */
struct val {
	double c[LC_NKEY];
	double t, p;
	double *h;			/* [nnodes][LC_NKEY]: half widths carried up */
};

/* ---- reading ------------------------------------------------------------ */

/* Reader state. */
struct rd {
	struct lcm *s;
	struct lc_at at;	/* the file (s->name), the line, the reason */
	struct node *cur;
	char rootname[NAMELEN];
};

/* Skip blanks. */
static char *skip(char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* Cut trailing blanks. */
static void rtrim(char *p)
{
	size_t n = strlen(p);

	while (n && isspace((unsigned char)p[n - 1]))
		p[--n] = '\0';
}

/* Read a name at *p into buf; 0 or -1 when there is none or it is too long. */
static int word(char **p, char *buf, size_t len)
{
	char *q = *p;
	size_t n = 0;

	while (isalnum((unsigned char)q[n]) || q[n] == '_' || q[n] == '.' || q[n] == '-' ||
	       q[n] == '(' || q[n] == ')' || q[n] == ',')
		n++;
	if (!n || n >= len)
		return -1;
	memcpy(buf, q, n);
	buf[n] = '\0';
	*p = q + n;
	return 0;
}

/* The index of node name, or -1. */
static int find_node(const struct lcm *s, const char *name)
{
	for (int i = 0; i < s->nnodes; i++)
		if (!strcmp(s->nodes[i].name, name))
			return i;
	return -1;
}

/* A node declaration: "KIND NAME [: CHILD ...]". */
static int decl(struct rd *r, enum kind k, char *p)
{
	struct lcm *s = r->s;
	struct node *n;
	char name[NAMELEN];

	p = skip(p);
	if (word(&p, name, sizeof(name)) || strchr(name, '('))
		return lc_fail_at(&r->at, "expected a node name after '%s'", kind_name[k]);
	if (find_node(s, name) >= 0)
		return lc_fail_at(&r->at, "node '%s' is declared twice (first at line %d)", name,
			   s->nodes[find_node(s, name)].line);
	if (s->nnodes == MAXNODES)
		return lc_fail_at(&r->at, "more than %d nodes", MAXNODES);
	n = &s->nodes[s->nnodes++];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->kind = k;
	n->line = r->at.line;
	r->cur = k == K_LEAF ? NULL : n;
	if (k == K_LEAF)
		return 0;	/* the rest of a leaf line says where it is */
	p = skip(p);
	if (!*p)
		return 0;
	if (*p != ':')
		return lc_fail_at(&r->at, "expected ':' and the children of '%s'", name);
	p = skip(p + 1);
	while (*p) {
		char c[NAMELEN];

		if (word(&p, c, sizeof(c)) || strchr(c, '('))
			return lc_fail_at(&r->at, "node '%s': '%s' is not a node name", name, p);
		if (n->nchild == MAXCHILD)
			return lc_fail_at(&r->at, "node '%s' has more than %d children", name, MAXCHILD);
		if (!(n->childname[n->nchild++] = strdup(c)))
			return -ENOMEM;
		p = skip(p);
	}
	return 0;
}

/* Append "model:" text to the node's inline model. */
static int add_inline(struct node *n, const char *t)
{
	size_t old = n->inline_model ? strlen(n->inline_model) : 0;
	char *m = realloc(n->inline_model, old + strlen(t) + 2);

	if (!m)
		return -ENOMEM;
	strcpy(m + old, t);
	strcat(m + old, "\n");
	n->inline_model = m;
	return 0;
}

/* "input: a b" or "output: a b". */
static int data_list(struct rd *r, char *p, char **list, int *n)
{
	char item[NAMELEN];

	p = skip(p);
	while (*p) {
		if (word(&p, item, sizeof(item)))
			return lc_fail_at(&r->at, "node '%s': '%s' is not a data item name", r->cur->name, p);
		if (*n == MAXDATA)
			return lc_fail_at(&r->at, "node '%s': more than %d data items", r->cur->name, MAXDATA);
		if (!(list[(*n)++] = strdup(item)))
			return -ENOMEM;
		p = skip(p);
	}
	return 0;
}

/* "after: SIBLING / ITERS". */
static int after_line(struct rd *r, char *p)
{
	char *slash = strchr(p, '/');

	p = skip(p);
	if (!slash || word(&p, r->cur->after, sizeof(r->cur->after)) || skip(p) != slash)
		return lc_fail_at(&r->at, "node '%s': expected 'after: SIBLING / ITERATIONS'", r->cur->name);
	if (!(r->cur->iters.text = strdup(skip(slash + 1))) || !*r->cur->iters.text)
		return r->cur->iters.text ? lc_fail_at(&r->at, "node '%s': 'after:' needs the iterations", r->cur->name)
					  : -ENOMEM;
	return 0;
}

/* "tag: N": the fragment tag the program opens around the fragment. */
static int tag_line(struct rd *r, char *p)
{
	char *end;

	errno = 0;
	r->cur->tag = strtoll(skip(p), &end, 0);
	if (end == skip(p) || *skip(end) || errno)
		return lc_fail_at(&r->at, "node '%s': expected 'tag: N' (the integer of LC_FRAGMENT_BEGIN)", r->cur->name);
	r->cur->has_tag = 1;
	return 0;
}

/* "VAR = EXPR". */
static int override_line(struct rd *r, char *p)
{
	struct node *n = r->cur;
	char var[32], *eq;
	size_t k = 0;

	while (isalnum((unsigned char)p[k]) || p[k] == '_')
		k++;
	eq = skip(p + k);
	if (!k || k >= sizeof(var) || *eq != '=' || eq[1] == '=')
		return lc_fail_at(&r->at, "node '%s': expected model, model:, input:, output:, after:, tag: or VAR = EXPR, not '%s'",
			   n->name, p);
	memcpy(var, p, k);
	var[k] = '\0';
	if (n->nov == MAXOV)
		return lc_fail_at(&r->at, "node '%s': more than %d overrides", n->name, MAXOV);
	snprintf(n->ov[n->nov].var, sizeof(n->ov[n->nov].var), "%s", var);
	if (!(n->ov[n->nov].x.text = strdup(skip(eq + 1))))
		return -ENOMEM;
	if (!*n->ov[n->nov].x.text)
		return lc_fail_at(&r->at, "node '%s': '%s =' needs an expression", n->name, var);
	n->nov++;
	return 0;
}

/* An indented line: an attribute of the node above. */
static int attribute(struct rd *r, char *p)
{
	struct node *n = r->cur;

	if (!n)
		return lc_fail_at(&r->at, "an indented line belongs to the node above it, and there is none");
	if (!strncmp(p, "model:", 6)) {
		return add_inline(n, skip(p + 6));
	}
	if (!strncmp(p, "model", 5) && isspace((unsigned char)p[5])) {
		if (n->modelpath)
			return lc_fail_at(&r->at, "node '%s' names two model files", n->name);
		return (n->modelpath = strdup(skip(p + 5))) ? 0 : -ENOMEM;
	}
	if (!strncmp(p, "input:", 6))
		return data_list(r, p + 6, n->in, &n->nin);
	if (!strncmp(p, "output:", 7))
		return data_list(r, p + 7, n->out, &n->nout);
	if (!strncmp(p, "after:", 6))
		return after_line(r, p + 6);
	if (!strncmp(p, "tag:", 4))
		return tag_line(r, p + 4);
	return override_line(r, p);
}

/* "size ITEM = EXPR". */
static int size_line(struct rd *r, char *p)
{
	struct size_decl *d;
	char *eq;

	if (r->s->nsizes == MAXSIZES)
		return lc_fail_at(&r->at, "more than %d size lines", MAXSIZES);
	d = &r->s->sizes[r->s->nsizes];
	p = skip(p);
	if (word(&p, d->item, sizeof(d->item)) || *(eq = skip(p)) != '=')
		return lc_fail_at(&r->at, "expected 'size ITEM = BYTES'");
	d->line = r->at.line;
	if (!(d->x.text = strdup(skip(eq + 1))))
		return -ENOMEM;
	r->s->nsizes++;
	return 0;
}

/* "transfer latency=S bandwidth=B". */
static int transfer_line(struct rd *r, char *p)
{
	char *l = strstr(p, "latency="), *b = strstr(p, "bandwidth="), *e1, *e2;

	if (!l || !b)
		return lc_fail_at(&r->at, "expected 'transfer latency=SECONDS bandwidth=BYTES_PER_SECOND'");
	errno = 0;
	r->s->latency = strtod(l + 8, &e1);
	r->s->bandwidth = strtod(b + 10, &e2);
	if (e1 == l + 8 || e2 == b + 10 || errno || r->s->latency < 0 || r->s->bandwidth <= 0)
		return lc_fail_at(&r->at, "transfer: latency must be >= 0 and bandwidth > 0");
	r->s->have_transfer = 1;
	return 0;
}

/* True when p starts with the word w followed by a blank or the end. */
static int kw(const char *p, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(p, w, n) && (!p[n] || isspace((unsigned char)p[n]));
}

/* One line of a structure file. */
static int line(struct rd *r, char *buf)
{
	int indented = isspace((unsigned char)buf[0]);
	char *p = skip(buf);

	if (strncmp(p, "model:", 6)) {
		char *hash = strchr(p, '#');

		if (hash)
			*hash = '\0';
	}
	rtrim(p);
	if (!*p)
		return 0;
	if (indented)
		return attribute(r, p);
	if (kw(p, "serial"))
		return decl(r, K_SERIAL, p + 6);
	if (kw(p, "parallel"))
		return decl(r, K_PARALLEL, p + 8);
	if (kw(p, "fragment"))
		return decl(r, K_FRAGMENT, p + 8);
	if (kw(p, "leaf"))
		return decl(r, K_LEAF, p + 4);
	r->cur = NULL;
	if (kw(p, "root")) {
		p = skip(p + 4);
		return word(&p, r->rootname, sizeof(r->rootname)) ? lc_fail_at(&r->at, "expected 'root NAME'") : 0;
	}
	if (kw(p, "size"))
		return size_line(r, p + 4);
	if (kw(p, "transfer"))
		return transfer_line(r, p + 8);
	if (kw(p, "measured")) {
		if (r->s->basepath)
			return lc_fail_at(&r->at, "a second 'measured' line");
		return (r->s->basepath = strdup(skip(p + 8))) ? 0 : -ENOMEM;
	}
	return lc_fail_at(&r->at, "expected serial, parallel, fragment, leaf, root, size, transfer or measured, not '%s'", p);
}

/* Set the error "NAME:LINE: node 'X': ..." for node n. */
static int node_bad(struct lcm *s, const struct node *n, char *msg, size_t len, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return lc_fail(msg, len, -EINVAL, "%s:%d: node '%s': %s", s->name, n->line, n->name, buf);
}

/* Resolve children and check homogeneity (section 6.1.1). */
static int link_children(struct lcm *s, char *msg, size_t len)
{
	for (int i = 0; i < s->nnodes; i++) {
		struct node *n = &s->nodes[i];
		int leaves = 0, nodes = 0;
		const char *aleaf = NULL, *anode = NULL;

		if (n->kind == K_LEAF)
			continue;
		for (int c = 0; c < n->nchild; c++) {
			int j = find_node(s, n->childname[c]);

			if (j >= 0 && s->nodes[j].kind != K_LEAF) {
				if (n->kind == K_FRAGMENT)
					return node_bad(s, n, msg, len, "a fragment's children are leaves (source code), "
							"but '%s' is a %s node (line %d)", n->childname[c],
							kind_name[s->nodes[j].kind], s->nodes[j].line);
				n->child[c] = j;
				nodes++;
				anode = n->childname[c];
			} else if (j >= 0 || n->kind == K_FRAGMENT) {
				n->child[c] = -1;
				leaves++;
				aleaf = n->childname[c];
			} else {
				return node_bad(s, n, msg, len, "unknown node '%s' (declare it, or 'leaf %s')",
						n->childname[c], n->childname[c]);
			}
		}
		if (leaves && nodes)
			return node_bad(s, n, msg, len, "children must be all nodes or all leaves (the homogeneity "
					"rule): '%s' is a node, '%s' a leaf", anode, aleaf);
		if (leaves || !n->nchild)
			n->kind = n->kind == K_FRAGMENT || n->modelpath || n->inline_model || !n->nchild
					  ? K_FRAGMENT : n->kind;
		if (leaves && n->kind != K_FRAGMENT)
			return node_bad(s, n, msg, len, "its children are leaves, so it is a fragment and needs "
					"a model ('model FILE' or 'model:' lines)");
		if (nodes && (n->modelpath || n->inline_model))
			return node_bad(s, n, msg, len, "has a model but its children are nodes: only a penultimate "
					"node (whose children are leaves) is a fragment");
		if (n->kind == K_FRAGMENT && !n->modelpath && !n->inline_model)
			return node_bad(s, n, msg, len, "a fragment needs a model ('model FILE' or 'model:' lines)");
		if (n->has_tag && n->kind != K_FRAGMENT)
			return node_bad(s, n, msg, len, "has a tag but is not a fragment");
	}
	return 0;
}

/* Depth-first search for a cycle from node i; path holds the names. */
static int find_cycle(struct lcm *s, int i, int *state, int *stack, int depth, char *msg, size_t len)
{
	struct node *n = &s->nodes[i];

	if (state[i] == 2)
		return 0;
	if (state[i] == 1 || depth == MAXNODES) {
		char path[1024] = "";
		size_t used = 0;
		int from = 0;

		while (from < depth && stack[from] != i)
			from++;
		for (int k = from; k < depth && used < sizeof(path); k++)
			used += (size_t)snprintf(path + used, sizeof(path) - used, "%s -> ", s->nodes[stack[k]].name);
		return node_bad(s, n, msg, len, "the structure has a cycle: %s%s (a structure is a DAG)",
				path, n->name);
	}
	state[i] = 1;
	stack[depth] = i;
	for (int c = 0; c < n->nchild; c++) {
		int rc;

		if (n->child[c] >= 0 && (rc = find_cycle(s, n->child[c], state, stack, depth + 1, msg, len)))
			return rc;
	}
	state[i] = 2;
	return 0;
}

/* Read every fragment's model. */
static int load_models(struct lcm *s, char *msg, size_t len)
{
	for (int i = 0; i < s->nnodes; i++) {
		struct node *n = &s->nodes[i];
		char path[8192], m[256];
		int line = 0, rc;

		if (n->kind != K_FRAGMENT)
			continue;
		if (n->modelpath) {
			if (n->modelpath[0] == '/' || !s->dir[0])
				snprintf(path, sizeof(path), "%s", n->modelpath);
			else
				snprintf(path, sizeof(path), "%s/%s", s->dir, n->modelpath);
			rc = lc_model_read(path, &n->model, &line, m, sizeof(m));
			if (rc == -EINVAL)
				return node_bad(s, n, msg, len, "model %s:%d: %s", n->modelpath, line, m);
			if (rc)
				return node_bad(s, n, msg, len, "model %s: %s", n->modelpath, strerror(-rc));
		} else {
			rc = lc_model_read_text(n->inline_model, &n->model, &line, m, sizeof(m));
			if (rc == -EINVAL)
				return node_bad(s, n, msg, len, "model: line %d of its model: %s", line, m);
			if (rc)
				return node_bad(s, n, msg, len, "model: %s", strerror(-rc));
		}
	}
	return 0;
}

/* Read the structure named by "measured" (relative to this one's folder);
 * it must not name another. */
static int load_base(struct lcm *s, char *msg, size_t len)
{
	char path[8192], m[512];
	int rc;

	if (s->basepath[0] == '/' || !s->dir[0])
		snprintf(path, sizeof(path), "%s", s->basepath);
	else
		snprintf(path, sizeof(path), "%s/%s", s->dir, s->basepath);
	rc = lcm_read(path, &s->base, m, sizeof(m));
	if (rc)
		return lc_fail(msg, len, rc, "%s: measured %s: %s", s->name, s->basepath, m);
	if (s->base->basepath)
		return lc_fail(msg, len, -EINVAL, "%s: measured %s names another measured structure",
			       s->name, s->basepath);
	return 0;
}

/* Finish reading: root, links, cycles, models. */
static int finish(struct rd *r)
{
	struct lcm *s = r->s;
	int state[MAXNODES] = { 0 }, stack[MAXNODES], rc;

	if (!s->nnodes || s->nodes[0].kind == K_LEAF) {
		int i = 0;

		while (i < s->nnodes && s->nodes[i].kind == K_LEAF)
			i++;
		if (i == s->nnodes)
			return lc_fail(r->at.msg, r->at.len, -EINVAL, "%s: no nodes", s->name);
		s->root = i;
	}
	if (r->rootname[0] && (s->root = find_node(s, r->rootname)) < 0)
		return lc_fail(r->at.msg, r->at.len, -EINVAL, "%s: root '%s' is not a node", s->name, r->rootname);
	if ((rc = link_children(s, r->at.msg, r->at.len)))
		return rc;
	for (int i = 0; i < s->nnodes; i++)
		if (s->nodes[i].kind != K_LEAF && (rc = find_cycle(s, i, state, stack, 0, r->at.msg, r->at.len)))
			return rc;
	if ((rc = load_models(s, r->at.msg, r->at.len)))
		return rc;
	return s->basepath ? load_base(s, r->at.msg, r->at.len) : 0;
}

/* Read from a stream.  See lcm_read. */
static int read_stream(FILE *f, const char *name, const char *dir, struct lcm **out, char *msg, size_t len)
{
	struct rd r = { .at = { .msg = msg, .len = len } };
	char *buf = NULL;
	size_t cap = 0;
	int rc = 0;

	*out = NULL;
	r.s = calloc(1, sizeof(*r.s));
	if (!r.s || !(r.s->nodes = calloc(MAXNODES, sizeof(struct node)))) {
		free(r.s);
		fclose(f);
		return -ENOMEM;
	}
	snprintf(r.s->name, sizeof(r.s->name), "%s", name);
	r.at.file = r.s->name;
	snprintf(r.s->dir, sizeof(r.s->dir), "%s", dir ? dir : "");
	while (!rc && getline(&buf, &cap, f) >= 0) {
		r.at.line++;
		buf[strcspn(buf, "\r\n")] = '\0';
		rc = line(&r, buf);
	}
	free(buf);
	fclose(f);
	if (!rc)
		rc = finish(&r);
	if (rc)
		lcm_free(r.s);
	else
		*out = r.s;
	return rc;
}

/* Read a structure file.  See lcm.h. */
int lcm_read(const char *path, struct lcm **out, char *msg, size_t len)
{
	char *copy = strdup(path);
	FILE *f = fopen(path, "r");
	int rc;

	*out = NULL;
	if (!f || !copy) {
		rc = f ? -ENOMEM : -errno;
		if (f)
			fclose(f);
		free(copy);
		return lc_fail(msg, len, rc, "%s: %s", path, strerror(-rc));
	}
	rc = read_stream(f, path, dirname(copy), out, msg, len);
	free(copy);
	return rc;
}

/* Read a structure from text.  See lcm.h. */
int lcm_read_text(const char *text, const char *name, const char *dir, struct lcm **out,
		  char *msg, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text) + 1, "r");

	*out = NULL;
	if (!f)
		return lc_fail(msg, len, -errno, "%s: %s", name, strerror(errno));
	return read_stream(f, name, dir, out, msg, len);
}

/* Free an expression with its text. */
static void text_free(struct text_expr *x)
{
	free(x->text);
	lc_expr_free(x->e);
}

/* Free a structure.  See lcm.h. */
void lcm_free(struct lcm *s)
{
	if (!s)
		return;
	for (int i = 0; s->nodes && i < s->nnodes; i++) {
		struct node *n = &s->nodes[i];

		for (int c = 0; c < n->nchild; c++)
			free(n->childname[c]);
		for (int k = 0; k < n->nin; k++)
			free(n->in[k]);
		for (int k = 0; k < n->nout; k++)
			free(n->out[k]);
		for (int k = 0; k < n->nov; k++)
			text_free(&n->ov[k].x);
		text_free(&n->iters);
		free(n->modelpath);
		free(n->inline_model);
		lc_model_free(n->model);
	}
	for (int i = 0; i < s->nsizes; i++)
		text_free(&s->sizes[i].x);
	for (int v = 0; v < s->nvars; v++)
		free(s->vars[v]);
	free(s->nodes);
	free(s->inst);
	free(s->basepath);
	lcm_free(s->base);
	free(s);
}

/* The root node's name.  See lcm.h. */
const char *lcm_root(const struct lcm *s)
{
	return s->nodes[s->root].name;
}

/* Set the transfer parameters.  See lcm.h. */
void lcm_set_transfer(struct lcm *s, double latency, double bandwidth)
{
	s->latency = latency;
	s->bandwidth = bandwidth;
	s->have_transfer = 1;
	if (s->base)
		lcm_set_transfer(s->base, latency, bandwidth);
}

/* ---- binding ------------------------------------------------------------ */

/* The slot of a variable, added when new; -1 when the table is full. */
static int add_var(struct lcm *s, const char *name, size_t len)
{
	for (int v = 0; v < s->nvars; v++)
		if (strlen(s->vars[v]) == len && !strncmp(s->vars[v], name, len))
			return v;
	if (s->nvars == LCM_MAXVARS || !(s->vars[s->nvars] = strndup(name, len)))
		return -1;
	return s->nvars++;
}

/* Resolve an identifier against the bound variables. */
static int resolve(void *ctx, const char *name, size_t len)
{
	struct lcm *s = ctx;

	for (int v = 0; v < s->nvars; v++)
		if (strlen(s->vars[v]) == len && !strncmp(s->vars[v], name, len))
			return v;
	return -1;
}

/* Parse x->text; on error a message naming where. */
static int bind_expr(struct lcm *s, struct text_expr *x, const char *what, int line, char *msg, size_t len)
{
	struct lc_parse_error pe;
	int rc;

	lc_expr_free(x->e);
	x->e = NULL;
	rc = lc_expr_parse(x->text, 0, resolve, s, &x->e, &pe);
	if (rc == -EINVAL)
		return lc_fail(msg, len, -EINVAL, "%s:%d: %s '%s': column %d: %s", s->name, line, what,
			       x->text, pe.column, pe.msg);
	return rc;
}

/* The index of the size declaration of item (name up to '('), or -1. */
static int find_size(const struct lcm *s, const char *item)
{
	size_t n = strcspn(item, "(");

	for (int i = 0; i < s->nsizes; i++)
		if (!strcmp(s->sizes[i].item, item) ||
		    (strlen(s->sizes[i].item) == n && !strncmp(s->sizes[i].item, item, n)))
			return i;
	return -1;
}

/* The walk state for data traces. */
struct walk {
	int depth;
	int pos[MAXDEPTH];
	int kinds[MAXDEPTH + 1];
};

/* Record the fragment visits of the subtree at node i, depth first. */
static int walk_tree(struct lcm *s, int i, struct walk *w, char *msg, size_t len)
{
	struct node *n = &s->nodes[i];

	w->kinds[w->depth] = n->kind;
	if (n->kind == K_FRAGMENT) {
		struct inst *in;

		if (s->ninst == MAXINST)
			return lc_fail(msg, len, -E2BIG, "%s: the structure unfolds to more than %d fragment visits",
				       s->name, MAXINST);
		in = &s->inst[s->ninst++];
		memset(in, 0, sizeof(*in));
		in->node = i;
		in->depth = w->depth;
		memcpy(in->pos, w->pos, sizeof(w->pos));
		memcpy(in->kinds, w->kinds, sizeof(w->kinds));
		return 0;
	}
	if (w->depth + 1 >= MAXDEPTH)
		return lc_fail(msg, len, -E2BIG, "%s: the structure is deeper than %d", s->name, MAXDEPTH);
	for (int c = 0; c < n->nchild; c++) {
		int rc;

		w->pos[w->depth] = c;
		w->depth++;
		rc = walk_tree(s, n->child[c], w, msg, len);
		w->depth--;
		if (rc)
			return rc;
	}
	return 0;
}

/* The kind of the least upper bound of two fragment visits. */
static int lub_kind(const struct inst *a, const struct inst *b)
{
	int d = 0;

	while (d < a->depth && d < b->depth && a->pos[d] == b->pos[d])
		d++;
	return a->kinds[d];
}

/* True when list holds item. */
static int holds(char *const *list, int n, const char *item)
{
	for (int k = 0; k < n; k++)
		if (!strcmp(list[k], item))
			return 1;
	return 0;
}

/* Data traces: for each visit, the items it receives from a visit whose
 * least upper bound with it is a parallel node (true, anti or output
 * dependence on the last writer or the readers since). */
static void data_traces(struct lcm *s)
{
	for (int v = 0; v < s->ninst; v++) {
		struct inst *in = &s->inst[v];
		const struct node *n = &s->nodes[in->node];
		const char *items[2 * MAXDATA];
		int nitems = 0;

		for (int k = 0; k < n->nin; k++)
			items[nitems++] = n->in[k];
		for (int k = 0; k < n->nout; k++)
			if (!holds(n->in, n->nin, n->out[k]))
				items[nitems++] = n->out[k];
		for (int k = 0; k < nitems && in->nx < MAXXFER; k++) {
			const char *x = items[k];
			int reads = holds(n->in, n->nin, x), writes = holds(n->out, n->nout, x), moved = 0;

			/* back to the last writer; readers after it count for a write */
			for (int u = v - 1; u >= 0 && !moved; u--) {
				const struct node *m = &s->nodes[s->inst[u].node];
				int uw = holds(m->out, m->nout, x), ur = holds(m->in, m->nin, x);

				if ((uw && (reads || writes)) || (ur && writes))
					moved = lub_kind(&s->inst[u], in) == K_PARALLEL;
				if (uw)
					break;
			}
			if (moved)
				in->xfer[in->nx++] = x;
		}
	}
}

/* Bind the variables.  See lcm.h. */
int lcm_bind(struct lcm *s, const char *const *names, int n, char *msg, size_t len)
{
	struct walk w = { 0 };
	int rc;

	for (int v = 0; v < s->nvars; v++)
		free(s->vars[v]);
	s->nvars = 0;
	for (int i = 0; i < n; i++)
		if (add_var(s, names[i], strlen(names[i])) != i)
			return lc_fail(msg, len, -E2BIG, "more than %d variables, or '%s' twice", LCM_MAXVARS,
				       names[i]);
	s->nbound = n;
	for (int i = 0; i < s->nnodes; i++)
		for (int k = 0; k < s->nodes[i].nov; k++)
			if (add_var(s, s->nodes[i].ov[k].var, strlen(s->nodes[i].ov[k].var)) < 0)
				return lc_fail(msg, len, -E2BIG, "more than %d variables", LCM_MAXVARS);
	if ((s->tvar = add_var(s, "T", 1)) < 0 || (s->pvar = add_var(s, "p", 1)) < 0)
		return lc_fail(msg, len, -E2BIG, "more than %d variables", LCM_MAXVARS);
	for (int i = 0; i < s->nnodes; i++) {
		struct node *nd = &s->nodes[i];
		char what[128];

		for (int k = 0; k < nd->nov; k++) {
			snprintf(what, sizeof(what), "node '%s': %s =", nd->name, nd->ov[k].var);
			if ((rc = bind_expr(s, &nd->ov[k].x, what, nd->line, msg, len)))
				return rc;
		}
		if (nd->iters.text) {
			snprintf(what, sizeof(what), "node '%s': after: iterations", nd->name);
			if ((rc = bind_expr(s, &nd->iters, what, nd->line, msg, len)))
				return rc;
		}
	}
	for (int i = 0; i < s->nsizes; i++)
		if ((rc = bind_expr(s, &s->sizes[i].x, "size", s->sizes[i].line, msg, len)))
			return rc;
	free(s->inst);
	s->ninst = 0;
	if (!(s->inst = calloc(MAXINST, sizeof(*s->inst))))
		return -ENOMEM;
	if ((rc = walk_tree(s, s->root, &w, msg, len)))
		return rc;
	data_traces(s);
	if (s->base && !s->base->have_transfer && s->have_transfer)
		lcm_set_transfer(s->base, s->latency, s->bandwidth);
	return s->base ? lcm_bind(s->base, names, n, msg, len) : 0;
}

/* ---- evaluation --------------------------------------------------------- */

/* Print "p=2 n=256" of env to f. */
static void print_env(const struct lcm *s, const double *env, FILE *f)
{
	int first = 1;

	for (int v = 0; v < s->nvars; v++) {
		if (v == s->tvar || isnan(env[v]))
			continue;
		fprintf(f, "%s%s=%g", first ? "" : " ", s->vars[v], env[v]);
		first = 0;
	}
}

/* Print the categories of r that are not zero. */
static void print_cats(const struct val *r, FILE *f)
{
	for (int k = 0; k < LC_NCAT; k++)
		if (r->c[k] != 0)
			fprintf(f, " %s=%.4g", lc_cat_info(k)->key, r->c[k]);
}

/* Allocate the half-width array of r; -ENOMEM. */
static int val_init(const struct lcm *s, struct val *r)
{
	memset(r, 0, sizeof(*r));
	r->h = calloc((size_t)s->nnodes * LC_NKEY, sizeof(double));
	return r->h ? 0 : -ENOMEM;
}

/* r->h += f * x->h. */
static void h_add(const struct lcm *s, struct val *r, const struct val *x, double f)
{
	for (size_t i = 0; i < (size_t)s->nnodes * LC_NKEY; i++)
		r->h[i] += f * x->h[i];
}

static int eval_node(struct lcm *s, int i, const double *env, struct val *r, FILE *ex, int depth);

/* Communication loss of the data a fragment visit receives. */
static double transfers(struct lcm *s, const struct inst *in, const double *env, double p, FILE *ex,
			int depth)
{
	double cl = 0;

	for (int k = 0; k < in->nx; k++) {
		int z = find_size(s, in->xfer[k]);
		double bytes = z >= 0 ? lc_expr_eval(s->sizes[z].x.e, env) : 0;
		double t = s->have_transfer ? s->latency + bytes / s->bandwidth : 0;

		cl += p * t;
		if (ex)
			fprintf(ex, "%*s+ data: receives %s (%g bytes%s) across a parallel node: %.4g s x %g "
				"processors of communication loss\n", 2 * depth, "", in->xfer[k], bytes,
				s->have_transfer ? "" : "; no transfer parameters: counted as 0", t, p);
	}
	return cl;
}

/* Add fragment i's model categories at env to r.  Returns 0 or -EINVAL
 * naming a variable the model needs. */
static int model_cats(struct lcm *s, int i, const double *env, struct val *r)
{
	struct node *n = &s->nodes[i];
	struct lc_env e = { (const char *const *)s->vars, env, s->nvars };
	int tt_only = n->model->ncats == 1 && !strcmp(n->model->cats[0].cat, "tt");

	for (int c = 0; c < n->model->ncats; c++) {
		const char *cat = n->model->cats[c].cat, *missing = "?";
		int k = lc_key_lookup(cat);
		double v, h;

		if (k == LC_KEY_TT && !tt_only)
			continue;
		if (lc_predict_cat_clip(n->model, cat, &e, &s->clip, &v, &h, &missing))
			return lc_fail(s->msg, s->len, -EINVAL, "%s:%d: node '%s': its model uses '%s'; "
				       "give it in --at/--grid or as an override", s->name, n->line, n->name, missing);
		if (k == LC_KEY_TT)
			k = LC_CAT_PC;	/* a total-time model counts as computation */
		r->c[k] += v;
		r->h[(size_t)i * LC_NKEY + (size_t)k] += h;
	}
	return 0;
}

/* The communication a fragment visit receives here, less what its node
 * received per visit in the measured structure: added to r's cl, which
 * does not go below 0.  *sub gets what was taken off. */
static void fragment_cl(struct lcm *s, struct node *n, const struct inst *in, const double *env,
			double p, struct val *r, double *sub)
{
	double add = transfers(s, in, env, p, NULL, 0);
	int b;

	n->got_cl += add;
	n->visits++;
	*sub = 0;
	if (s->base && (b = find_node(s->base, n->name)) >= 0 && s->base->nodes[b].visits)
		*sub = s->base->nodes[b].got_cl / s->base->nodes[b].visits;
	r->c[LC_CAT_CL] = fmax(r->c[LC_CAT_CL] + add - *sub, 0);
}

/* A fragment: its model's categories at env, and the data it receives. */
static int eval_fragment(struct lcm *s, int i, const double *env, struct val *r, FILE *ex, int depth)
{
	struct node *n = &s->nodes[i];
	const struct inst *in = &s->inst[s->visit++];
	double p = env[s->pvar], sum = 0, sub;
	int rc;

	if (isnan(p) || p <= 0)
		return lc_fail(s->msg, s->len, -EINVAL, "%s:%d: node '%s': p = %g: a fragment needs p > 0",
			       s->name, n->line, n->name, p);
	if ((rc = model_cats(s, i, env, r)))
		return rc;
	fragment_cl(s, n, in, env, p, r, &sub);
	for (int k = 0; k < LC_NCAT; k++)
		sum += r->c[k];
	r->p = p;
	r->t = sum / p;
	n->t_last = r->t;
	if (!ex)
		return 0;
	fprintf(ex, "%*s%s (fragment%s%s) ", 2 * depth, "", n->name, n->modelpath ? ", " : "",
		n->modelpath ? n->modelpath : "");
	print_env(s, env, ex);
	fprintf(ex, ": T = %.6g s%s;", r->t, n->model->ncats == 1 && !strcmp(n->model->cats[0].cat, "tt")
					     ? " (a tt model: counted as rt)" : "");
	print_cats(r, ex);
	fprintf(ex, "\n");
	transfers(s, in, env, p, ex, depth);
	if (sub > 0)
		fprintf(ex, "%*s- data: in %s, where it was measured, %s received data: %.4g processor-s "
			"of communication loss already in its model\n", 2 * depth, "", s->basepath, n->name, sub);
	return 0;
}

/* The environment of child c of node n: defaults, then overrides. */
static int child_env(struct lcm *s, const struct node *n, int c, const double *env, double *out)
{
	const struct node *ch = &s->nodes[n->child[c]];
	double pe[LCM_MAXVARS];

	memcpy(pe, env, sizeof(double) * (size_t)s->nvars);
	pe[s->tvar] = n->kind == K_PARALLEL ? n->nchild : 1;
	memcpy(out, pe, sizeof(pe));
	if (n->kind == K_PARALLEL)
		out[s->pvar] = env[s->pvar] / n->nchild;
	for (int k = 0; k < ch->nov; k++) {
		int v = resolve(s, ch->ov[k].var, strlen(ch->ov[k].var));

		out[v] = lc_expr_eval(ch->ov[k].x.e, pe);
		if (!isfinite(out[v]))
			return lc_fail(s->msg, s->len, -EINVAL, "%s:%d: node '%s': %s = %s is %g here",
				       s->name, ch->line, ch->name, ch->ov[k].var, ch->ov[k].x.text, out[v]);
	}
	return 0;
}

/* The position of sibling name among n's children, or -1. */
static int sibling(const struct node *n, const char *name)
{
	for (int c = 0; c < n->nchild; c++)
		if (!strcmp(n->childname[c], name))
			return c;
	return -1;
}

/* Pipeline fill of a parallel node's children (before load imbalance). */
static int pipeline_fill(struct lcm *s, const struct node *n, struct val *kids, double **envs, FILE *ex,
			 int depth)
{
	for (int c = 0; c < n->nchild; c++) {
		const struct node *ch = &s->nodes[n->child[c]];
		int from;
		double iters, fill, stall, tp, tc;

		if (!ch->after[0])
			continue;
		from = sibling(n, ch->after);
		if (from < 0 || from == c)
			return lc_fail(s->msg, s->len, -EINVAL, "%s:%d: node '%s': after: '%s' is not another "
				       "child of '%s'", s->name, ch->line, ch->name, ch->after, n->name);
		iters = lc_expr_eval(ch->iters.e, envs[c]);
		if (!(iters >= 1))
			return lc_fail(s->msg, s->len, -EINVAL, "%s:%d: node '%s': after: %s iterations is %g "
				       "here (at least 1)", s->name, ch->line, ch->name, ch->iters.text, iters);
		/* the critical path of a pipeline of ITERS equal iterations: the
		 * consumer starts after the producer's first one, and when it is
		 * the faster it waits for the producer at every later one too */
		tp = kids[from].t;
		tc = kids[c].t;
		fill = tp / iters;
		stall = fmax(tp - tc, 0) * (iters - 1) / iters;
		kids[c].t += fill + stall;
		kids[c].c[LC_CAT_SL] += kids[c].p * (fill + stall);
		if (tp > tc) {
			for (size_t i = 0; i < (size_t)s->nnodes * LC_NKEY; i++)
				kids[c].h[i] /= iters;
			h_add(s, &kids[c], &kids[from], kids[c].p / kids[from].p);
		} else {
			h_add(s, &kids[c], &kids[from], kids[c].p / kids[from].p / iters);
		}
		if (ex && stall > 0)
			fprintf(ex, "%*s+ pipeline: %s waits for the first of %g iterations of %s, %.4g s, and, "
				"being faster, %.4g s at the later ones: %.4g s x %g processors of synchronization "
				"loss\n", 2 * depth + 2, "", ch->name, iters, ch->after, fill, stall, fill + stall,
				kids[c].p);
		else if (ex)
			fprintf(ex, "%*s+ pipeline fill: %s waits for the first of %g iterations of %s: %.4g s x %g "
				"processors of synchronization loss\n", 2 * depth + 2, "", ch->name, iters,
				ch->after, fill, kids[c].p);
	}
	return 0;
}

/* ---- critical path over a recorded synchronization trace ------------------ */

/* A fragment instance of the trace on a parallel node's timeline. */
struct cp_inst {
	const struct lc_strace_inst *rec;
	int task;			/* the child of the parallel node that runs it */
	int frag;			/* its fragment node */
	int prev;			/* the task's previous instance, or -1 */
	int pred;			/* the instance whose end starts it, or -1 */
	double d, start, finish, wait;
};

/* A dependence: instance to waited for instance from. */
struct cp_edge {
	int from, to;
};

/* The working arrays of one analysis. */
struct cp {
	struct cp_inst *in;
	struct cp_edge *e;
	double *recsum;			/* [nnodes]: recorded ns of a fragment's instances */
	int *count;			/* [nnodes]: its instances */
	double *h0;			/* [nchild][nnodes * LC_NKEY]: the tasks' half widths */
	int ni, ne;
};

static void cp_free(struct cp *cp)
{
	free(cp->in);
	free(cp->e);
	free(cp->recsum);
	free(cp->count);
	free(cp->h0);
}

/* The fragment node below node i (or i) whose tag is tag, or -1. */
static int tagged_fragment(const struct lcm *s, int i, int64_t tag)
{
	const struct node *n = &s->nodes[i];

	if (n->kind == K_FRAGMENT)
		return n->has_tag && n->tag == tag ? i : -1;
	for (int c = 0; c < n->nchild; c++) {
		int f = n->child[c] >= 0 ? tagged_fragment(s, n->child[c], tag) : -1;

		if (f >= 0)
			return f;
	}
	return -1;
}

/* The trace's instances of the fragments of n's tasks, in recorded order,
 * each with its share of its fragment's predicted time.  Returns the
 * number of tasks that have instances, or -EINVAL (a tag in two tasks). */
static int cp_instances(struct lcm *s, const struct node *n, struct cp *cp)
{
	const struct lc_strace *t = s->trace;
	int seen[MAXCHILD] = { 0 }, ntasks = 0;

	for (size_t k = 0; k < t->ninst; k++) {
		int task = -1, frag = -1;

		for (int c = 0; c < n->nchild; c++) {
			int f = tagged_fragment(s, n->child[c], t->inst[k].tag);

			if (f < 0)
				continue;
			if (task >= 0)
				return lc_fail(s->msg, s->len, -EINVAL, "%s:%d: node '%s': tag %lld is a fragment of "
					       "two of its tasks, %s and %s: the trace cannot tell their instances apart",
					       s->name, n->line, n->name, (long long)t->inst[k].tag,
					       n->childname[task], n->childname[c]);
			task = c;
			frag = f;
		}
		if (task < 0)
			continue;
		cp->in[cp->ni++] = (struct cp_inst){ .rec = &t->inst[k], .task = task, .frag = frag, .prev = -1,
						     .pred = -1 };
		cp->recsum[frag] += (double)(t->inst[k].end - t->inst[k].begin);
		cp->count[frag]++;
		ntasks += !seen[task];
		seen[task] = 1;
	}
	for (int i = 0; i < cp->ni; i++) {
		struct cp_inst *x = &cp->in[i];
		double rec = (double)(x->rec->end - x->rec->begin);

		x->d = s->nodes[x->frag].t_last * (cp->recsum[x->frag] > 0 ? rec / cp->recsum[x->frag]
									    : 1.0 / cp->count[x->frag]);
	}
	return ntasks;
}

/* The dependence a wait shows: the task whose thread waited (none of its
 * instances runs during the wait, and one starts after it) waited for the
 * instance of another task that ended last during the wait.  Returns 0 and
 * adds the edge, or -1 when the wait links no two instances. */
static int cp_wait(const struct node *n, struct cp *cp, const struct lc_strace_wait *w)
{
	int best = -1, prod = -1;

	for (int c = 0; c < n->nchild; c++) {
		int next = -1, overlap = 0, pr = -1;

		for (int i = 0; i < cp->ni; i++) {
			const struct lc_strace_inst *r = cp->in[i].rec;

			if (cp->in[i].task == c) {
				overlap |= r->begin < w->end && r->end > w->begin;
				if (next < 0 && r->begin >= w->end)
					next = i;
			} else if (r->end >= w->begin && r->end <= w->end && (pr < 0 || r->end >= cp->in[pr].rec->end)) {
				pr = i;
			}
		}
		if (overlap || next < 0 || pr < 0 || pr >= next)
			continue;
		if (best < 0 || cp->in[next].rec->begin < cp->in[best].rec->begin) {
			best = next;
			prod = pr;
		}
	}
	if (best < 0)
		return -1;
	cp->e[cp->ne++] = (struct cp_edge){ prod, best };
	return 0;
}

static int edge_cmp(const void *a, const void *b)
{
	const struct cp_edge *x = a, *y = b;

	return x->to != y->to ? (x->to > y->to) - (x->to < y->to) : (x->from > y->from) - (x->from < y->from);
}

/* The longest path: each instance starts when its task's previous one and
 * every instance it waited for have ended (recorded order is topological). */
static void cp_longest(struct cp *cp)
{
	int last[MAXCHILD], k = 0;

	for (int c = 0; c < MAXCHILD; c++)
		last[c] = -1;
	qsort(cp->e, (size_t)cp->ne, sizeof(*cp->e), edge_cmp);
	for (int i = 0; i < cp->ni; i++) {
		struct cp_inst *x = &cp->in[i];
		double base;

		x->prev = last[x->task];
		last[x->task] = i;
		base = x->prev >= 0 ? cp->in[x->prev].finish : 0;
		x->start = base;
		x->pred = x->prev;
		for (; k < cp->ne && cp->e[k].to == i; k++)
			if (cp->in[cp->e[k].from].finish > x->start) {
				x->start = cp->in[cp->e[k].from].finish;
				x->pred = cp->e[k].from;
			}
		x->wait = x->start - base;
		x->finish = x->start + x->d;
	}
}

/* Print the path that ends at instance i: runs of one task's instances. */
static void cp_print_path(const struct lcm *s, const struct node *n, const struct cp *cp, int i, FILE *ex,
			  int depth)
{
	int path[MAXINST], np = 0;

	for (; i >= 0 && np < MAXINST; i = cp->in[i].pred)
		path[np++] = i;
	fprintf(ex, "%*s  path:", 2 * depth + 2, "");
	for (int k = np - 1; k >= 0;) {
		const struct cp_inst *a = &cp->in[path[k]];
		int j = k;

		while (j > 0 && cp->in[path[j - 1]].task == a->task)
			j--;
		fprintf(ex, "%s %s#%u", k == np - 1 ? "" : " ->", s->nodes[a->frag].name, a->rec->seq);
		if (j < k)
			fprintf(ex, " .. %s#%u", s->nodes[cp->in[path[j]].frag].name, cp->in[path[j]].rec->seq);
		fprintf(ex, " (%s, %.4g .. %.4g s)", n->childname[a->task], a->start, cp->in[path[j]].finish);
		k = j - 1;
	}
	fprintf(ex, "\n");
}

/* The arrays of cp for the trace of s and node n.  0, or -ENOMEM (cp
 * freed). */
static int cp_alloc(const struct lcm *s, const struct node *n, struct cp *cp)
{
	const struct lc_strace *t = s->trace;

	cp->in = calloc(t->ninst + 1, sizeof(*cp->in));
	cp->e = calloc(t->nwait + 1, sizeof(*cp->e));
	cp->recsum = calloc((size_t)s->nnodes, sizeof(double));
	cp->count = calloc((size_t)s->nnodes, sizeof(int));
	cp->h0 = calloc((size_t)n->nchild * (size_t)s->nnodes * LC_NKEY, sizeof(double));
	if (cp->in && cp->e && cp->recsum && cp->count && cp->h0)
		return 0;
	cp_free(cp);
	return -ENOMEM;
}

/* Task c's half widths (hn of them) follow the critical path back from
 * its last instance last: each task's share of the path's time, over that
 * task's own predicted time t0[], carries its half widths h0 over. */
static void cp_follow(const struct node *n, const struct cp *cp, struct val *kids, int c,
		      int last, const double *t0, size_t hn)
{
	double share[MAXCHILD] = { 0 };

	for (int i = last; i >= 0; i = cp->in[i].pred)
		share[cp->in[i].task] += cp->in[i].d;
	memset(kids[c].h, 0, hn * sizeof(double));
	for (int d = 0; d < n->nchild; d++)
		if (t0[d] > 0 && share[d] > 0)
			for (size_t k = 0; k < hn; k++)
				kids[c].h[k] += share[d] / t0[d] * cp->h0[(size_t)d * hn + k] * kids[c].p /
						kids[d].p;
}

/* Each child's time and half widths before the waits (t0, cp->h0), the
 * waits on the longest path per task, each task's last instance
 * (lastof, -1: none); returns the instance that finishes last. */
static int cp_tally(const struct node *n, struct cp *cp, const struct val *kids, size_t hn,
		    int *lastof, double *wait, double *t0)
{
	int end = -1;

	for (int c = 0; c < n->nchild; c++) {
		lastof[c] = -1;
		t0[c] = kids[c].t;
		memcpy(cp->h0 + (size_t)c * hn, kids[c].h, hn * sizeof(double));
	}
	for (int i = 0; i < cp->ni; i++) {
		wait[cp->in[i].task] += cp->in[i].wait;
		lastof[cp->in[i].task] = i;
		if (end < 0 || cp->in[i].finish > cp->in[end].finish)
			end = i;
	}
	return end;
}

/* Add each task's waits to its time as synchronization loss, its half
 * widths following the path. */
static void cp_add_waits(const struct node *n, struct cp *cp, struct val *kids, const int *lastof,
			 const double *wait, const double *t0, size_t hn, FILE *ex, int depth)
{
	for (int c = 0; c < n->nchild; c++) {
		if (lastof[c] < 0)
			continue;
		cp_follow(n, cp, kids, c, lastof[c], t0, hn);
		kids[c].t += wait[c];
		kids[c].c[LC_CAT_SL] += kids[c].p * wait[c];
		if (ex && wait[c] > 0)
			fprintf(ex, "%*s+ critical path: %s waits %.4g s for the other tasks: %.4g s x %g "
				"processors of synchronization loss\n", 2 * depth + 2, "", n->childname[c], wait[c],
				wait[c], kids[c].p);
	}
}

/* The instances of n's tasks in the trace into cp: how many tasks have
 * some (cp freed when fewer than two), or -errno. */
static int cp_tasks(struct lcm *s, const struct node *n, struct cp *cp)
{
	int ntasks;

	if (cp_alloc(s, n, cp))
		return -ENOMEM;
	ntasks = cp_instances(s, n, cp);
	if (ntasks < 2)
		cp_free(cp);
	return ntasks;
}

/* Fewer than two tasks in the trace: the pipeline rule, said with ex. */
static int cp_fallback(struct lcm *s, const struct node *n, struct val *kids, double **envs,
		       FILE *ex, int depth)
{
	if (ex)
		fprintf(ex, "%*s! %s holds instances of fewer than two tasks of %s: no critical path here\n",
			2 * depth + 2, "", s->trace_name, n->name);
	return pipeline_fill(s, n, kids, envs, ex, depth);
}

/* Synchronization by critical path analysis over the recorded trace
 * (instead of the pipeline rule): each task's waits on the longest path
 * become its synchronization loss, and its half widths follow the path. */
static int critical_path(struct lcm *s, const struct node *n, struct val *kids, double **envs, FILE *ex,
			 int depth)
{
	const struct lc_strace *t = s->trace;
	size_t hn = (size_t)s->nnodes * LC_NKEY;
	struct cp cp = { 0 };
	int ntasks = cp_tasks(s, n, &cp), lastof[MAXCHILD], end, nlinked;
	double wait[MAXCHILD] = { 0 }, t0[MAXCHILD];

	if (ntasks < 0)
		return ntasks;
	if (ntasks < 2)
		return cp_fallback(s, n, kids, envs, ex, depth);
	for (size_t k = 0; k < t->nwait; k++)
		cp_wait(n, &cp, &t->wait[k]);
	nlinked = cp.ne;
	cp_longest(&cp);
	end = cp_tally(n, &cp, kids, hn, lastof, wait, t0);
	if (ex)
		fprintf(ex, "%*s+ critical path over %s: %d fragment instances of %d tasks, %d wait%s linking "
			"one task's instance to the end of another's; each instance takes its fragment's "
			"predicted time, shared out as in the recording\n", 2 * depth + 2, "", s->trace_name,
			cp.ni, ntasks, nlinked, nlinked == 1 ? "" : "s");
	cp_add_waits(n, &cp, kids, lastof, wait, t0, hn, ex, depth);
	if (ex)
		cp_print_path(s, n, &cp, end, ex, depth);
	cp_free(&cp);
	return 0;
}

/* Use a recorded trace.  See lcm.h. */
int lcm_set_trace(struct lcm *s, const struct lc_strace *t, const char *name, char *msg, size_t len)
{
	int found = 0;

	for (int i = 0; i < s->nnodes && !found; i++)
		for (size_t k = 0; k < t->ninst && !found; k++)
			found = s->nodes[i].has_tag && s->nodes[i].tag == t->inst[k].tag;
	if (!found)
		return lc_fail(msg, len, -EINVAL, "%s: no fragment of %s has a tag ('tag: N') that %s holds "
			       "(%zu fragment instances, %zu waits)", name, s->name, name, t->ninst, t->nwait);
	s->trace = t;
	snprintf(s->trace_name, sizeof(s->trace_name), "%s", name);
	return 0;
}

/* Combine the children's values into node n's. */
static void combine(struct lcm *s, const struct node *n, struct val *kids, double p, struct val *r,
		    FILE *ex, int depth)
{
	double tmax = 0, used = 0, li = 0, ip = 0;
	int arg = 0;

	for (int c = 0; c < n->nchild; c++) {
		for (int k = 0; k < LC_NCAT; k++)
			r->c[k] += kids[c].c[k];
		if (kids[c].t > tmax) {
			tmax = kids[c].t;
			arg = c;
		}
		used += kids[c].p;
	}
	if (n->kind == K_SERIAL) {
		for (int c = 0; c < n->nchild; c++) {
			r->t += kids[c].t;
			ip += fmax(p - kids[c].p, 0) * kids[c].t;
			h_add(s, r, &kids[c], p / kids[c].p);
		}
	} else {
		for (int c = 0; c < n->nchild; c++)
			li += kids[c].p * (tmax - kids[c].t);
		ip = fmax(p - used, 0) * tmax;
		r->t = tmax;
		h_add(s, r, &kids[arg], p / kids[arg].p);
	}
	r->c[LC_CAT_LI] += li;
	r->c[LC_CAT_IP] += ip;
	r->p = p;
	if (!ex)
		return;
	if (n->kind == K_PARALLEL)
		fprintf(ex, "%*s+ load imbalance LI+ = sum_t p_t (max T - T_t) = %.4g processor-s "
			"(the slowest task, %s, takes %.4g s)\n", 2 * depth + 2, "", li,
			n->childname[arg], tmax);
	if (ip > 0)
		fprintf(ex, "%*s+ insufficient parallelism %.4g processor-s: processors the children do "
			"not use\n", 2 * depth + 2, "", ip);
	if (used > p * (1 + 1e-9) && n->kind == K_PARALLEL)
		fprintf(ex, "%*s! the children use %g processors, more than the %g this node has\n",
			2 * depth + 2, "", used, p);
}

/* A serial or parallel node: its children, then the rules. */
static int eval_inner(struct lcm *s, int i, const double *env, struct val *r, FILE *ex, int depth)
{
	struct node *n = &s->nodes[i];
	struct val kids[MAXCHILD];
	double envbuf[MAXCHILD][LCM_MAXVARS], *envs[MAXCHILD];
	int rc = 0, made = 0;

	if (ex) {
		fprintf(ex, "%*s%s (%s", 2 * depth, "", n->name, kind_name[n->kind]);
		if (n->kind == K_PARALLEL)
			fprintf(ex, ", T=%d", n->nchild);
		fprintf(ex, ") ");
		print_env(s, env, ex);
		fprintf(ex, "\n");
	}
	for (int c = 0; c < n->nchild && !rc; c++) {
		envs[c] = envbuf[c];
		rc = child_env(s, n, c, env, envbuf[c]);
		if (!rc && !(rc = val_init(s, &kids[c])))
			made++;
		if (!rc)
			rc = eval_node(s, n->child[c], envbuf[c], &kids[c], ex, depth + 1);
	}
	if (!rc && n->kind == K_PARALLEL)
		rc = s->trace ? critical_path(s, n, kids, envs, ex, depth) : pipeline_fill(s, n, kids, envs, ex, depth);
	if (!rc)
		combine(s, n, kids, env[s->pvar], r, ex, depth);
	for (int c = 0; c < made; c++)
		free(kids[c].h);
	if (!rc && ex) {
		fprintf(ex, "%*s= %s: T = %.6g s;", 2 * depth, "", n->name, r->t);
		print_cats(r, ex);
		fprintf(ex, "\n");
	}
	return rc;
}

/* Evaluate node i at env into r. */
static int eval_node(struct lcm *s, int i, const double *env, struct val *r, FILE *ex, int depth)
{
	if (s->nodes[i].kind == K_FRAGMENT)
		return eval_fragment(s, i, env, r, ex, depth);
	return eval_inner(s, i, env, r, ex, depth);
}

/* The root's value r as a result on p processors: categories, their half
 * widths (the carried-up ones combined in quadrature), T = sum C / p. */
static void result(const struct lcm *s, const struct val *r, double p, struct lcm_result *out)
{
	double var = 0;

	for (int k = 0; k < LC_NCAT; k++) {
		double hk = 0;

		out->c[k] = r->c[k];
		for (int m = 0; m < s->nnodes; m++)
			hk += r->h[(size_t)m * LC_NKEY + (size_t)k] * r->h[(size_t)m * LC_NKEY + (size_t)k];
		out->hc[k] = sqrt(hk);
		var += hk;
		out->c[LC_KEY_TT] += r->c[k];
	}
	out->p = p;
	out->t = out->c[LC_KEY_TT] / p;
	out->half = sqrt(var) / p;
}

/* Evaluate.  See lcm.h. */
int lcm_eval(struct lcm *s, const double *vals, struct lcm_result *out, FILE *explain,
	     char *msg, size_t len)
{
	double env[LCM_MAXVARS];
	struct val r;
	struct lcm_result r0;
	int rc;

	for (int v = 0; v < s->nvars; v++)
		env[v] = NAN;
	memset(out, 0, sizeof(*out));
	s->msg = msg;
	s->len = len;
	s->visit = 0;
	s->clip = (struct lc_clip){ 0 };
	if (s->base && (rc = lcm_eval(s->base, vals, &r0, NULL, msg, len)))
		return rc;
	for (int i = 0; i < s->nnodes; i++) {
		s->nodes[i].got_cl = 0;
		s->nodes[i].visits = 0;
	}
	if ((rc = val_init(s, &r)))
		return rc;
	for (int v = 0; v < s->nbound; v++)
		env[v] = vals[v];
	env[s->tvar] = 1;
	if (isnan(env[s->pvar]) || env[s->pvar] <= 0) {
		free(r.h);
		return lc_fail(msg, len, -EINVAL, "p (the number of processors) must be given and positive");
	}
	rc = eval_node(s, s->root, env, &r, explain, 0);
	if (!rc)
		result(s, &r, env[s->pvar], out);
	out->clip = s->clip;
	free(r.h);
	return rc;
}
