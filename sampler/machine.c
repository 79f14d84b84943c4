/*
 * machine.c — the machine's share of the program's CPUs (see machine.h).
 *
 * At the end of a span the meter reads /proc/stat's per-CPU lines for the
 * CPUs of the program's affinity mask (the union over its processes), each
 * program process's CPU time (/proc/PID/stat, all its threads, live and
 * exited) and the sampler's own (its process's CPU clock, less the
 * sampling thread's when that thread is pinned outside the mask).  The
 * program's processes are those of the registry and the processes the
 * recording started (its roots), flags or none.  Over
 * the span, of those CPUs' time: busy minus the program and the sampler
 * is other processes', and steal is the hypervisor's.  A read costs about
 * 7 us for /proc/stat and 3 us per process, once per 100 ms or more.
 *
 * /proc/stat and /proc/PID/stat count in clock ticks (10 ms), so a share
 * is off by up to a tick per CPU and two for the program's user and system
 * time over the measured time (the counters' differences add up along
 * consecutive spans): the first spans are held back until together they
 * are long enough for that to be at most 1/LC_MACHINE_RESOLUTION of their
 * CPU time (400 ms on 2 CPUs).  A run that ends before is measured whole:
 * meanwhile the program's CPU time is read every 10 ms (peek), and at the
 * end the held spans become one, known when its CPU time is at least 5
 * times the ticks' error (100 ms on 2 CPUs), else flagged unknown
 * (LC_MACH_PARTIAL | LC_MACH_COARSE): a run of 4 ms cannot be judged.
 */
#include "machine.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lc_util.h"

/* The ticks' error may be at most this fraction of the measured CPU time. */
#define LC_MACHINE_RESOLUTION 20u
/* How often the program's CPU time is read while the first spans are held. */
#define LC_MACHINE_PEEK_NS 10000000ull	/* 10 ms */
/* A short run, measured whole at its end, has its share when the ticks'
 * error is at most this fraction of its CPU time (100 ms on 2 CPUs). */
#define LC_MACHINE_SHORT_RESOLUTION 5u
/* The most spans held back until the measured time is long enough. */
#define LC_MACHINE_HELD 16

/* A program process and its CPU time at the last read. */
struct mproc {
	int32_t pid;
	uint64_t cpu_ns;
	uint64_t gen;		/* the read that last saw it */
	uint64_t read_ns;	/* CLOCK_MONOTONIC of that read */
};

/* The CPU counters of the mask's CPUs, summed. */
struct cpus {
	uint32_t n;
	uint64_t busy, total, steal;	/* ns */
};

struct lc_machine {
	struct lc_pwriter *w;
	struct lc_registry *reg;
	uint64_t t0, window_ns;
	uint32_t grow;
	int sampler_cpu;
	int stat_fd;			/* /proc/stat, kept open */
	uint64_t tick_ns;		/* ns per clock tick (USER_HZ) */
	uint64_t gen;			/* reads taken; 0: no baseline yet */
	uint32_t ncpus;			/* CPUs of the mask at the last read */
	struct lc_prof_machine held[LC_MACHINE_HELD];	/* spans not written yet */
	int nheld;
	int judged;			/* the spans so far were long enough */
	uint64_t last;			/* CLOCK_MONOTONIC of the last read */
	uint64_t last_boot;		/* CLOCK_BOOTTIME of the last read */
	uint64_t *cpu_busy, *cpu_total, *cpu_steal;	/* [CPU_SETSIZE], at the last read */
	uint64_t self_ns, thread_ns;	/* the sampler's clocks at the last read */
	struct mproc *procs;
	size_t nprocs, procs_cap;
	int partial;			/* this span lost a process's time */
	uint64_t now;			/* CLOCK_MONOTONIC of the read under way */
	uint64_t peeked;		/* of the last peek (peek) */
	uint64_t peek_prog;		/* the program's CPU time peeks saw since
					 * the last read */
	int peek_partial;		/* ... and whether they lost a process's */
	uint32_t max_threads;		/* most threads a program process had at a read */
	char stat_buf[1 << 16];		/* /proc/stat as read */
};

