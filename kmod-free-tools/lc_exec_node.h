/*
 * lc_exec_node.h — the node's sampler of "lostcycles exec": the rank that
 * takes the node's lock records the node's session while it runs its own
 * rank of the program as a child, until every rank of the node is gone.
 * Nothing here prints; reasons come back to the command.
 */
#ifndef LC_EXEC_NODE_H
#define LC_EXEC_NODE_H

#include <stddef.h>
#include <stdint.h>

#include "lc_launch.h"
#include "session.h"

/* The node's session: the options of the command line (exec's, as
 * record's), and its name, host, output file and command line, and
 * whether a LogGP file was found (else CL is not measured). */
struct lc_exec_node {
	struct lc_session_opts opts;
	const char *session, *host, *out, *cmd;
	int have_loggp;
};

/* Export the job id the batch system gave (Slurm's), for every rank's
 * lc_job to record. */
void lc_exec_export_job_id(void);

/* Start the node's session over the discovery of its ranks (the children
 * of the launcher's process on this node: our parent).  NULL with the
 * reason in msg. */
struct lc_session *lc_exec_node_start(const struct lc_exec_node *n, char *msg, size_t len);

/* Run argv as our child (l begun) under ses until the node's ranks are
 * gone, then finish ses into *res.  Returns the exit status; msg holds why
 * argv did not start, else "". */
int lc_exec_node_run(struct lc_launch *l, struct lc_session *ses, char **argv,
		     struct lc_session_result *res, char *msg, size_t len);

#endif
