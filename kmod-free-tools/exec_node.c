/*
 * exec_node.c — the node's sampler of "lostcycles exec" (docs/mpi.md): the
 * session over the node's ranks, and the run of this rank under it.
 */
#include "lc_exec_node.h"
#include "lc_abi.h"
#include "lc_profile.h"
#include "lc_util.h"
#include "mpi_job.h"
#include "targets.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lc_exec_export_job_id(void)
{
	uint64_t id = lc_launch_job_id();
	char v[24];

	if (!id)
		return;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)id);
	setenv(LC_ENV_JOB_ID, v, 1);
}

/* The discovery of the node's ranks: the children of our parent, the
 * launcher's process on this node.  NULL with the reason in msg. */
static struct lc_registry *node_registry(const char *session, char *msg, size_t len)
{
	int e;
	struct lc_registry *reg = lc_registry_start_lineage(session, &e);

	if (reg && (e = lc_registry_set_roots(reg, &(pid_t){ getppid() }, 1))) {
		lc_registry_stop(reg);
		lc_registry_free(reg);
		reg = NULL;
	}
	if (!reg)
		lc_fail(msg, len, e, "cannot start discovery: %s", strerror(-e));
	return reg;
}

/* The options of the node's session: the command line's, and the node's. */
static struct lc_session_opts node_opts(const struct lc_exec_node *n)
{
	struct lc_session_opts so = n->opts;

	so.out = n->out;
	so.name = n->session;
	so.command = n->cmd;
	so.host = n->host;
	so.unavailable = n->have_loggp ? 0 : 1u << LC_CAT_CL;
	so.unavailable_why = LC_MPI_NO_LOGGP;
	return so;
}

struct lc_session *lc_exec_node_start(const struct lc_exec_node *n, char *msg, size_t len)
{
	struct lc_session_opts so = node_opts(n);
	struct lc_registry *reg = node_registry(n->session, msg, len);
	struct lc_session *ses = reg ? lc_session_new(&so, reg) : NULL;

	if (reg && !ses) {
		lc_registry_stop(reg);
		lc_registry_free(reg);
		lc_fail(msg, len, -ENOMEM, "out of memory");
	}
	if (ses && lc_session_start(ses, msg, len)) {
		lc_session_free(ses);
		ses = NULL;
	}
	return ses;
}

int lc_exec_node_run(struct lc_launch *l, struct lc_session *ses, char **argv,
		     struct lc_session_result *res, char *msg, size_t len)
{
	int sig = 0, status;
	pid_t child = lc_launch_spawn(l, argv, &sig);

	*msg = 0;
	if (child < 0 && !sig)
		lc_fail(msg, len, (int)child, "%s: %s", argv[0], strerror((int)-child));
	status = sig ? 128 + sig : child < 0 ? 127 :
		 lc_launch_wait_node(l, child, lc_session_registry(ses), &sig);
	lc_session_finish(ses, status, sig ? "interrupted" : "node's ranks exited", res);
	return status;
}