static uint64_t clock_of(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct lc_machine *lc_machine_new(struct lc_pwriter *w, struct lc_registry *reg, uint64_t t0,
				  uint64_t window_ns, uint32_t grow, int sampler_cpu)
{
	struct lc_machine *m = calloc(1, sizeof(*m));
	long hz = sysconf(_SC_CLK_TCK);

	if (!m)
		return NULL;
	m->cpu_busy = calloc(3 * (size_t)CPU_SETSIZE, sizeof(uint64_t));
	if (!m->cpu_busy) {
		free(m);
		return NULL;
	}
	m->cpu_total = m->cpu_busy + CPU_SETSIZE;
	m->cpu_steal = m->cpu_total + CPU_SETSIZE;
	m->w = w;
	m->reg = reg;
	m->t0 = t0;
	m->window_ns = window_ns ? window_ns : 10000000u;
	m->grow = grow;
	m->sampler_cpu = sampler_cpu;
	m->tick_ns = hz > 0 ? 1000000000u / (uint64_t)hz : 10000000u;
	m->stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	return m;
}

uint32_t lc_machine_max_threads(const struct lc_machine *m)
{
	return m ? m->max_threads : 0;
}

void lc_machine_free(struct lc_machine *m)
{
	if (!m)
		return;
	if (m->stat_fd >= 0)
		close(m->stat_fd);
	free(m->cpu_busy);
	free(m->procs);
	free(m);
}

/* Parse the "cpuN ..." lines of /proc/stat into the per-CPU arrays (ns).
 * Returns 0 or -errno. */
static int read_stat(struct lc_machine *m)
{
	char *buf = m->stat_buf, *s = buf;
	ssize_t n = m->stat_fd >= 0 ? pread(m->stat_fd, buf, sizeof(m->stat_buf) - 1, 0) : -1;

	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	while ((s = strstr(s, "\ncpu"))) {
		unsigned long long v[10] = { 0 };
		int cpu, k;

		s += 4;
		k = sscanf(s, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (k < 8 || cpu < 0 || cpu >= CPU_SETSIZE)
			continue;
		/* user nice system idle iowait irq softirq steal (guest is in user) */
		m->cpu_busy[cpu] = (v[0] + v[1] + v[2] + v[5] + v[6]) * m->tick_ns;
		m->cpu_steal[cpu] = v[7] * m->tick_ns;
		m->cpu_total[cpu] = m->cpu_busy[cpu] + (v[3] + v[4]) * m->tick_ns + m->cpu_steal[cpu];
	}
	return 0;
}

/* The CPU counters of the CPUs in mask, summed. */
static struct cpus sum_cpus(const struct lc_machine *m, const cpu_set_t *mask)
{
	struct cpus c = { 0 };

	for (int i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, mask))
			continue;
		c.n++;
		c.busy += m->cpu_busy[i];
		c.total += m->cpu_total[i];
		c.steal += m->cpu_steal[i];
	}
	return c;
}

/* CPU time of process pid (all its threads) and when it started (boot
 * clock, ns); its threads now into *nth; -errno when it cannot be read
 * (gone). */
static int proc_cpu(const struct lc_machine *m, int32_t pid, uint64_t *cpu, uint64_t *start,
		    uint32_t *nth)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st, sv;
	long nt;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the command name may hold anything */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu "
			 "%*d %*d %*d %*d %ld %*d %llu", &ut, &st, &nt, &sv) != 4)
		return -EIO;
	*nth = nt > 0 ? (uint32_t)nt : 0;
	*cpu = (ut + st) * m->tick_ns;
	*start = sv * m->tick_ns;
	return 0;
}

/* The entry of pid, created when new (cpu_ns = UINT64_MAX); NULL on ENOMEM. */
static struct mproc *proc_entry(struct lc_machine *m, int32_t pid)
{
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].pid == pid)
			return &m->procs[i];
	if (lc_grow((void **)&m->procs, &m->procs_cap, m->nprocs + 1, sizeof(*m->procs)))
		return NULL;
	m->procs[m->nprocs] = (struct mproc){ .pid = pid, .cpu_ns = UINT64_MAX };
	return &m->procs[m->nprocs++];
}

/* CPU time program process pid used since the last read; adds its CPUs
 * to mask.  A process seen for the first time counts from its start when
 * it started after the last read, else from now (the span is partial). */
static uint64_t proc_delta(struct lc_machine *m, int32_t pid, cpu_set_t *mask)
{
	struct mproc *e = proc_entry(m, pid);
	uint64_t cpu = 0, start = 0, d = 0;
	uint32_t nth = 0;
	cpu_set_t set;

	if (!e || proc_cpu(m, pid, &cpu, &start, &nth))
		return 0;	/* gone since the list was read: noticed below */
	m->max_threads = nth > m->max_threads ? nth : m->max_threads;
	if (!sched_getaffinity(pid, sizeof(set), &set))
		CPU_OR(mask, mask, &set);
	if (e->cpu_ns != UINT64_MAX)
		d = cpu > e->cpu_ns ? cpu - e->cpu_ns : 0;
	else if (m->gen > 1 && start + m->tick_ns >= m->last_boot)
		d = cpu;
	else if (m->gen > 1)
		m->partial = 1;
	e->cpu_ns = cpu;
	e->gen = m->gen;
	e->read_ns = m->now;
	return d;
}

