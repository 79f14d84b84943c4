/*
 * lc_mpi.c — liblostcycles-mpi: predicate flags for unmodified MPI programs
 * through the MPI profiling interface (PMPI).  Link it before the MPI
 * library, or LD_PRELOAD it ("lostcycles record --mpi" does).
 *
 * States (docs/mpi.md):
 *   - between MPI_Init(_thread) and MPI_Finalize work exists, and a thread
 *     that has called MPI is BUSY;
 *   - inside an MPI call that can wait (blocking point-to-point, completion,
 *     collectives, one-sided synchronization) the thread is in SYNC;
 *   - a thread whose MPI_Test* / MPI_Iprobe calls fail LC_MPI_POLL_FAILS
 *     times in a row, each within LC_MPI_POLL_GAP_NS of the previous one, is
 *     polling: it stays in SYNC until a test succeeds or it makes another
 *     MPI call.
 * Every thread sets its own slot, so MPI_THREAD_MULTIPLE programs work.
 *
 * Communication loss: with LogGP parameters (the file named by
 * LOSTCYCLES_LOGGP, written by "lostcycles calibrate --mpi") every call adds
 * the ideal transfer time of its messages to the thread's slot
 * (lc_comm_ideal); the sampler moves that much waiting time from SL to CL.
 *
 * At MPI_Init the layer records rank, size and host in the segment, and the
 * offset of this node's clock from rank 0's (a barrier, then rank 0
 * broadcasts its clock).  Without LOSTCYCLES_SESSION the wrappers only
 * forward to PMPI.
 *
 * The states go through the layers' interface (lc_auto.h), as the OpenMP
 * tool's do, so that both layers share a thread's nesting in a hybrid
 * MPI + OpenMP program, and the program's own macros win over either.  The
 * main thread of an MPI program is BUSY from its start (the constructor),
 * not only from MPI_Init, and each rank tells the library the job's ranks
 * on its node (lc_auto_ranks): with the OpenMP layer as well, p is those
 * ranks times a rank's OpenMP team.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "lc_abi.h"
#include "lc_auto.h"
#include "lostcycles.h"

#define LC_MPI_POLL_FAILS 3		/* failed tests in a row that make a poll loop */
#define LC_MPI_POLL_GAP_NS 100000u	/* at most this long between them */

/* Process state: written in MPI_Init before any other thread calls MPI,
 * read-only afterwards. */
static struct {
	int on;			/* a session is active and MPI is initialised */
	int size;
	int have_loggp;
	double L, o, G;		/* LogGP: ns, ns, ns per byte */
	double S, Ls, Gs;	/* from S bytes on (protocol switch): Ls + o + k Gs */
	int rounds;		/* ceil(log2(size)) */
} g;

/* Per thread. */
static __thread int t_seen;		/* the thread's state was set BUSY */
static __thread int t_fails;		/* failed tests in a row */
static __thread uint64_t t_last_fail;	/* when the last one returned */
static __thread int t_polling;		/* SYNC pushed by a poll loop */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- LogGP ------------------------------------------------------------------ */

/* Read "KEY VALUE" lines (L, o, G; S, Ls, Gs; # comments) from path.
 * Returns 1 when L, o and G were all found and are finite and not
 * negative; S, Ls and Gs count only all together, with S > 0. */
static int loggp_read(const char *path)
{
	FILE *f = path && *path ? fopen(path, "r") : NULL;
	char line[256];
	int seen = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char key[16];
		double v;

		if (sscanf(line, " %15s %lf", key, &v) != 2 || key[0] == '#' || !isfinite(v) ||
		    v < 0)
			continue;
		if (!strcmp(key, "L"))
			g.L = v, seen |= 1;
		else if (!strcmp(key, "o"))
			g.o = v, seen |= 2;
		else if (!strcmp(key, "G"))
			g.G = v, seen |= 4;
		else if (!strcmp(key, "S"))
			g.S = v, seen |= 8;
		else if (!strcmp(key, "Ls"))
			g.Ls = v, seen |= 16;
		else if (!strcmp(key, "Gs"))
			g.Gs = v, seen |= 32;
	}
	fclose(f);
	if ((seen & 56) != 56 || g.S <= 0)
		g.S = 0;
	return (seen & 7) == 7;
}

