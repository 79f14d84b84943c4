/*
 * bench_pthread_layer.c — what the pthread preload layer costs a program
 * per uncontended mutex lock: pthread_mutex_lock + unlock pairs through the
 * layer's interposer (which tries the lock first and touches no flag when
 * it is free) against the same pairs through libc's function, both called
 * through a pointer, best of 7 interleaved runs, as a ratio (machine noise makes absolute
 * numbers meaningless).  With a session active, as under "lostcycles
 * record --pthread" (re-executes itself with LOSTCYCLES_SESSION set).
 *
 * Usage: bench_pthread_layer [LAYER.so [ITERATIONS]]
 *        (default build/liblostcycles-pthread.so, 10000000)
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*lock_fn)(pthread_mutex_t *);

/* CLOCK_MONOTONIC in ns. */
static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Lower *best to the ns per lock/unlock pair through lock over n pairs,
 * if this run was faster. */
static void pairs(lock_fn lock, long n, double *best)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	double t = now_ns();

	for (long i = 0; i < n; i++) {
		lock(&m);
		pthread_mutex_unlock(&m);
	}
	t = (now_ns() - t) / (double)n;
	if (t < *best)
		*best = t;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "build/liblostcycles-pthread.so";
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 10000000;
	lock_fn plain, layer;
	double a = 1e30, b = 1e30;
	void *h;

	if (!getenv("LOSTCYCLES_SESSION")) {
		setenv("LOSTCYCLES_SESSION", "bench", 1);
		execv("/proc/self/exe", argv);
		perror("bench_pthread_layer: exec");
		return 1;
	}
	if (n <= 0) {
		fprintf(stderr, "bench_pthread_layer: bad iteration count\n");
		return 2;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "bench_pthread_layer: %s\n", dlerror());
		return 1;
	}
	plain = (lock_fn)dlsym(RTLD_DEFAULT, "pthread_mutex_lock");
	layer = (lock_fn)dlsym(h, "pthread_mutex_lock");
	if (!plain || !layer || plain == layer) {
		fprintf(stderr, "bench_pthread_layer: %s has no pthread_mutex_lock of its own\n",
			path);
		return 1;
	}
	for (int r = 0; r < 7; r++) {	/* interleaved, so drift hits both */
		pairs(plain, n, &a);
		pairs(layer, n, &b);
	}
	printf("uncontended lock+unlock, session active, %ld pairs, best of 7:\n", n);
	printf("  libc pthread_mutex_lock   %6.2f ns\n", a);
	printf("  through the layer         %6.2f ns  (ratio %.2f, +%.2f ns per lock)\n", b,
	       b / a, b - a);
	return 0;
}
