/*
 * mpi_job.h — what the tool needs to profile MPI jobs: LogGP parameter
 * files (read, write, fit from a ping-pong), and where the MPI layer
 * liblostcycles-mpi and the ping-pong program are.  Library code: returns
 * 0 or -errno with a reason, prints nothing.  See docs/mpi.md.
 */
#ifndef LC_MPI_JOB_H
#define LC_MPI_JOB_H

#include <stddef.h>
#include <stdint.h>

#define LC_ENV_LOGGP "LOSTCYCLES_LOGGP"	/* the LogGP file the MPI layer reads */
#define LC_ENV_MPI_LIB "LOSTCYCLES_MPI_LIB"	/* overrides where the layer is */

/* LogGP parameters (Alexandrov et al.'s LogP with a gap per byte): a
 * message of k bytes ideally takes L + o + k G.  MPI libraries switch
 * protocols at a message size (eager below, rendezvous above: a handshake
 * first, then one copy), so a second line may hold from S bytes on, as
 * LogGPS's synchronization threshold S: Ls + o + k Gs.  S = 0: one line. */
struct lc_loggp {
	double L;	/* latency, ns */
	double o;	/* per-message overhead, ns */
	double G;	/* gap per byte, ns */
	double S;	/* protocol switch, bytes (0: none) */
	double Ls;	/* latency from S bytes on (the handshake included), ns */
	double Gs;	/* gap per byte from S bytes on, ns */
};

/* The ideal time of one message of k bytes under lg, ns. */
double lc_loggp_time(const struct lc_loggp *lg, double k);

/* The LogGP file to use: $LOSTCYCLES_LOGGP, else
 * $XDG_CONFIG_HOME/lostcycles/loggp, else $HOME/.config/lostcycles/loggp. */
void lc_loggp_default_path(char *buf, size_t len);

/* Read a LogGP file ("KEY VALUE" lines, L o G required; S, Ls and Gs
 * together or not at all; # comments).  Returns 0, or -errno with the
 * reason in msg. */
int lc_loggp_read(const char *path, struct lc_loggp *lg, char *msg, size_t len);

/* Write lg to path (creating its folder), with a comment line note.
 * Returns 0 or -errno with the reason. */
int lc_loggp_write(const char *path, const struct lc_loggp *lg, const char *note, char *msg,
		   size_t len);

/* Fit the model to n ping-pong points (bytes[i] ascending, one-way time
 * t_ns[i]) by least squares of the relative errors: one line L + o + k G,
 * or, when no line holds every point within 10 %, two lines split at the
 * protocol switch S (the first size of the upper line; each line at least
 * two points), the split whose largest relative error is least.  o is given
 * (measured separately); L = intercept - o and Ls = upper intercept - o,
 * each clamped at 0 (then *clamped is set).  Returns 0, or -EINVAL with
 * the reason (fewer than two sizes, a negative slope). */
int lc_loggp_fit(const double *bytes, const double *t_ns, int n, double o,
		 struct lc_loggp *lg, int *clamped, char *msg, size_t len);

/* The path of a helper file that lives beside the lostcycles binary: in the
 * build tree (DIR/build/NAME, the binary being DIR/lostcycles), or
 * installed (BIN/../lib/NAME, then LIBDIR).  env, when set in the
 * environment, overrides.  Returns 0 or -ENOENT with the places tried. */
int lc_mpi_find(const char *name, const char *env, char *buf, size_t len, char *msg,
		size_t msglen);

/* What an MPI session sets up: the environment that the launcher passes on
 * to every rank, and what the profile must say about CL. */
struct lc_mpi_setup {
	char layer[4096];	/* liblostcycles-mpi, put into LD_PRELOAD */
	char loggp[4096];	/* the LogGP file, "" when there is none */
	int have_loggp;
	char warning[4400];	/* "" or why CL is na */
};

/* Find the layer and the LogGP file (loggp: the user's choice, or NULL for
 * the default) and export LD_PRELOAD (prepended) and LOSTCYCLES_LOGGP into
 * this process's environment, before any thread starts.  A missing LogGP
 * file is not an error: have_loggp = 0 and warning says so.  Returns 0, or
 * -errno with the reason (the layer is missing, a LogGP file is invalid). */
int lc_mpi_setup(struct lc_mpi_setup *m, const char *loggp, char *msg, size_t len);

/* The reason a profile gives for CL when no LogGP file was found. */
#define LC_MPI_NO_LOGGP "no LogGP parameters (run 'lostcycles calibrate --mpi')"

#endif /* LC_MPI_JOB_H */