/* The gap per byte of messages of k bytes. */
static double gap(uint64_t k)
{
	return g.S > 0 && (double)k >= g.S ? g.Gs : g.G;
}

/* The ideal time of one message of k bytes: L + o + k G, or from the
 * protocol switch S on Ls + o + k Gs. */
static double msg(uint64_t k)
{
	if (g.S > 0 && (double)k >= g.S)
		return g.Ls + g.o + (double)k * g.Gs;
	return g.L + g.o + (double)k * g.G;
}

/* Credit the calling thread with ns of ideal transfer time (its slot
 * must exist first: a thread's first MPI call makes it busy). */
static void credit(double ns)
{
	if (!g.have_loggp || ns <= 0)
		return;
	if (!t_seen) {
		t_seen = 1;
		lc_auto_start(LC_ST_BUSY);
	}
	lc_comm_ideal((uint64_t)ns);
}

/* Bytes of count elements of type t (0 when unknown). */
static uint64_t bytes(int count, MPI_Datatype t)
{
	int sz = 0;

	if (count <= 0 || PMPI_Type_size(t, &sz) != MPI_SUCCESS || sz <= 0)
		return 0;
	return (uint64_t)count * (uint64_t)sz;
}

/* Sum of counts[0..n) elements of type t, divided by n (the average). */
static uint64_t avg_bytes(const int counts[], MPI_Datatype t, MPI_Comm comm)
{
	int n = 0;
	uint64_t sum = 0;

	if (!counts || PMPI_Comm_size(comm, &n) != MPI_SUCCESS || n <= 0)
		return 0;
	for (int i = 0; i < n; i++)
		sum += bytes(counts[i], t);
	return sum / (uint64_t)n;
}

/* Ranks in comm and ceil(log2) of it. */
static int comm_size(MPI_Comm comm, int *rounds)
{
	int n = 1, r = 0;

	if (PMPI_Comm_size(comm, &n) != MPI_SUCCESS || n < 1)
		n = 1;
	while ((1 << r) < n)
		r++;
	*rounds = r;
	return n;
}

/* Collective models (docs/mpi.md): a tree of ceil(log2 P) rounds. */
enum coll { C_SYNC, C_TREE, C_TREE2, C_GATHER, C_ALL2ALL };

static void credit_coll(enum coll c, uint64_t k, MPI_Comm comm)
{
	int r, p;

	if (!g.have_loggp)
		return;
	p = comm_size(comm, &r);
	switch (c) {
	case C_SYNC:	/* barrier, fence: r empty messages */
		credit(r * (g.L + g.o));
		break;
	case C_TREE:	/* bcast, reduce, scan: r messages of k bytes */
		credit(r * msg(k));
		break;
	case C_TREE2:	/* allreduce: reduce then bcast */
		credit(2 * r * msg(k));
		break;
	case C_GATHER:	/* gather, scatter, allgather: r rounds, P-1 blocks of k */
		credit(r * (g.L + g.o) + (double)(p - 1) * (double)k * gap(k));
		break;
	case C_ALL2ALL:	/* P-1 messages of k bytes */
		credit((p - 1) * msg(k));
		break;
	}
}

/* ---- states ----------------------------------------------------------------- */

/* Leave a poll loop: back to the state before it. */
static void poll_end(void)
{
	t_fails = 0;
	if (t_polling) {
		t_polling = 0;
		lc_auto_leave();
		lc_auto_place_pop();
	}
}

/* Every wrapper starts here: a thread no layer has seen yet becomes BUSY
 * on its first MPI call after MPI_Init, and any call but a failing test
 * ends a poll loop. */
static void enter(void)
{
	if (!t_seen) {
		t_seen = 1;
		lc_auto_start(LC_ST_BUSY);
	}
	poll_end();
}

/* A test of MPI function f called from ra returned flag: count failures
 * that come fast enough in a row. */
