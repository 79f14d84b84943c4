/*
 * test_flags.c — liblostcycles: macro semantics, segment creation and
 * publication, slot claim/release/churn, slots-full fallback, no-session
 * behaviour, trace files, process-wide predicates and the tag seqlock, fork.
 *
 * Each case sets the environment and calls lc_priv_reinit_for_tests(); the
 * teardown ends the session, which unlinks every /dev/shm object a case made.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "lc_test.h"
#include "lostcycles.h"
#include "lc_auto.h"
#include "lc_internal.h"
#include "session_test.h"

/* Start a session with a fresh name; slots and trace may be NULL. */
static void start(const char *slots, const char *trace)
{
	lc_test_session("tf", slots, trace, lc_test_dir);
}

/* End any session: flush, unlink, unmap. */
static int stop(void **state)
{
	(void)state;
	unsetenv(LC_ENV_SESSION);
	unsetenv(LC_ENV_TRACE);
	unsetenv(LC_ENV_SLOTS);
	lc_priv_reinit_for_tests();
	return 0;
}

/* Number of lostcycles objects of process pid in /dev/shm. */
static int count_shm(pid_t pid)
{
	char pat[32];
	struct dirent *e;
	DIR *d = opendir("/dev/shm");
	int n = 0;

	assert_non_null(d);
	snprintf(pat, sizeof(pat), ".%d.", (int)pid);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, LC_SHM_PREFIX, strlen(LC_SHM_PREFIX)) &&
		    strstr(e->d_name, pat))
			n++;
	closedir(d);
	return n;
}

/* 1 if p points into the current segment's slot array. */
static int in_segment(const struct lc_slot *p)
{
	struct lc_seg_hdr *h = lc_priv_segment();

	return h && p >= lc_seg_slot(h, 0) && p < lc_seg_slot(h, h->nslots);
}

static void test_no_session(void **state)
{
	int before = count_shm(getpid());

	(void)state;
	unsetenv(LC_ENV_SESSION);
	setenv(LC_ENV_TRACE, "1", 1);	/* no session: no trace file either */
	setenv(LC_ENV_TRACE_DIR, lc_test_dir, 1);
	assert_int_equal(lc_priv_reinit_for_tests(), -ENOENT);
	assert_null(lc_priv_segment());
	assert_null(lc_self);
	LC_BUSY();
	assert_non_null(lc_self);
	assert_int_equal(lc_self->state, LC_ST_BUSY);
	LC_SYNC_BEGIN();
	assert_int_equal(lc_self->state, (LC_ST_BUSY << 8) | LC_ST_SYNC);
	LC_SYNC_END();
	LC_PARALLEL_BEGIN();
	LC_FRAGMENT_BEGIN(1);
	LC_FRAGMENT_END(1);
	LC_SOLUTION_FOUND();
	LC_TEAM(2);
	LC_PARALLEL_END();
	assert_int_equal(lc_self->state, LC_ST_BUSY);
	assert_int_equal(count_shm(getpid()), before);
	assert_int_equal(before, 0);
	assert_int_equal(rmdir(lc_test_dir), 0);	/* still empty */
	assert_int_equal(mkdir(lc_test_dir, 0700), 0);
}

/* Run lc_priv_reinit_for_tests() with stderr captured; returns the bytes the
 * library wrote there. */
static long reinit_stderr(void)
{
	char path[] = "/tmp/lc-test-stderr.XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	struct stat st;

	assert_true(fd >= 0 && saved >= 0);
	unlink(path);
	fflush(stderr);
	assert_int_equal(dup2(fd, 2), 2);
	lc_priv_reinit_for_tests();
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	return (long)st.st_size;
}

/* The library prints nothing unless LC_DEBUG=1. */
static void test_debug_output(void **state)
{
	(void)state;
	setenv(LC_ENV_SESSION, "bad/name", 1);
	unsetenv("LC_DEBUG");
	assert_int_equal(reinit_stderr(), 0);
	setenv(LC_ENV_SLOTS, "junk", 1);
	setenv(LC_ENV_SESSION, "tfdebug", 1);
	assert_int_equal(reinit_stderr(), 0);
	setenv("LC_DEBUG", "1", 1);
	assert_true(reinit_stderr() > 0);
	setenv(LC_ENV_SESSION, "bad/name", 1);
	assert_true(reinit_stderr() > 0);
	unsetenv("LC_DEBUG");
}

static void test_invalid_env(void **state)
{
	(void)state;
	setenv(LC_ENV_SESSION, "a/b", 1);
	assert_int_equal(lc_priv_reinit_for_tests(), -EINVAL);
	setenv(LC_ENV_SESSION, "", 1);
	assert_int_equal(lc_priv_reinit_for_tests(), -EINVAL);
	setenv(LC_ENV_SESSION, "0123456789012345678901234567890123456789"
			       "012345678901234567890123", 1);	/* 64 chars */
	assert_int_equal(lc_priv_reinit_for_tests(), -EINVAL);
	assert_null(lc_priv_segment());
	assert_int_equal(count_shm(getpid()), 0);
	LC_BUSY();
	assert_false(in_segment(lc_self));

	start("abc", NULL);
	assert_int_equal(lc_priv_segment()->nslots, LC_SLOTS_DEFAULT);
	start("0", NULL);
	assert_int_equal(lc_priv_segment()->nslots, LC_SLOTS_DEFAULT);
	start("100000", NULL);
	assert_int_equal(lc_priv_segment()->nslots, LC_SLOTS_MAX);
	start("-3", NULL);
	assert_int_equal(lc_priv_segment()->nslots, LC_SLOTS_DEFAULT);
}

