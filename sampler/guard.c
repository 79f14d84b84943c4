/*
 * guard.c — surviving a shrunk mapping (see guard.h).
 */
#include "guard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

/* The calling thread's armed guard, NULL when none: written by the thread
 * itself, read by the signal handler on that same thread. */
static __thread struct lc_guard *volatile armed;

/* The disposition found before ours: written once under init_once, read
 * by the handler, which runs only after it was installed. */
static struct sigaction prev;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int init_err;

/* SIGBUS: jump back to the armed guard when the fault lies in its mapping;
 * otherwise put the previous disposition back and return, so the access
 * faults again under it. */
static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	struct lc_guard *g = armed;
	const char *a = si->si_addr;

	(void)sig;
	(void)ctx;
	if (g && a >= g->lo && a < g->lo + g->len) {
		armed = NULL;
		siglongjmp(g->env, 1);
	}
	sigaction(SIGBUS, &prev, NULL);
}

/* Install on_sigbus.  SA_NODEFER: the jump leaves the handler without
 * sigreturn, so SIGBUS must not stay blocked. */
static void init_once(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &prev))
		init_err = -errno;
}

int lc_guard_init(void)
{
	pthread_once(&once, init_once);
	return init_err;
}

void lc_guard_arm(struct lc_guard *g, const void *map, size_t len)
{
	g->lo = map;
	g->len = len;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* the handler sees lo, len */
	armed = g;
}

void lc_guard_disarm(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* the guarded loads come first */
	armed = NULL;
}