static void tested(int flag, uint32_t f, const void *ra)
{
	uint64_t t;

	if (flag) {
		poll_end();
		return;
	}
	t = now_ns();
	if (t_fails && t - t_last_fail > LC_MPI_POLL_GAP_NS)
		t_fails = 0;
	t_last_fail = t;
	if (++t_fails >= LC_MPI_POLL_FAILS && !t_polling) {
		t_polling = 1;
		lc_auto_place_push(lc_auto_site_word(LC_PLACE_MPI, f, ra));
		lc_auto_enter(LC_ST_SYNC);
	}
}

/* Wrap a call that can wait: SYNC around it, in the place of MPI
 * function f (LC_MPI_FUNCS of lc_abi.h) at the caller's call site. */
#define WAITING(f, call)                                                \
	do {                                                            \
		int lc_rc_;                                             \
		if (!g.on)                                              \
			return call;                                    \
		enter();                                                \
		lc_auto_place_push(lc_auto_site_word(LC_PLACE_MPI, (f), \
				   __builtin_return_address(0)));       \
		lc_auto_enter(LC_ST_SYNC);                              \
		lc_rc_ = call;                                          \
		lc_auto_leave();                                        \
		lc_auto_place_pop();                                    \
		return lc_rc_;                                          \
	} while (0)

/* Wrap a test of MPI function f: forward, then count the failure (a poll
 * loop is in f's place at the caller's call site). */
#define TESTING(f, call, flagp)                                         \
	do {                                                            \
		int lc_rc_;                                             \
		if (!g.on)                                              \
			return call;                                    \
		if (!t_seen)                                            \
			enter();                                        \
		lc_rc_ = call;                                          \
		tested(lc_rc_ != MPI_SUCCESS || (flagp), (f),           \
		       __builtin_return_address(0));                    \
		return lc_rc_;                                          \
	} while (0)

/* ---- init and finalize ------------------------------------------------------- */

/* Our clock minus rank 0's, from a barrier and a broadcast of rank 0's
 * clock (the error is about one broadcast latency), and the job's id: rank
 * 0's real-time clock and pid at this moment. */
static int64_t clock_offset(int rank, uint64_t *job_id)
{
	int64_t v[2] = { 0, 0 }, mine;

	PMPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		struct timespec rt;

		v[0] = (int64_t)now_ns();
		clock_gettime(CLOCK_REALTIME, &rt);
		v[1] = (int64_t)(((uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec) ^
				 ((uint64_t)getpid() << 40));
	}
	PMPI_Bcast(v, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
	mine = (int64_t)now_ns();
	*job_id = (uint64_t)v[1];
	return rank == 0 ? 0 : mine - v[0];
}

/* FNV-1a of a host name. */
static uint64_t host_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* The ranks of MPI_COMM_WORLD on this rank's node, by the host name the
 * profile records (LOSTCYCLES_HOST, else the host's name): one gather of
 * the names' hashes.  1 when MPI cannot say. */
static uint32_t node_ranks(int size)
{
	const char *env = getenv("LOSTCYCLES_HOST");
	char name[256] = "";
	uint64_t mine, *all;
	uint32_t n = 0;

	if (env && *env)
		snprintf(name, sizeof(name), "%s", env);
	else if (gethostname(name, sizeof(name) - 1))
		name[0] = 0;
	mine = host_hash(name);
	all = size > 0 ? calloc((size_t)size, sizeof(*all)) : NULL;
	if (!all)
		return 1;
	if (PMPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD) ==
	    MPI_SUCCESS)
		for (int i = 0; i < size; i++)
			n += all[i] == mine;
	free(all);
	return n ? n : 1;
}

/* After a successful PMPI_Init: record the job, start the work. */
static void started(void)
{
	int rank = 0;
	int64_t off;
	uint64_t job = 0;

	if (!getenv("LOSTCYCLES_SESSION"))
		return;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &g.size);
	g.have_loggp = loggp_read(getenv("LOSTCYCLES_LOGGP"));
	off = clock_offset(rank, &job);
	lc_job(rank, (uint32_t)g.size, job, off, g.have_loggp ? LC_JOB_LOGGP : 0, NULL);
	lc_auto_ranks(node_ranks(g.size));
	lc_auto_parallel(1);
	t_seen = 1;
	lc_auto_start(LC_ST_BUSY);
	g.on = 1;
}