static void test_segment(void **state)
{
	struct lc_seg_hdr *h;
	const char *name;
	char path[256], nonce[32], comm[16] = "";
	struct stat st;
	FILE *f;

	(void)state;
	start("8", NULL);
	h = lc_priv_segment();
	name = lc_priv_segment_name();
	assert_non_null(name);
	snprintf(path, sizeof(path), "/dev/shm%s", name);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(st.st_size, LC_HDR_SIZE + 8 * (64 + 8 + 128));	/* slots, place cells, stamps */
	assert_int_equal(__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE), LC_SEG_MAGIC);
	assert_int_equal(h->abi_major, LC_ABI_MAJOR);
	assert_int_equal(h->abi_minor, LC_ABI_MINOR);
	assert_int_equal(h->hdr_size, LC_HDR_SIZE);
	assert_int_equal(h->slot_size, 64);
	assert_int_equal(h->nslots, 8);
	assert_int_equal(h->seg_size, lc_seg_size_of(LC_SEG_PLACES | LC_SEG_STAMPS, 8));
	assert_int_equal(h->pid, getpid());
	assert_int_equal(h->flags, LC_SEG_PLACES | LC_SEG_STAMPS);
	assert_true(h->start_ns > 0 && h->start_ns <= lc_clock_ns());
	{
		/* proc_start is field 22 of /proc/self/stat */
		FILE *sf = fopen("/proc/self/stat", "r");
		unsigned long long v = 0;

		assert_non_null(sf);
		assert_int_equal(fscanf(sf, "%*d (%*[^)]) %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
					"%*u %*u %*d %*d %*d %*d %*d %*d %llu", &v), 1);
		fclose(sf);
		assert_true(v > 0);
		assert_int_equal(h->proc_start, v);
	}
	snprintf(nonce, sizeof(nonce), ".%d.%016llx", (int)getpid(),
		 (unsigned long long)h->nonce);
	assert_non_null(strstr(name, nonce));
	assert_int_equal(strncmp(name, "/lostcycles.tf", 14), 0);
	f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	assert_string_equal(h->comm, comm);
	assert_int_equal(h->slot_hwm, 0);
	assert_int_equal(h->work_exists, 0);
	assert_int_equal(h->ntags, 0);

	/* Ending the session unlinks the name. */
	stop(NULL);
	assert_int_equal(stat(path, &st), -1);
}

/* One step of a thread's nesting: after the macro, its slot holds w. */
#define STEP(s, macro, w) do { macro; assert_int_equal((s)->state, (w)); } while (0)

/* A new session whose calling thread is BUSY: its slot. */
static struct lc_slot *busy_thread(void)
{
	start(NULL, NULL);
	LC_BUSY();
	assert_true(in_segment(lc_self));
	return lc_self;
}

/* The macros a step of a table runs (M_SYNC_IN: sync_in of its word). */
enum { M_BUSY, M_IDLE, M_SYNC_B, M_SYNC_E, M_COMM_B, M_COMM_E, M_SYNC_IN };

#define ANY UINT32_MAX	/* a step after which the word is not checked */

/* A step of a thread's nesting: the macro, then the word its slot holds. */
struct mstep {
	int m;
	uint32_t want;
};

static void do_macro(int m)
{
	switch (m) {
	case M_BUSY: LC_BUSY(); break;
	case M_IDLE: LC_IDLE(); break;
	case M_SYNC_B: LC_SYNC_BEGIN(); break;
	case M_SYNC_E: LC_SYNC_END(); break;
	case M_COMM_B: LC_COMM_BEGIN(); break;
	default: LC_COMM_END(); break;
	}
}

static void sync_in(struct lc_slot *s, uint32_t w);

/* The n steps at st on the calling thread, whose slot is s. */
static void run_macros(struct lc_slot *s, const struct mstep *st, size_t n)
{
	for (; n--; st++) {
		if (st->m == M_SYNC_IN) {
			sync_in(s, st->want);
			continue;
		}
		do_macro(st->m);
		if (st->want != ANY)
			assert_int_equal(s->state, st->want);
	}
}

#define RUN_MACROS(s, t) run_macros((s), (t), sizeof(t) / sizeof((t)[0]))

/* Pairs nest and restore the word; a plain state drops the saved ones. */
static const struct mstep word_steps[] = {
	{ M_SYNC_B, 0x0203 }, { M_COMM_B, 0x020304 }, { M_COMM_E, 0x0203 },
	{ M_SYNC_E, LC_ST_BUSY }, { M_IDLE, LC_ST_IDLE }, { M_COMM_B, ANY }, { M_BUSY, LC_ST_BUSY },
};

static void test_state_word(void **state)
{
	struct lc_slot *s;

	(void)state;
	start(NULL, NULL);
	assert_null(lc_self);
	s = busy_thread();
	assert_int_equal(s->state, LC_ST_BUSY);
	RUN_MACROS(s, word_steps);
}

/* Three saved states survive; END past the bottom gives NONE; the first
 * macro of a thread can be a BEGIN. */
static void test_state_depth(void **state)
{
	static const struct mstep steps[] = {
		{ M_SYNC_B, ANY }, { M_COMM_B, ANY }, { M_SYNC_B, 0x02030403 }, { M_SYNC_E, ANY },
		{ M_COMM_E, ANY }, { M_SYNC_E, LC_ST_BUSY }, { M_SYNC_E, LC_ST_NONE },
	};

	(void)state;
	RUN_MACROS(busy_thread(), steps);
	stop(NULL);
	start(NULL, NULL);
	LC_SYNC_BEGIN();
	assert_int_equal(lc_self->state, LC_ST_SYNC);
	STEP(lc_self, LC_SYNC_END(), LC_ST_NONE);
}

/*
 * SYNC in SYNC, and in every other state: the END of a pair restores the
 * whole word of before its BEGIN, step by step.  Here is the case a cheaper
 * pair could get wrong: an END that put back the last state the thread set
 * with LC_BUSY()/LC_IDLE() (or one kept by the macros in a variable of
 * their own) would end an inner SYNC in the outer SYNC's base state, and
 * lose what the layers or the trace mode stored.  END works on the slot's
 * word, so none of them is lost.
 */