/* The CPU time of the recording's roots (the command it started; not this
 * process, whose time is the sampler's) that no segment of theirs brought
 * into the registry: a program that set no flag is still the program, not
 * another process.  0 for a registry of pids. */
static uint64_t roots_delta(struct lc_machine *m, cpu_set_t *mask)
{
	pid_t roots[64];
	int n = lc_registry_roots(m->reg, roots, 64);
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		size_t k = 0;

		if (roots[i] == getpid())	/* the sampler's own: counted apart */
			continue;
		while (k < m->nprocs && m->procs[k].pid != roots[i])
			k++;
		if (k == m->nprocs || m->procs[k].gen != m->gen)	/* not read yet */
			sum += proc_delta(m, roots[i], mask);
	}
	return sum;
}

/* The program's CPU time since the last read, over its processes in the
 * registry and its roots; their CPUs into mask.  Forgets processes no longer listed
 * (the span is partial: their last CPU time is unknown). */
static uint64_t program_delta(struct lc_machine *m, cpu_set_t *mask)
{
	struct lc_target *t;
	uint64_t sum = 0;
	size_t k = 0;

	CPU_ZERO(mask);
	urcu_memb_read_lock();
	cds_list_for_each_entry_rcu(t, lc_registry_list(m->reg), node)
		sum += proc_delta(m, t->pid, mask);	/* gone: still readable until reaped */
	urcu_memb_read_unlock();
	sum += roots_delta(m, mask);
	for (size_t i = 0; i < m->nprocs; i++) {
		if (m->procs[i].gen == m->gen)
			m->procs[k++] = m->procs[i];
		else if (m->now - m->procs[i].read_ns > LC_MACHINE_PEEK_NS + m->tick_ns)
			m->partial = 1;	/* (read last within a clock tick of its
					 * end: its CPU time since is below the
					 * counters' resolution) */
	}
	m->nprocs = k;
	return sum;
}

/* The sampler's CPU time on the program's CPUs since the last read. */
static uint64_t sampler_delta(struct lc_machine *m, const cpu_set_t *mask)
{
	uint64_t self = clock_of(CLOCK_PROCESS_CPUTIME_ID), th = clock_of(CLOCK_THREAD_CPUTIME_ID);
	uint64_t d = self - m->self_ns;
	int outside = m->sampler_cpu >= 0 && m->sampler_cpu < CPU_SETSIZE &&
		      !CPU_ISSET(m->sampler_cpu, mask);

	if (outside)
		d = d > th - m->thread_ns ? d - (th - m->thread_ns) : 0;
	m->self_ns = self;
	m->thread_ns = th;
	return d;
}

/* The smaller of a and b. */
static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* b - a, or 0 when b is not above a (a counter read twice). */
static uint64_t delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/* Split the span's CPU time between c and d (the counters at its start and
 * end) into x: the program's prog, the sampler's self, steal and the rest
 * (other processes'), each clamped to what is left. */
static void split(struct lc_prof_machine *x, struct cpus c, struct cpus d, uint64_t prog,
		  uint64_t self)
{
	uint64_t busy;

	x->total_ns = d.total - c.total;
	busy = min64(delta(c.busy, d.busy), x->total_ns);
	x->steal_ns = min64(delta(c.steal, d.steal), x->total_ns - busy);
	x->program_ns = min64(prog, busy);
	x->sampler_ns = min64(self, busy - x->program_ns);
	x->other_ns = busy - x->program_ns - x->sampler_ns;
}

/* The program's CPUs now (its processes' affinity masks; before any process
 * is known, this process's) into mask, and its CPU time since the last
 * read. */
static uint64_t program_now(struct lc_machine *m, cpu_set_t *mask)
{
	uint64_t prog = program_delta(m, mask) + m->peek_prog;

	m->partial |= m->peek_partial;
	m->peek_prog = 0;
	m->peek_partial = 0;

	if (!CPU_COUNT(mask) && sched_getaffinity(getpid(), sizeof(*mask), mask))
		CPU_ZERO(mask);
	return prog;
}

/* Measure the span since the last read into x (x->total_ns stays 0 at the
 * baseline or when no time passed). */
