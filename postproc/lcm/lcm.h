/*
 * lcm.h — lost cycles modeling (the thesis's lcm, chapter 6): a program's
 * parallel structure as a DAG of serial and parallel nodes whose penultimate
 * nodes are code fragments with lost cycles models, composed into a model of
 * the whole program.  The structure file format is docs/structure.md.
 *
 * Composition, from the leaves up (section 6.2.2):
 *   - variables flow down: a parallel node with T children gives each p/T
 *     processors, a serial node passes its variables on; an override on a
 *     node ("p = p/2 - 1", evaluated with the parent's variables and T) wins;
 *   - a fragment's categories are its model's, at its variables;
 *   - a serial node sums its children; a parallel node sums them and adds
 *     the load imbalance LI+ = sum_t p_t (max_t' T_t' - T_t) (processor-
 *     seconds: the thesis's sum of waiting times, each weighted by the
 *     processors of the waiting task);
 *   - processors a node has but its children do not use are idle for the
 *     child's time: insufficient parallelism;
 *   - data traces: a fragment that reads (true dependence) or writes (output
 *     or anti dependence) a data item last touched by a fragment whose least
 *     upper bound with it is a parallel node receives the item: latency +
 *     bytes/bandwidth seconds of communication loss on each of its processors;
 *   - synchronization traces: "after: SIBLING / ITERS" makes a task the
 *     consumer of a pipeline of ITERS equal iterations: it waits for the
 *     sibling's first iteration (pipeline fill) and, when it is the faster,
 *     for each later one (the pipeline's critical path): synchronization loss;
 *   - with a recorded synchronization trace (lcm_set_trace), critical path
 *     analysis instead: the trace's instances of the tasks' fragments, with
 *     the fragments' predicted times, linked by the recorded waits; each
 *     task's waits on the longest path are synchronization loss;
 *   - "measured FILE" names the structure the fragments were measured in:
 *     the communication its data traces find there is taken off again.
 * Prediction intervals: each fragment category's 90 % half width is carried
 * up with the weight its value has in the total (fully correlated within one
 * model's category, independent between them) and combined in quadrature.
 *
 * Nothing here prints except lcm_eval's optional explanation; errors come back
 * as -errno with a one-line reason naming the node and the line.
 */
#ifndef LCM_H
#define LCM_H

#include <stddef.h>
#include <stdio.h>

#include "lc_profile.h"
#include "lc_strace.h"
#include "lca_model.h"

#define LCM_MAXVARS 16

struct lcm;

/* Read the structure file at path.  Model files named in it are read
 * relative to its folder.  Returns 0, -errno from reading, -EINVAL with msg
 * naming the node and line (a syntax error, a non-homogeneous node, a cycle,
 * an unknown node, a fragment without a model or a model that cannot be
 * read), or -ENOMEM. */
int lcm_read(const char *path, struct lcm **out, char *msg, size_t len);

/* lcm_read on text in memory; name is used in messages, dir for model files. */
int lcm_read_text(const char *text, const char *name, const char *dir, struct lcm **out,
		  char *msg, size_t len);

/* Free s; NULL is fine. */
void lcm_free(struct lcm *s);

/* Prepare s for evaluation with the variables names[0..n) (the --at/--grid
 * names): parses every override, size and iteration count.  Returns 0 or
 * -EINVAL with msg naming the node, line and unknown variable. */
int lcm_bind(struct lcm *s, const char *const *names, int n, char *msg, size_t len);

/* Transfer parameters of the machine: seconds per transfer and bytes per
 * second.  They override the structure file's "transfer" line. */
void lcm_set_transfer(struct lcm *s, double latency, double bandwidth);

/* Use the synchronization trace t (lc_strace_read; the caller keeps it
 * until s is freed), called name in messages, at every parallel node: the
 * instances of its tasks' tagged fragments ("tag: N") and the waits that
 * link them are laid out with the fragments' predicted times, and each
 * task's waits on that timeline are its synchronization loss (critical
 * path analysis, instead of the pipeline rule of "after:").  A parallel
 * node whose trace holds instances of fewer than two tasks keeps the
 * pipeline rule.  Returns 0, or -EINVAL with msg when no tagged fragment of
 * s is in the trace. */
int lcm_set_trace(struct lcm *s, const struct lc_strace *t, const char *name, char *msg, size_t len);

/* A composed prediction: processor-seconds per key (tt unused), the wall
 * time T, and the 90 % half width of T and of each category. */
struct lcm_result {
	double c[LC_NKEY];
	double hc[LC_NKEY];
	double t, half, p;
	struct lc_clip clip;		/* fragment models below zero, counted as 0 */
};

/* Evaluate the bound structure at vals (in the order of lcm_bind's names).
 * With explain non-NULL, write each node's variables, time and categories
 * and what each rule added.  Returns 0 or -EINVAL with msg (a variable a
 * model needs is missing, p is not positive). */
int lcm_eval(struct lcm *s, const double *vals, struct lcm_result *r, FILE *explain,
	     char *msg, size_t len);

/* The root node's name. */
const char *lcm_root(const struct lcm *s);

/*
 * --extract: build a structure from annotated C sources.  OpenMP
 * "parallel sections"/"section" pragmas make parallel and serial nodes,
 * "parallel for" pragmas and LC_FRAGMENT_BEGIN/END(tag) pairs make
 * fragments, and comments "/" "* lcm: ... *" "/" carry a fragment's model,
 * data annotations and overrides (lines of the structure format) onto the
 * next node.  The result is the text of a structure file.  A node whose
 * name is taken (by the root, "main", or by an earlier node) is renamed
 * NAME_2, NAME_3, ..., with a line in notes[nlen] naming its file and line
 * (notes may be NULL).
 * Returns 0, -errno, or -EINVAL with msg naming the file and line.
 */
int lcm_extract(const char *const *paths, int n, char **text, char *notes, size_t nlen, char *msg,
		size_t len);

#endif