static void sync_in(struct lc_slot *s, uint32_t w)
{
	assert_true(w <= 0xffff);	/* two more levels fit */
	assert_int_equal(s->state, w);
	STEP(s, LC_SYNC_BEGIN(), (w << 8) | LC_ST_SYNC);
	STEP(s, LC_SYNC_BEGIN(), (w << 16) | (LC_ST_SYNC << 8) | LC_ST_SYNC);
	STEP(s, LC_SYNC_END(), (w << 8) | LC_ST_SYNC);	/* still SYNC */
	STEP(s, LC_SYNC_END(), w);
}

/* A thread whose state the pthread or OpenMP layer set: a pair restores the
 * layer's state (the word loses the layer's mark, so the layers keep out). */
static void *layer_thread(void *arg)
{
	uint32_t *w = arg;

	lc_auto_set(LC_ST_BUSY);
	w[0] = __atomic_load_n(&lc_priv_thr.sp->state, __ATOMIC_RELAXED);
	LC_SYNC_BEGIN();
	w[1] = __atomic_load_n(&lc_priv_thr.sp->state, __ATOMIC_RELAXED);
	LC_SYNC_END();
	w[2] = __atomic_load_n(&lc_priv_thr.sp->state, __ATOMIC_RELAXED);
	return NULL;
}

/* The sampler's view of a thread nesting pairs: one load of the word at any
 * moment gives one of the words the pairs step through, never a mix. */
#define NEST_READS 200000

static struct lc_slot *nest_slot;
static int nest_stop;

static void *nest_writer(void *arg)
{
	(void)arg;
	LC_BUSY();
	__atomic_store_n(&nest_slot, lc_self, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&nest_stop, __ATOMIC_RELAXED)) {
		LC_SYNC_BEGIN();
		LC_SYNC_BEGIN();
		LC_SYNC_END();
		LC_SYNC_END();
	}
	return NULL;
}

/* SYNC pairs in IDLE, BUSY and COMM; SYNC in SYNC in COMM fills the word;
 * an END past the bottom gives NONE. */
static const struct mstep nesting_steps[] = {
	{ M_IDLE, LC_ST_IDLE }, { M_SYNC_IN, LC_ST_IDLE }, { M_BUSY, LC_ST_BUSY },
	{ M_SYNC_IN, LC_ST_BUSY }, { M_COMM_B, ANY }, { M_SYNC_IN, (LC_ST_BUSY << 8) | LC_ST_COMM },
	{ M_SYNC_B, 0x020403 }, { M_SYNC_B, 0x02040303 }, { M_SYNC_E, 0x020403 }, { M_SYNC_E, ANY },
	{ M_COMM_E, ANY }, { M_SYNC_E, ANY }, { M_SYNC_IN, LC_ST_NONE },
};

static void test_sync_nesting(void **state)
{
	(void)state;
	RUN_MACROS(busy_thread(), nesting_steps);
}

/* Three levels below the top come back in order. */
static void test_sync_three_levels(void **state)
{
	static const struct mstep steps[] = {
		{ M_SYNC_B, ANY }, { M_SYNC_B, ANY }, { M_SYNC_B, 0x02030303 },
		{ M_SYNC_E, 0x020303 }, { M_SYNC_E, 0x0203 }, { M_SYNC_E, LC_ST_BUSY },
	};

	(void)state;
	RUN_MACROS(busy_thread(), steps);
}

/* END forgets the object of a LC_SYNC_BEGIN_ON, even the first one (id 1:
 * flags 0x100, the smallest word with an object), and leaves the
 * queue-empty flag alone. */
static void test_sync_end_forgets(void **state)
{
	static int lock;
	struct lc_slot *s;

	(void)state;
	s = busy_thread();
	LC_SYNC_BEGIN_ON(&lock);
	assert_int_equal(s->flags, 1u << LC_SLOT_SYNC_SHIFT);
	LC_SYNC_END();
	assert_int_equal(s->flags, 0);
	assert_int_equal(s->state, LC_ST_BUSY);
	LC_QUEUE_EMPTY(1);
	LC_SYNC_BEGIN_ON(&lock);
	assert_int_equal(s->flags, (1u << LC_SLOT_SYNC_SHIFT) | LC_SLOT_QUEUE_EMPTY);
	LC_SYNC_END();
	assert_int_equal(s->flags, LC_SLOT_QUEUE_EMPTY);
	LC_SYNC_BEGIN();
	LC_SYNC_END();
	assert_int_equal(s->flags, LC_SLOT_QUEUE_EMPTY);
	LC_QUEUE_EMPTY(0);
}

/* Pairs with and without an object nest either way. */
static void test_sync_mixed_pairs(void **state)
{
	static int locks[2];
	struct lc_slot *s;

	(void)state;
	s = busy_thread();
	LC_SYNC_BEGIN_ON(&locks[0]);
	LC_SYNC_END();
	/* a plain pair inside an object's: the outer SYNC comes back */
	LC_SYNC_BEGIN_ON(&locks[1]);
	assert_int_equal(s->flags >> LC_SLOT_SYNC_SHIFT, 2);
	STEP(s, LC_SYNC_BEGIN(), 0x020303);
	STEP(s, LC_SYNC_END(), 0x0203);
	STEP(s, LC_SYNC_END(), LC_ST_BUSY);
	assert_int_equal(s->flags, 0);
	/* an object's pair inside a plain one */
	LC_SYNC_BEGIN();
	STEP(s, LC_SYNC_BEGIN_ON(&locks[1]), 0x020303);
	STEP(s, LC_SYNC_END(), 0x0203);
	STEP(s, LC_SYNC_END(), LC_ST_BUSY);
	assert_int_equal(s->flags, 0);
}

/* The layers' state; one load of a nesting thread's word gives one of the
 * words it goes through. */