/* Load time (the layer is preloaded, or linked before the MPI library):
 * the main thread of an MPI program is BUSY from its start, so that what it
 * computes before MPI_Init is computation.  Processes of the job that are
 * not MPI programs (mpiexec, its proxies, a launch script) do not call
 * MPI_Init and are left alone. */
__attribute__((constructor)) static void mpi_layer_init(void)
{
	static const char *const init[] = { "MPI_Init", "MPI_Init_thread", "mpi_init_",
					    "mpi_init_thread_", "mpi_init__", "MPI_INIT" };

	if (!getenv("LOSTCYCLES_SESSION") || gettid() != getpid() || !lc_auto_active() ||
	    !lc_auto_program_calls(init, (int)(sizeof(init) / sizeof(init[0]))))
		return;
	t_seen = 1;
	lc_auto_set(LC_ST_BUSY);
}

int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);

	if (rc == MPI_SUCCESS)
		started();
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);

	if (rc == MPI_SUCCESS)
		started();
	return rc;
}

int MPI_Finalize(void)
{
	int rc;

	if (!g.on)
		return PMPI_Finalize();
	/* the job ends here: what MPI_Finalize takes is outside it */
	poll_end();
	lc_auto_set(LC_ST_IDLE);
	lc_auto_parallel(-1);
	g.on = 0;
	rc = PMPI_Finalize();
	return rc;
}

/* ---- point to point ------------------------------------------------------------ */

/* The four blocking sends, each name and its place f: the message's bytes
 * are credited, the call waits as SYNC. */
#define BLOCKING_SEND(name, f)                                                               \
	int name(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) \
	{                                                                                    \
		if (g.on)                                                                    \
			credit(msg(bytes(count, type)));                                     \
		WAITING(f, P##name(buf, count, type, dest, tag, comm));                      \
	}
BLOCKING_SEND(MPI_Send, LC_MPIF_SEND)
BLOCKING_SEND(MPI_Ssend, LC_MPIF_SSEND)
BLOCKING_SEND(MPI_Rsend, LC_MPIF_RSEND)
BLOCKING_SEND(MPI_Bsend, LC_MPIF_BSEND)

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
	     MPI_Status *st)
{
	if (g.on)
		credit(msg(bytes(count, type)));
	WAITING(LC_MPIF_RECV, PMPI_Recv(buf, count, type, src, tag, comm, st));
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
		 void *rbuf, int rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
		 MPI_Status *st)
{
	if (g.on) {
		uint64_t s = bytes(scount, stype), r = bytes(rcount, rtype);

		credit(msg(s > r ? s : r));
	}
	WAITING(LC_MPIF_SENDRECV, PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag,
			      comm, st));
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag, int src,
			 int rtag, MPI_Comm comm, MPI_Status *st)
{
	if (g.on)
		credit(msg(bytes(count, type)));
	WAITING(LC_MPIF_SENDRECV_REPLACE, PMPI_Sendrecv_replace(buf, count, type, dest, stag, src, rtag, comm, st));
}

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *st)
{
	WAITING(LC_MPIF_PROBE, PMPI_Probe(src, tag, comm, st));
}

int MPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *m, MPI_Status *st)
{
	WAITING(LC_MPIF_MPROBE, PMPI_Mprobe(src, tag, comm, m, st));
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *m, MPI_Status *st)
{
	if (g.on)
		credit(msg(bytes(count, type)));
	WAITING(LC_MPIF_MRECV, PMPI_Mrecv(buf, count, type, m, st));
}

/* Nonblocking starts do not wait: they only carry the transfer's ideal
 * time, which the completion's waiting consumes. */
#define STARTING(k, call)                                               \
	do {                                                            \
		if (g.on) {                                             \
			enter();                                        \
			credit(msg(k));                                 \
		}                                                       \
		return call;                                            \
	} while (0)

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	      MPI_Request *req)
{
	STARTING(bytes(count, type), PMPI_Isend(buf, count, type, dest, tag, comm, req));
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	       MPI_Request *req)
{
	STARTING(bytes(count, type), PMPI_Issend(buf, count, type, dest, tag, comm, req));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
	      MPI_Request *req)
{
	STARTING(bytes(count, type), PMPI_Irecv(buf, count, type, src, tag, comm, req));
}