static void measure_span(struct lc_machine *m, uint64_t now, struct lc_prof_machine *x)
{
	uint64_t prog, self;
	struct cpus c, d;
	cpu_set_t mask;

	m->gen++;
	m->partial = 0;
	m->now = now;
	prog = program_now(m, &mask);
	self = sampler_delta(m, &mask);
	c = sum_cpus(m, &mask);		/* the arrays still hold the last read's */
	m->ncpus = c.n;
	if (read_stat(m) || !c.n || m->gen == 1)
		return;
	d = sum_cpus(m, &mask);
	if (d.total <= c.total)
		return;
	split(x, c, d, prog, self);
	x->start_ns = m->last - m->t0;
	x->len_ns = now - m->last;
	x->ncpus = c.n;
	x->flags = m->partial ? LC_MACH_PARTIAL : 0;
}

/* Write the held spans, flagged unknown when coarse.  0 or -errno. */
static int flush_held(struct lc_machine *m, int coarse)
{
	int rc = 0;

	for (int i = 0; i < m->nheld && !rc; i++) {
		if (coarse)
			m->held[i].flags |= LC_MACH_PARTIAL | LC_MACH_COARSE;
		rc = lc_pwriter_machine(m->w, &m->held[i]);
	}
	m->nheld = 0;
	return rc;
}

/* Whether the held spans' CPU time is at least res times the ticks'
 * error. */
static int long_enough(const struct lc_machine *m, uint64_t res)
{
	uint64_t err = (uint64_t)(m->ncpus + 2) * m->tick_ns, cpu = 0;

	for (int i = 0; i < m->nheld; i++)
		cpu += m->held[i].total_ns;
	return cpu >= err * res;
}

/* The end of a run whose spans were all held (a short run): the whole run
 * is measured once, its spans merged into one (the counters' differences
 * add up along consecutive spans, so the whole is as coarse as one span),
 * and written as known when its CPU time is at least
 * LC_MACHINE_SHORT_RESOLUTION times the ticks' error; else unknown. */
static int flush_whole(struct lc_machine *m)
{
	struct lc_prof_machine *x = &m->held[0];

	for (int i = 1; i < m->nheld; i++) {
		const struct lc_prof_machine *y = &m->held[i];

		x->len_ns = y->start_ns + y->len_ns - x->start_ns;
		x->total_ns += y->total_ns;
		x->program_ns += y->program_ns;
		x->sampler_ns += y->sampler_ns;
		x->other_ns += y->other_ns;
		x->steal_ns += y->steal_ns;
		x->flags |= y->flags;
		x->ncpus = y->ncpus > x->ncpus ? y->ncpus : x->ncpus;
	}
	if (m->nheld)
		m->nheld = 1;
	return flush_held(m, !long_enough(m, LC_MACHINE_SHORT_RESOLUTION));
}

/* Write span x, or hold it until the spans so far are long enough. */
static int put_span(struct lc_machine *m, const struct lc_prof_machine *x)
{
	if (m->judged)
		return lc_pwriter_machine(m->w, x);
	m->held[m->nheld++] = *x;
	if (!long_enough(m, LC_MACHINE_RESOLUTION) && m->nheld < LC_MACHINE_HELD)
		return 0;
	m->judged = 1;
	return flush_held(m, 0);
}

/* Measure the span since the last read and write or hold it (nothing at
 * the baseline); at the last, write what is held, unknown if too short. */
static int measure(struct lc_machine *m, uint64_t now, int last)
{
	struct lc_prof_machine x = { 0 };
	int rc = 0;

	measure_span(m, now, &x);
	m->last = now;
	m->last_boot = clock_of(CLOCK_BOOTTIME);
	if (x.total_ns)
		rc = put_span(m, &x);
	return !rc && last ? flush_whole(m) : rc;
}

/* While the first spans are held (the run may end before they are long
 * enough), read the program's CPU time every LC_MACHINE_PEEK_NS, so that
 * a process that ends is known to within a clock tick of its end and a
 * short run is measured whole (flush_whole). */
static void peek(struct lc_machine *m, uint64_t now)
{
	cpu_set_t mask;
	int partial = m->partial;

	if (m->judged || now - m->peeked < LC_MACHINE_PEEK_NS)
		return;
	m->peeked = now;
	m->now = now;
	m->gen++;
	m->partial = 0;
	m->peek_prog += program_delta(m, &mask);
	m->peek_partial |= m->partial;
	m->partial = partial;
}

int lc_machine_tick(struct lc_machine *m, uint64_t now, int last)
{
	uint64_t a, b;

	if (m->gen && !last) {
		peek(m, now);
		if (now - m->last < LC_MACHINE_EVERY_NS)
			return 0;
		a = lc_window_at(m->window_ns, m->grow, m->last - m->t0);
		b = lc_window_at(m->window_ns, m->grow, now - m->t0);
		if (a == b)
			return 0;	/* measure at window ends */
	}
	if (m->gen && now == m->last)
		return last ? flush_whole(m) : 0;
	return measure(m, now, last);
}