static void test_sync_threads(void **state)
{
	struct lc_slot *s;
	uint32_t w[3];
	pthread_t t;
	long seen = 0;

	(void)state;
	busy_thread();
	assert_int_equal(pthread_create(&t, NULL, layer_thread, w), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(w[0], LC_AUTO_MARK | LC_ST_BUSY);
	assert_int_equal(w[1], (LC_ST_BUSY << 8) | LC_ST_SYNC);
	assert_int_equal(w[2], LC_ST_BUSY);
	assert_int_equal(pthread_create(&t, NULL, nest_writer, NULL), 0);
	while (!(s = __atomic_load_n(&nest_slot, __ATOMIC_ACQUIRE)))
		sched_yield();
	for (int i = 0; i < NEST_READS; i++) {
		uint32_t x = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);

		seen += x == LC_ST_BUSY || x == 0x0203 || x == 0x020303;
	}
	__atomic_store_n(&nest_stop, 1, __ATOMIC_RELAXED);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(seen, NEST_READS);
}

/* Trace mode: the library performs the pairs, with the same words. */
static void test_sync_trace(void **state)
{
	struct lc_slot *s;
	char path[PATH_MAX];

	(void)state;
	start(NULL, "1");
	LC_BUSY();
	s = lc_seg_slot(lc_priv_segment(), 0);
	LC_SYNC_BEGIN();
	STEP(s, LC_SYNC_BEGIN(), 0x020303);
	STEP(s, LC_SYNC_END(), 0x0203);
	STEP(s, LC_SYNC_END(), LC_ST_BUSY);
	snprintf(path, sizeof(path), "%s", lc_priv_trace_file());
	stop(NULL);
	assert_int_equal(unlink(path), 0);
}

static void test_task_queue(void **state)
{
	struct lc_slot *s;
	uint64_t i;
	int k = 0;

	(void)state;
	start(NULL, NULL);
	LC_TASK_BEGIN(7);
	s = lc_self;
	assert_int_equal(s->task, 7);
	LC_TASK_END(7);
	assert_int_equal(s->task, 0);
	for (i = 100; i < 106; i++)
		LC_TASK_WASTED(i);
	assert_int_equal(s->nwasted, 6);
	assert_int_equal(s->wasted[0], 104);
	assert_int_equal(s->wasted[1], 105);
	assert_int_equal(s->wasted[2], 102);
	assert_int_equal(s->wasted[3], 103);
	LC_QUEUE_EMPTY(5);
	assert_int_equal(s->flags, LC_SLOT_QUEUE_EMPTY);
	LC_QUEUE_EMPTY(0);
	assert_int_equal(s->flags, 0);
	/* Arguments are evaluated once. */
	LC_TASK_BEGIN(++k);
	LC_TASK_END(k++);
	LC_TASK_WASTED(k++);
	LC_QUEUE_EMPTY(k++);
	LC_FRAGMENT_BEGIN(k++);
	LC_FRAGMENT_END(k - 1);
	LC_TEAM(k++);
	assert_int_equal(k, 6);
}

static void *claim_thread(void *arg)
{
	uint64_t *out = arg;

	LC_BUSY();
	out[0] = (uint64_t)(lc_self - lc_seg_slot(lc_priv_segment(), 0));
	out[1] = lc_self->tid;
	out[2] = lc_self->gen;
	out[3] = (uint64_t)gettid();
	out[4] = in_segment(lc_self);
	return NULL;
}

static void test_claim_release(void **state)
{
	struct lc_seg_hdr *h;
	struct lc_slot *s;
	uint64_t out[5];
	pthread_t t;

	(void)state;
	start("8", NULL);
	h = lc_priv_segment();
	LC_BUSY();
	assert_ptr_equal(lc_self, lc_seg_slot(h, 0));
	assert_int_equal(lc_self->tid, gettid());
	assert_int_equal(lc_self->gen, 1);
	assert_int_equal(h->slot_hwm, 1);
	assert_int_equal(pthread_create(&t, NULL, claim_thread, out), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], out[3]);
	assert_int_equal(out[2], 1);
	assert_true(out[4]);
	s = lc_seg_slot(h, 1);
	assert_int_equal(s->tid, 0);	/* released at thread exit */
	assert_int_equal(s->gen, 1);	/* generation kept */
	assert_int_equal(s->state, 0);
	assert_int_equal(h->slot_hwm, 2);
	/* The next thread reuses the slot with a new generation. */
	assert_int_equal(pthread_create(&t, NULL, claim_thread, out), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[2], 2);
	assert_int_equal(s->tid, 0);
	assert_int_equal(h->slot_hwm, 2);
	assert_int_equal(h->slots_full, 0);
}

#define CHURN_SLOTS 4
#define CHURN_ALIVE 3
#define CHURN_ROUNDS 40

static void *churn_thread(void *arg)
{
	int *ok = arg;
	int i;

	for (i = 0; i < 100; i++) {
		LC_SYNC_BEGIN();
		LC_SYNC_END();
	}
	*ok = in_segment(lc_self) &&
	      __atomic_load_n(&lc_self->tid, __ATOMIC_RELAXED) == (uint32_t)gettid();
	return NULL;
}

static void test_churn(void **state)
{
	pthread_t t[CHURN_ALIVE];
	int ok[CHURN_ALIVE], r, i;
	uint32_t gens = 0, k;
	struct lc_seg_hdr *h;

	(void)state;
	start("4", NULL);
	h = lc_priv_segment();
	LC_BUSY();
	for (r = 0; r < CHURN_ROUNDS; r++) {
		for (i = 0; i < CHURN_ALIVE; i++)
			assert_int_equal(pthread_create(&t[i], NULL, churn_thread, &ok[i]), 0);
		for (i = 0; i < CHURN_ALIVE; i++) {
			assert_int_equal(pthread_join(t[i], NULL), 0);
			assert_true(ok[i]);
		}
	}
	assert_int_equal(h->slots_full, 0);
	assert_true(h->slot_hwm <= CHURN_SLOTS);
	for (k = 0; k < h->nslots; k++) {
		gens += lc_seg_slot(h, k)->gen;
		if (k > 0)
			assert_int_equal(lc_seg_slot(h, k)->tid, 0);
	}
	assert_int_equal(gens, 1 + CHURN_ALIVE * CHURN_ROUNDS);
}