/* ---- completion ------------------------------------------------------------------ */

int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
	WAITING(LC_MPIF_WAIT, PMPI_Wait(req, st));
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	WAITING(LC_MPIF_WAITALL, PMPI_Waitall(n, reqs, sts));
}

int MPI_Waitany(int n, MPI_Request reqs[], int *idx, MPI_Status *st)
{
	WAITING(LC_MPIF_WAITANY, PMPI_Waitany(n, reqs, idx, st));
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int idx[], MPI_Status sts[])
{
	WAITING(LC_MPIF_WAITSOME, PMPI_Waitsome(n, reqs, outcount, idx, sts));
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
	TESTING(LC_MPIF_TEST, PMPI_Test(req, flag, st), *flag);
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
	TESTING(LC_MPIF_TESTALL, PMPI_Testall(n, reqs, flag, sts), *flag);
}

int MPI_Testany(int n, MPI_Request reqs[], int *idx, int *flag, MPI_Status *st)
{
	TESTING(LC_MPIF_TESTANY, PMPI_Testany(n, reqs, idx, flag, st), *flag);
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int idx[], MPI_Status sts[])
{
	TESTING(LC_MPIF_TESTSOME, PMPI_Testsome(n, reqs, outcount, idx, sts), *outcount != 0);
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *st)
{
	TESTING(LC_MPIF_IPROBE, PMPI_Iprobe(src, tag, comm, flag, st), *flag);
}

int MPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *m, MPI_Status *st)
{
	TESTING(LC_MPIF_IMPROBE, PMPI_Improbe(src, tag, comm, flag, m, st), *flag);
}

/* ---- collectives ------------------------------------------------------------------- */

#define COLL(f, model, k, comm, call)                                   \
	do {                                                            \
		if (g.on)                                               \
			credit_coll(model, k, comm);                    \
		WAITING(f, call);                                       \
	} while (0)