static pthread_barrier_t full_bar;

static void *full_thread(void *arg)
{
	int *in = arg;

	LC_BUSY();
	LC_SYNC_BEGIN();
	*in = in_segment(lc_self);
	if (!*in)
		*in = lc_self->state == 0x0203 ? -1 : -2;	/* private slot works */
	pthread_barrier_wait(&full_bar);
	return NULL;
}

static void test_slots_full(void **state)
{
	pthread_t t[3];
	int in[3], i, real = 0, dummy = 0;

	(void)state;
	start("2", NULL);
	LC_BUSY();
	assert_int_equal(pthread_barrier_init(&full_bar, NULL, 3), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&t[i], NULL, full_thread, &in[i]), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		real += in[i] == 1;
		dummy += in[i] == -1;
	}
	pthread_barrier_destroy(&full_bar);
	/* One thread got slot 1 and released it; two had a private slot
	 * (three alive at once, plus main, for two slots). */
	assert_int_equal(real + dummy, 3);
	assert_int_equal(real, 1);
	assert_int_equal(lc_priv_segment()->slots_full, (uint32_t)dummy);
	assert_int_equal(lc_seg_slot(lc_priv_segment(), 1)->tid, 0);
}

static void test_process_wide(void **state)
{
	struct lc_seg_hdr *h;
	uint32_t seq;
	int i;

	(void)state;
	start(NULL, NULL);
	h = lc_priv_segment();
	LC_PARALLEL_END();	/* never below 0 */
	assert_int_equal(h->work_exists, 0);
	LC_PARALLEL_BEGIN();
	LC_PARALLEL_BEGIN();
	assert_int_equal(h->work_exists, 2);
	LC_PARALLEL_END();
	assert_int_equal(h->work_exists, 1);
	LC_PARALLEL_END();
	LC_PARALLEL_END();
	assert_int_equal(h->work_exists, 0);
	LC_SOLUTION_FOUND();
	assert_int_equal(h->solution_found, 1);
	LC_TEAM(6);
	assert_int_equal(h->team, 6);

	seq = h->tag_seq;
	assert_int_equal(seq % 2, 0);
	LC_FRAGMENT_BEGIN(5);
	LC_FRAGMENT_BEGIN(-7);
	LC_FRAGMENT_BEGIN(5);
	assert_int_equal(h->tag_seq, seq + 6);
	assert_int_equal(h->ntags, 2);
	assert_int_equal(h->tags[0].tag, 5);
	assert_int_equal(h->tags[0].depth, 2);
	assert_int_equal(h->tags[1].tag, -7);
	assert_int_equal(h->tags[1].depth, 1);
	LC_FRAGMENT_END(9);	/* not open: ignored */
	assert_int_equal(h->tag_seq, seq + 6);
	LC_FRAGMENT_END(5);
	assert_int_equal(h->tags[0].depth, 1);
	LC_FRAGMENT_END(5);	/* removed: the last entry moves down */
	assert_int_equal(h->ntags, 1);
	assert_int_equal(h->tags[0].tag, -7);
	assert_int_equal(h->tags[1].depth, 0);
	LC_FRAGMENT_END(-7);
	assert_int_equal(h->ntags, 0);
	for (i = 0; i < (int)LC_MAX_TAGS; i++)
		LC_FRAGMENT_BEGIN(1000 + i);
	assert_int_equal(h->ntags, LC_MAX_TAGS);
	assert_int_equal(h->tags_full, 0);
	LC_FRAGMENT_BEGIN(1);	/* table full */
	assert_int_equal(h->tags_full, 1);
	LC_FRAGMENT_BEGIN(1000);	/* an open tag still nests */
	assert_int_equal(h->tags[0].depth, 2);
	LC_FRAGMENT_END(1);
	for (i = 0; i < (int)LC_MAX_TAGS; i++)
		LC_FRAGMENT_END(1000 + i);
	LC_FRAGMENT_END(1000);
	assert_int_equal(h->ntags, 0);
	assert_int_equal(h->tag_seq % 2, 0);
}

static volatile int seq_stop;

static void *seq_writer(void *arg)
{
	int64_t base = (int64_t)(intptr_t)arg;

	while (!__atomic_load_n(&seq_stop, __ATOMIC_RELAXED)) {
		LC_FRAGMENT_BEGIN(base);
		LC_FRAGMENT_BEGIN(base + 1);
		LC_FRAGMENT_BEGIN(base);
		LC_FRAGMENT_END(base);
		LC_FRAGMENT_END(base);
		LC_FRAGMENT_END(base + 1);
		sched_yield();	/* 2 CPUs: let the reader see quiet moments */
	}
	return NULL;
}

/* A reader that follows the seqlock protocol of lc_abi.h sees only
 * consistent tables: every entry open, each tag once. */
static void test_seqlock(void **state)
{
	struct lc_tag_entry tags[LC_MAX_TAGS];
	struct lc_seg_hdr *h;
	int good = 0, i, j, iter;
	uint64_t deadline;
	pthread_t w[2];

	(void)state;
	start(NULL, NULL);
	h = lc_priv_segment();
	seq_stop = 0;
	assert_int_equal(pthread_create(&w[0], NULL, seq_writer, (void *)10), 0);
	assert_int_equal(pthread_create(&w[1], NULL, seq_writer, (void *)20), 0);
	deadline = lc_clock_ns() + 5000000000ull;
	for (iter = 0; good < 2000 && (iter % 1024 || lc_clock_ns() < deadline); iter++) {
		uint32_t s1 = __atomic_load_n(&h->tag_seq, __ATOMIC_ACQUIRE), s2, n;

		if (s1 & 1)
			continue;
		n = __atomic_load_n(&h->ntags, __ATOMIC_RELAXED);
		if (n > LC_MAX_TAGS)
			n = LC_MAX_TAGS;
		for (i = 0; i < (int)n; i++) {
			tags[i].tag = __atomic_load_n(&h->tags[i].tag, __ATOMIC_RELAXED);
			tags[i].depth = __atomic_load_n(&h->tags[i].depth, __ATOMIC_RELAXED);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&h->tag_seq, __ATOMIC_RELAXED);
		if (s1 != s2)
			continue;
		good++;
		assert_true(n <= 4);
		for (i = 0; i < (int)n; i++) {
			assert_true(tags[i].depth >= 1 && tags[i].depth <= 2);
			assert_true(tags[i].tag == 10 || tags[i].tag == 11 ||
				    tags[i].tag == 20 || tags[i].tag == 21);
			for (j = 0; j < i; j++)
				assert_true(tags[i].tag != tags[j].tag);
		}
	}
	__atomic_store_n(&seq_stop, 1, __ATOMIC_RELAXED);
	assert_int_equal(pthread_join(w[0], NULL), 0);
	assert_int_equal(pthread_join(w[1], NULL), 0);
	assert_true(good > 0);
	assert_int_equal(h->ntags, 0);
	assert_int_equal(h->tags_full, 0);
}