int MPI_Barrier(MPI_Comm comm)
{
	COLL(LC_MPIF_BARRIER, C_SYNC, 0, comm, PMPI_Barrier(comm));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	COLL(LC_MPIF_BCAST, C_TREE, bytes(count, type), comm, PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
	       MPI_Comm comm)
{
	COLL(LC_MPIF_REDUCE, C_TREE, bytes(count, type), comm,
	     PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
		  MPI_Comm comm)
{
	COLL(LC_MPIF_ALLREDUCE, C_TREE2, bytes(count, type), comm, PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
	     MPI_Comm comm)
{
	COLL(LC_MPIF_SCAN, C_TREE, bytes(count, type), comm, PMPI_Scan(sbuf, rbuf, count, type, op, comm));
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
	       MPI_Comm comm)
{
	COLL(LC_MPIF_EXSCAN, C_TREE, bytes(count, type), comm, PMPI_Exscan(sbuf, rbuf, count, type, op, comm));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
	       MPI_Datatype rtype, int root, MPI_Comm comm)
{
	COLL(LC_MPIF_GATHER, C_GATHER, bytes(scount, stype), comm,
	     PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
		const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
		MPI_Comm comm)
{
	COLL(LC_MPIF_GATHERV, C_GATHER, bytes(scount, stype), comm,
	     PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm));
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		MPI_Datatype rtype, int root, MPI_Comm comm)
{
	COLL(LC_MPIF_SCATTER, C_GATHER, bytes(rcount, rtype), comm,
	     PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
		 MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, int root,
		 MPI_Comm comm)
{
	COLL(LC_MPIF_SCATTERV, C_GATHER, bytes(rcount, rtype), comm,
	     PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm));
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		  MPI_Datatype rtype, MPI_Comm comm)
{
	COLL(LC_MPIF_ALLGATHER, C_GATHER, bytes(scount, stype), comm,
	     PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
		   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
	COLL(LC_MPIF_ALLGATHERV, C_GATHER, bytes(scount, stype), comm,
	     PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		 MPI_Datatype rtype, MPI_Comm comm)
{
	COLL(LC_MPIF_ALLTOALL, C_ALL2ALL, bytes(scount, stype), comm,
	     PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
		  MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
		  MPI_Datatype rtype, MPI_Comm comm)
{
	COLL(LC_MPIF_ALLTOALLV, C_ALL2ALL, g.on ? avg_bytes(scounts, stype, comm) : 0, comm,
	     PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm));
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
		  const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
		  const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
	COLL(LC_MPIF_ALLTOALLW, C_ALL2ALL, g.on && stypes ? avg_bytes(scounts, stypes[0], comm) : 0, comm,
	     PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
			    comm));
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
		       MPI_Op op, MPI_Comm comm)
{
	COLL(LC_MPIF_REDUCE_SCATTER, C_GATHER, g.on ? avg_bytes(rcounts, type, comm) : 0, comm,
	     PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm));
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
			     MPI_Op op, MPI_Comm comm)
{
	COLL(LC_MPIF_REDUCE_SCATTER_BLOCK, C_GATHER, bytes(rcount, type), comm,
	     PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm));
}

/* Communicator construction synchronizes the group too. */
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out)
{
	COLL(LC_MPIF_COMM_SPLIT, C_SYNC, 0, comm, PMPI_Comm_split(comm, color, key, out));
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *out)
{
	COLL(LC_MPIF_COMM_DUP, C_SYNC, 0, comm, PMPI_Comm_dup(comm, out));
}

/* ---- one-sided ------------------------------------------------------------------- */

int MPI_Put(const void *obuf, int ocount, MPI_Datatype otype, int trank, MPI_Aint tdisp,
	    int tcount, MPI_Datatype ttype, MPI_Win win)
{
	STARTING(bytes(ocount, otype),
		 PMPI_Put(obuf, ocount, otype, trank, tdisp, tcount, ttype, win));
}

int MPI_Get(void *obuf, int ocount, MPI_Datatype otype, int trank, MPI_Aint tdisp, int tcount,
	    MPI_Datatype ttype, MPI_Win win)
{
	STARTING(bytes(ocount, otype),
		 PMPI_Get(obuf, ocount, otype, trank, tdisp, tcount, ttype, win));
}

int MPI_Win_fence(int assert, MPI_Win win)
{
	MPI_Group grp;
	int r = 0, p = 1;

	if (g.on && g.have_loggp && PMPI_Win_get_group(win, &grp) == MPI_SUCCESS) {
		PMPI_Group_size(grp, &p);
		PMPI_Group_free(&grp);
		while ((1 << r) < p)
			r++;
		credit(r * (g.L + g.o));
	}
	WAITING(LC_MPIF_WIN_FENCE, PMPI_Win_fence(assert, win));
}

int MPI_Win_wait(MPI_Win win)
{
	WAITING(LC_MPIF_WIN_WAIT, PMPI_Win_wait(win));
}

int MPI_Win_start(MPI_Group grp, int assert, MPI_Win win)
{
	WAITING(LC_MPIF_WIN_START, PMPI_Win_start(grp, assert, win));
}

int MPI_Win_complete(MPI_Win win)
{
	WAITING(LC_MPIF_WIN_COMPLETE, PMPI_Win_complete(win));
}

int MPI_Win_lock(int type, int rank, int assert, MPI_Win win)
{
	WAITING(LC_MPIF_WIN_LOCK, PMPI_Win_lock(type, rank, assert, win));
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
	WAITING(LC_MPIF_WIN_UNLOCK, PMPI_Win_unlock(rank, win));
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
	WAITING(LC_MPIF_WIN_LOCK_ALL, PMPI_Win_lock_all(assert, win));
}

int MPI_Win_unlock_all(MPI_Win win)
{
	WAITING(LC_MPIF_WIN_UNLOCK_ALL, PMPI_Win_unlock_all(win));
}

int MPI_Win_flush(int rank, MPI_Win win)
{
	WAITING(LC_MPIF_WIN_FLUSH, PMPI_Win_flush(rank, win));
}

int MPI_Win_flush_all(MPI_Win win)
{
	WAITING(LC_MPIF_WIN_FLUSH_ALL, PMPI_Win_flush_all(win));
}