/* Records of a trace file, read back whole. */
struct trace {
	struct lc_trace_hdr h;
	struct lc_trace_rec *r;
	size_t n;
};

static void trace_read(const char *path, struct trace *t)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_true((size_t)st.st_size >= sizeof(t->h));
	assert_int_equal((st.st_size - sizeof(t->h)) % sizeof(*t->r), 0);
	t->n = (st.st_size - sizeof(t->h)) / sizeof(*t->r);
	t->r = malloc(t->n * sizeof(*t->r) + 1);
	assert_non_null(t->r);
	assert_int_equal(read(fd, &t->h, sizeof(t->h)), sizeof(t->h));
	assert_int_equal(read(fd, t->r, t->n * sizeof(*t->r)), t->n * sizeof(*t->r));
	close(fd);
	unlink(path);
}

/* Copy into out the records of slot (in file order, which is per-thread
 * order); returns how many. */
static size_t trace_slot(const struct trace *t, uint32_t slot, struct lc_trace_rec *out,
			 size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		if (t->r[i].slot == slot && n < max)
			out[n++] = t->r[i];
	return n;
}

#define TRACE_LOOP 5000		/* more than one buffer of records */

static void *trace_thread(void *arg)
{
	int i;

	*(int *)arg = lc_self == NULL;
	LC_BUSY();
	LC_SYNC_BEGIN();
	LC_SYNC_END();
	LC_TASK_BEGIN(9);
	LC_TASK_WASTED(9);
	LC_QUEUE_EMPTY(1);
	LC_TASK_END(9);
	for (i = 0; i < TRACE_LOOP; i++) {
		LC_COMM_BEGIN();
		LC_COMM_END();
	}
	*(int *)arg &= lc_self == NULL;
	return NULL;
}

static void expect(const struct lc_trace_rec *r, uint16_t op, uint64_t arg)
{
	assert_int_equal(r->op, op);
	assert_int_equal(r->arg, arg);
}

static void test_trace_mode(void **state)
{
	struct lc_trace_rec *th, main_r[8], pw[16];
	struct lc_seg_hdr *h;
	char path[PATH_MAX];
	uint64_t t0, nonce;
	struct trace t;
	pthread_t w;
	int null_self = 0;
	size_t n, i;

	(void)state;
	start("8", "1");
	h = lc_priv_segment();
	assert_int_equal(h->flags, LC_SEG_TRACE | LC_SEG_PLACES | LC_SEG_STAMPS);
	nonce = h->nonce;
	t0 = lc_clock_ns();
	assert_non_null(lc_priv_trace_file());
	snprintf(path, sizeof(path), "%s", lc_priv_trace_file());
	LC_BUSY();
	assert_null(lc_self);
	assert_int_equal(lc_seg_slot(h, 0)->state, LC_ST_BUSY);
	assert_int_equal(lc_seg_slot(h, 0)->tid, gettid());
	LC_PARALLEL_BEGIN();
	LC_PARALLEL_BEGIN();
	LC_PARALLEL_END();
	LC_SOLUTION_FOUND();
	LC_TEAM(4);
	LC_FRAGMENT_BEGIN(7);
	LC_FRAGMENT_END(8);	/* not open: not logged */
	LC_FRAGMENT_END(7);
	assert_int_equal(pthread_create(&w, NULL, trace_thread, &null_self), 0);
	assert_int_equal(pthread_join(w, NULL), 0);
	assert_true(null_self);
	assert_int_equal(lc_seg_slot(h, 1)->nwasted, 1);
	assert_int_equal(lc_seg_slot(h, 1)->wasted[0], 9);
	LC_IDLE();
	stop(NULL);	/* as at process exit: RELEASE, flush */

	trace_read(path, &t);
	assert_int_equal(t.h.magic, LC_TRACE_MAGIC);
	assert_int_equal(t.h.abi_major, LC_ABI_MAJOR);
	assert_int_equal(t.h.rec_size, sizeof(struct lc_trace_rec));
	assert_int_equal(t.h.pid, getpid());
	assert_int_equal(t.h.nonce, nonce);
	assert_true(t.h.start_ns <= t0);

	n = trace_slot(&t, 0, main_r, 8);
	assert_int_equal(n, 4);
	expect(&main_r[0], LC_OP_REGISTER, (uint64_t)gettid());
	expect(&main_r[1], LC_OP_STATE, LC_ST_BUSY);
	expect(&main_r[2], LC_OP_STATE, LC_ST_IDLE);
	expect(&main_r[3], LC_OP_RELEASE, (uint64_t)gettid());

	th = malloc(sizeof(*th) * (2 * TRACE_LOOP + 16));
	assert_non_null(th);
	n = trace_slot(&t, 1, th, 2 * TRACE_LOOP + 16);
	assert_int_equal(n, 9 + 2 * TRACE_LOOP);
	assert_int_equal(th[0].op, LC_OP_REGISTER);
	expect(&th[1], LC_OP_STATE, LC_ST_BUSY);
	expect(&th[2], LC_OP_STATE, 0x0203);
	expect(&th[3], LC_OP_STATE, LC_ST_BUSY);
	expect(&th[4], LC_OP_TASK, 9);
	expect(&th[5], LC_OP_WASTED, 9);
	expect(&th[6], LC_OP_QUEUE_EMPTY, 1);
	expect(&th[7], LC_OP_TASK, 0);
	for (i = 0; i < TRACE_LOOP; i++) {
		expect(&th[8 + 2 * i], LC_OP_STATE, 0x0204);
		expect(&th[9 + 2 * i], LC_OP_STATE, LC_ST_BUSY);
	}
	expect(&th[n - 1], LC_OP_RELEASE, th[0].arg);
	for (i = 1; i < n; i++)
		assert_true(th[i].t_ns >= th[i - 1].t_ns);
	assert_true(th[0].t_ns >= t0);
	free(th);

	n = trace_slot(&t, UINT32_MAX, pw, 16);
	assert_int_equal(n, 7);
	expect(&pw[0], LC_OP_PARALLEL, 1);
	expect(&pw[1], LC_OP_PARALLEL, 2);
	expect(&pw[2], LC_OP_PARALLEL, 1);
	expect(&pw[3], LC_OP_SOLUTION, 1);
	expect(&pw[4], LC_OP_TEAM, 4);
	expect(&pw[5], LC_OP_FRAGMENT_BEGIN, 7);
	expect(&pw[6], LC_OP_FRAGMENT_END, 7);
	for (i = 1; i < n; i++)
		assert_true(pw[i].t_ns >= pw[i - 1].t_ns);
	free(t.r);
}

/* Trace mode with an unwritable directory: profiling goes on untraced. */
static void test_trace_no_dir(void **state)
{
	(void)state;
	setenv(LC_ENV_TRACE_DIR, "/nonexistent/dir", 1);
	setenv(LC_ENV_TRACE, "1", 1);
	setenv(LC_ENV_SESSION, "tfnodir", 1);
	assert_int_equal(lc_priv_reinit_for_tests(), 0);
	assert_int_equal(lc_priv_segment()->flags, LC_SEG_PLACES | LC_SEG_STAMPS);
	assert_null(lc_priv_trace_file());
	LC_BUSY();
	assert_true(in_segment(lc_self));
}

static void test_fork(void **state)
{
	struct lc_seg_hdr *h;
	char child_name[128] = "", path[160];
	uint64_t parent_nonce;
	int fd[2], status;
	struct stat st;
	pid_t pid;

	(void)state;
	start("8", NULL);
	h = lc_priv_segment();
	LC_BUSY();
	LC_PARALLEL_BEGIN();
	LC_FRAGMENT_BEGIN(3);
	parent_nonce = h->nonce;
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct lc_seg_hdr *c = lc_priv_segment();
		int bad = 0;

		bad |= lc_self != NULL;
		bad |= !c || c == h || c->pid != getpid() || c->nonce == parent_nonce;
		bad |= msync(h, 4096, MS_ASYNC) == 0;	/* parent's unmapped */
		bad |= c && (c->work_exists != 1 || c->ntags != 1 || c->tags[0].tag != 3);
		bad |= c && c->magic != LC_SEG_MAGIC;
		LC_BUSY();
		bad |= !in_segment(lc_self) || lc_self != lc_seg_slot(c, 0);
		bad |= lc_self->tid != (uint32_t)getpid();
		if (write(fd[1], lc_priv_segment_name(), strlen(lc_priv_segment_name()) + 1) < 0)
			bad = 1;
		exit(bad ? 3 : 0);	/* exit unlinks the child's segment */
	}
	close(fd[1]);
	assert_true(read(fd[0], child_name, sizeof(child_name) - 1) > 0);
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_not_equal(child_name, lc_priv_segment_name());
	snprintf(path, sizeof(path), "/dev/shm%s", child_name);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(count_shm(pid), 0);
	/* The parent's segment is untouched. */
	assert_ptr_equal(lc_priv_segment(), h);
	assert_int_equal(lc_seg_slot(h, 0)->tid, gettid());
	assert_int_equal(h->work_exists, 1);
	LC_FRAGMENT_END(3);
	LC_PARALLEL_END();
}

/* fork in trace mode: the child writes its own trace file and starts it
 * with the inherited process-wide state; the parent's buffered records are
 * not duplicated. */
static void test_fork_trace(void **state)
{
	char ppath[PATH_MAX], cpath[PATH_MAX];
	struct lc_trace_rec r[16];
	struct trace pt, ct;
	int fd[2], status;
	pid_t pid;

	(void)state;
	start("8", "1");
	snprintf(ppath, sizeof(ppath), "%s", lc_priv_trace_file());
	LC_BUSY();
	LC_PARALLEL_BEGIN();
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		LC_IDLE();
		if (write(fd[1], lc_priv_trace_file(), strlen(lc_priv_trace_file()) + 1) < 0)
			_exit(3);
		exit(0);
	}
	close(fd[1]);
	assert_true(read(fd[0], cpath, sizeof(cpath) - 1) > 0);
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_string_not_equal(cpath, ppath);
	stop(NULL);

	trace_read(cpath, &ct);
	assert_int_equal(ct.h.pid, pid);
	assert_int_equal(trace_slot(&ct, UINT32_MAX, r, 16), 1);
	expect(&r[0], LC_OP_PARALLEL, 1);
	assert_int_equal(trace_slot(&ct, 0, r, 16), 3);
	assert_int_equal(r[0].op, LC_OP_REGISTER);
	expect(&r[1], LC_OP_STATE, LC_ST_IDLE);
	assert_int_equal(r[2].op, LC_OP_RELEASE);
	free(ct.r);

	trace_read(ppath, &pt);
	assert_int_equal(trace_slot(&pt, 0, r, 16), 3);
	expect(&r[1], LC_OP_STATE, LC_ST_BUSY);
	assert_int_equal(trace_slot(&pt, UINT32_MAX, r, 16), 1);
	free(pt.r);
}

static int group_teardown(void **state)
{
	stop(state);
	return rmdir(lc_test_dir);
}

/* LC_SYNC_BEGIN_ON names the object in the slot's flags; LC_NAME names it
 * in the segment's table; LC_SYNC_END forgets it; LC_QUEUE_EMPTY keeps it;
 * a full table refuses more objects, counting them. */
static void test_sync_objects(void **state)
{
	static int locks[LC_MAX_SYNC + 2];
	struct lc_seg_hdr *h;
	struct lc_slot *s;
	uint32_t id;

	(void)state;
	start(NULL, NULL);
	h = lc_priv_segment();
	LC_BUSY();
	s = lc_self;
	LC_NAME(&locks[0], "first lock");
	LC_SYNC_BEGIN_ON(&locks[1]);
	id = s->flags >> LC_SLOT_SYNC_SHIFT;
	assert_int_equal(s->state & 0xff, LC_ST_SYNC);
	assert_int_equal(id, 2);
	assert_int_equal(h->sync_n, 2);
	assert_true(h->sync[0].obj == (uint64_t)(uintptr_t)&locks[0]);
	assert_true(h->sync[id - 1].obj == (uint64_t)(uintptr_t)&locks[1]);
	assert_string_equal(h->sync[0].name, "first lock");
	assert_int_equal(h->sync[0].seq % 2, 0);
	LC_QUEUE_EMPTY(1);
	assert_int_equal(s->flags >> LC_SLOT_SYNC_SHIFT, 2);
	assert_int_equal(s->flags & LC_SLOT_QUEUE_EMPTY, 1);
	LC_SYNC_END();
	assert_int_equal(s->state & 0xff, LC_ST_BUSY);
	assert_int_equal(s->flags >> LC_SLOT_SYNC_SHIFT, 0);
	assert_int_equal(s->flags & LC_SLOT_QUEUE_EMPTY, 1);
	/* the same object again: the same entry; an integer works too */
	assert_int_equal(lc_sync_id((uint64_t)(uintptr_t)&locks[1]), 2);
	LC_SYNC_BEGIN_ON(7);
	assert_int_equal(s->flags >> LC_SLOT_SYNC_SHIFT, 3);
	LC_SYNC_END();
	for (uint32_t i = 2; i < LC_MAX_SYNC + 2; i++)
		lc_sync_id((uint64_t)(uintptr_t)&locks[i]);
	assert_int_equal(h->sync_n, LC_MAX_SYNC);
	assert_int_equal(lc_sync_id(12345), 0);
	assert_true(h->sync_full >= 3);
	/* a name longer than the entry is cut, NUL-terminated */
	LC_NAME(7, "a name much longer than the forty-seven bytes of an entry");
	assert_int_equal(strlen(h->sync[2].name), sizeof(h->sync[2].name) - 1);
	LC_QUEUE_EMPTY(0);
	LC_IDLE();
}

/* A thread's cache of object ids belongs to one segment: without a session
 * every id is 0, however often asked; a new session numbers its objects
 * afresh, wherever its segment is mapped. */
static void test_sync_cache(void **state)
{
	static int a, b;

	(void)state;
	unsetenv(LC_ENV_SESSION);
	assert_int_equal(lc_priv_reinit_for_tests(), -ENOENT);
	assert_int_equal(lc_sync_id(1), 0);
	assert_int_equal(lc_sync_id(1), 0);
	LC_BUSY();
	LC_SYNC_BEGIN_ON(1);
	assert_int_equal(lc_self->flags, 0);
	LC_SYNC_END();
	start(NULL, NULL);
	assert_int_equal(lc_sync_id((uintptr_t)&a), 1);
	assert_int_equal(lc_sync_id((uintptr_t)&b), 2);
	assert_int_equal(lc_sync_id((uintptr_t)&a), 1);
	stop(NULL);
	start(NULL, NULL);
	assert_int_equal(lc_sync_id((uintptr_t)&b), 1);
	assert_int_equal(lc_sync_id((uintptr_t)&a), 2);
	assert_int_equal(lc_priv_segment()->sync_n, 2);
}

LC_TEST_MAIN(lc_test_tmpdir_setup, group_teardown,
	     cmocka_unit_test_teardown(test_no_session, stop),
	     cmocka_unit_test_teardown(test_sync_objects, stop),
	     cmocka_unit_test_teardown(test_sync_cache, stop),
	     cmocka_unit_test_teardown(test_invalid_env, stop),
	     cmocka_unit_test_teardown(test_debug_output, stop),
	     cmocka_unit_test_teardown(test_segment, stop),
	     cmocka_unit_test_teardown(test_state_word, stop),
	     cmocka_unit_test_teardown(test_state_depth, stop),
	     cmocka_unit_test_teardown(test_sync_nesting, stop),
	     cmocka_unit_test_teardown(test_sync_three_levels, stop),
	     cmocka_unit_test_teardown(test_sync_end_forgets, stop),
	     cmocka_unit_test_teardown(test_sync_mixed_pairs, stop),
	     cmocka_unit_test_teardown(test_sync_threads, stop),
	     cmocka_unit_test_teardown(test_sync_trace, stop),
	     cmocka_unit_test_teardown(test_task_queue, stop),
	     cmocka_unit_test_teardown(test_claim_release, stop),
	     cmocka_unit_test_teardown(test_churn, stop),
	     cmocka_unit_test_teardown(test_slots_full, stop),
	     cmocka_unit_test_teardown(test_process_wide, stop),
	     cmocka_unit_test_teardown(test_seqlock, stop),
	     cmocka_unit_test_teardown(test_trace_mode, stop),
	     cmocka_unit_test_teardown(test_trace_no_dir, stop),
	     cmocka_unit_test_teardown(test_fork, stop),
	     cmocka_unit_test_teardown(test_fork_trace, stop))
