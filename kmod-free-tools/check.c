/*
 * check.c — the probes of "lostcycles check" (see lc_check.h).
 */
#include "lc_check.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <perfmon/pfmlib.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lc_abi.h"
#include "lc_perf.h"
#include "lc_profile.h"
#include "lc_util.h"
#include "tick.h"

#define NITEMS_MAX 16
#define SHM_FREE_WARN (1u << 20)	/* bytes: a few segments need ~20 KiB each */
#define TICK_WARN_NS 100000.0		/* a floor above 100 us limits accuracy */
#define CPU_BUSY_WARN 0.5		/* the sampler's CPU busier than this */

/* The next free item, with its key and title set and its number NaN. */
static struct lc_check_item *item(struct lc_check_item *it, size_t *n, const char *key,
				  const char *title)
{
	struct lc_check_item *i = &it[(*n)++];

	*i = (struct lc_check_item){ .key = key, .title = title, .number = NAN };
	return i;
}

/* Set the level, value and fix of i (fix may be NULL). */
static void say(struct lc_check_item *i, enum lc_check_level lv, const char *fix,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void say(struct lc_check_item *i, enum lc_check_level lv, const char *fix,
		const char *fmt, ...)
{
	va_list ap;

	i->level = lv;
	va_start(ap, fmt);
	vsnprintf(i->value, sizeof(i->value), fmt, ap);
	va_end(ap);
	snprintf(i->fix, sizeof(i->fix), "%s", fix ? fix : "");
}

/* Read the first line of path into buf; 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	int e = lc_read_text(path, buf, len);

	if (!e)
		buf[strcspn(buf, "\n")] = 0;
	return e;
}

const char *lc_errno_name(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" }, { EIO, "EIO" },
		{ E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
		{ ENODEV, "ENODEV" }, { EINVAL, "EINVAL" }, { EMFILE, "EMFILE" },
		{ ENOSPC, "ENOSPC" }, { EROFS, "EROFS" }, { ENOSYS, "ENOSYS" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ENOTDIR, "ENOTDIR" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	return "E?";
}

/* ---- kernel and permissions ------------------------------------------------ */

static int kernel_at_least(const char *rel, int maj, int min)
{
	int a = 0, b = 0;

	if (sscanf(rel, "%d.%d", &a, &b) < 1)
		return 1;	/* unknown: do not complain */
	return a > maj || (a == maj && b >= min);
}

static void probe_kernel(struct lc_check_item *it, size_t *n)
{
	struct lc_check_item *i = item(it, n, "kernel", "kernel");
	struct utsname u;

	if (uname(&u)) {
		say(i, LC_CHECK_WARN, NULL, "uname failed: %s", strerror(errno));
		return;
	}
	if (kernel_at_least(u.release, 4, 3))
		say(i, LC_CHECK_OK, NULL, "Linux %s", u.release);
	else
		say(i, LC_CHECK_WARN, "upgrade to Linux 4.3 or later for context-switch records",
		    "Linux %s: older than 4.3, no perf context-switch records", u.release);
}

/* Effective capability bit cap of this process (from /proc/self/status). */
static int has_cap(int cap)
{
	char line[256];
	unsigned long long v = 0;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &v) == 1)
			break;
	fclose(f);
	return (int)((v >> cap) & 1);
}

#define CAP_SYS_PTRACE_BIT 19
#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

static void probe_privileges(struct lc_check_item *it, size_t *n, int *privileged)
{
	struct lc_check_item *i = item(it, n, "privileges", "privileges");
	int root = geteuid() == 0, perfmon = has_cap(CAP_PERFMON_BIT) || has_cap(CAP_SYS_ADMIN_BIT);
	int ptrace = has_cap(CAP_SYS_PTRACE_BIT);

	*privileged = perfmon;
	if (perfmon && ptrace)
		say(i, LC_CHECK_OK, NULL, "%s, CAP_PERFMON yes, CAP_SYS_PTRACE yes",
		    root ? "root" : "not root");
	else
		say(i, LC_CHECK_WARN,
		    "run as root, or: setcap cap_perfmon,cap_sys_ptrace+ep $(command -v lostcycles)",
		    "%s, CAP_PERFMON %s, CAP_SYS_PTRACE %s: counters and scheduler data only for "
		    "your own processes", root ? "root" : "not root", perfmon ? "yes" : "no",
		    ptrace ? "yes" : "no");
}

static void probe_paranoid(struct lc_check_item *it, size_t *n, int privileged)
{
	static const char *const meaning[] = {
		"-1: no restriction", "0: CPU-wide events allowed, no raw tracepoints",
		"1: user and kernel counting of own processes",
		"2: user-space counting of own processes only",
	};
	struct lc_check_item *i = item(it, n, "perf_event_paranoid", "perf_event_paranoid");
	char buf[64];
	int v, e = read_line("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf));

	if (e) {
		i->err = -e;
		say(i, LC_CHECK_WARN, "mount /proc; counters may be unavailable",
		    "/proc/sys/kernel/perf_event_paranoid: %s", strerror(-e));
		return;
	}
	v = atoi(buf);
	i->number = v;
	if (privileged)
		say(i, LC_CHECK_OK, NULL, "%d (does not apply: CAP_PERFMON or root)", v);
	else if (v <= 2)
		say(i, LC_CHECK_OK, NULL, "%s", meaning[v < -1 ? 0 : v + 1]);
	else
		say(i, LC_CHECK_WARN, "sysctl -w kernel.perf_event_paranoid=2 (or grant CAP_PERFMON)",
		    "%d: perf_event_open refused to unprivileged users; no counters, no "
		    "context-switch records", v);
}

/* ---- perf events ----------------------------------------------------------- */

/* A child that waits (for the per-child probes); -errno on failure. */
static pid_t idle_child(void)
{
	return lc_spawn(NULL, NULL);
}

static void end_child(pid_t pid)
{
	lc_spawn_end(pid);
}

static const struct { const char *name; uint64_t config; } hw_events[] = {
	{ "cycles", PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
	{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
};
#define NHW (sizeof(hw_events) / sizeof(hw_events[0]))

/* What the hardware events opened: for this process, for a child, the
 * first error here and the events that did not open with why. */
struct pmu_tally {
	int ok_self, ok_child, first_err;
	char miss[LC_CHECK_TEXT];
};

/* Try hardware event k here and on child (or child's -errno). */
static void pmu_try(struct pmu_tally *t, size_t k, pid_t child)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .config = hw_events[k].config };
	int e_self = lc_perf_try(&a, 0), e_child = child > 0 ? lc_perf_try(&a, child) : (int)child;
	size_t l = strlen(t->miss);

	t->ok_self += !e_self;
	t->ok_child += !e_child;
	if (e_self && !t->first_err)
		t->first_err = -e_self;
	if (e_self || e_child)
		snprintf(t->miss + l, sizeof(t->miss) - l, "%s%s %s", l ? ", " : "",
			 hw_events[k].name, lc_errno_name(e_self ? -e_self : -e_child));
}

/* The verdict on the PMU from t. */
static void pmu_say(struct lc_check_item *i, const struct pmu_tally *t)
{
	if (t->ok_self == (int)NHW && t->ok_child == (int)NHW)
		say(i, LC_CHECK_OK, NULL, "cycles, instructions, stalls and cache misses open "
		    "for this process and a child");
	else if (!t->ok_self)
		say(i, LC_CHECK_WARN, "run on bare metal or enable the virtual PMU (e.g. "
		    "'-cpu host,pmu=on'); memory loss stays unmeasured (resource contention "
		    "comes from the scheduler)",
		    "no CPU PMU: %s (%s)", t->miss, t->first_err == ENOENT ?
		    "the kernel knows no hardware events" : strerror(t->first_err));
	else
		say(i, LC_CHECK_WARN, "some counters are missing; 'lostcycles events' lists what opens",
		    "partial: %s", t->miss);
}

static void probe_pmu(struct lc_check_item *it, size_t *n)
{
	struct lc_check_item *i = item(it, n, "pmu", "CPU PMU");
	pid_t child = idle_child();
	struct pmu_tally t = { 0 };

	for (size_t k = 0; k < NHW; k++)
		pmu_try(&t, k, child);
	end_child(child);
	i->number = t.ok_self;
	i->err = t.first_err;
	pmu_say(i, &t);
}

/* "KVM", "QEMU"... from DMI, or "" when not a VM. */
static void vm_name(char *buf, size_t len)
{
	char line[512], vendor[128] = "", product[128] = "";
	int hyp = 0;
	FILE *f = fopen("/proc/cpuinfo", "re");

	*buf = 0;
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor")) {
				hyp = 1;
				break;
			}
		fclose(f);
	}
	read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	read_line("/sys/class/dmi/id/product_name", product, sizeof(product));
	if (!hyp && !strstr(vendor, "QEMU") && !strstr(product, "KVM") &&
	    !strstr(product, "VirtualBox") && !strstr(product, "VMware") &&
	    !strstr(vendor, "Xen") && !strstr(vendor, "Microsoft") && access("/dev/vsock", F_OK))
		return;
	snprintf(buf, len, "%s%s%s", *vendor ? vendor : "hypervisor flag set",
		 *product ? " " : "", product);
}

static void probe_vm(struct lc_check_item *it, size_t *n)
{
	struct lc_check_item *i = item(it, n, "machine", "machine");
	char vm[300];

	vm_name(vm, sizeof(vm));
	if (!*vm)
		say(i, LC_CHECK_OK, NULL, "bare metal (no hypervisor seen)");
	else
		say(i, LC_CHECK_WARN, "expect noisier timing; pin vCPUs on the host for steadier runs",
		    "virtual machine (%s)", vm);
}

static void probe_libpfm(struct lc_check_item *it, size_t *n)
{
	struct lc_check_item *i = item(it, n, "libpfm4", "libpfm4 PMUs");
	char list[LC_CHECK_TEXT] = "";
	int rc = pfm_initialize(), core = 0, npmu = 0;

	if (rc != PFM_SUCCESS) {
		say(i, LC_CHECK_WARN, "reinstall libpfm4", "pfm_initialize: %s", pfm_strerror(rc));
		return;
	}
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };
		size_t l = strlen(list);

		if (pfm_get_pmu_info((pfm_pmu_t)p, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		npmu++;
		core += pi.type == PFM_PMU_TYPE_CORE;
		snprintf(list + l, sizeof(list) - l, "%s%s", l ? ", " : "", pi.name);
	}
	i->number = npmu;
	if (core)
		say(i, LC_CHECK_OK, NULL, "%s", list);
	else
		say(i, LC_CHECK_WARN, "no core PMU detected: hardware event names cannot be encoded",
		    "%s (no core PMU)", npmu ? list : "none");
}

static void probe_switches(struct lc_check_item *it, size_t *n)
{
	struct lc_check_item *i = item(it, n, "context_switch", "context-switch records");
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
				     .context_switch = 1, .sample_id_all = 1, .disabled = 1 };
	int e = lc_perf_try(&a, 0);

	i->err = -e;
	if (!e)
		say(i, LC_CHECK_OK, NULL, "perf context-switch records open");
	else
		say(i, LC_CHECK_WARN, "lower perf_event_paranoid or grant CAP_PERFMON; on-CPU "
		    "intervals come from schedstat only", "cannot open: %s", strerror(-e));
}

static void probe_schedstat(struct lc_check_item *it, size_t *n)
{
	struct lc_check_item *i = item(it, n, "schedstat", "schedstat");
	unsigned long long run = 0, wait = 0, slices = 0;
	char buf[256];
	int e = read_line("/proc/self/schedstat", buf, sizeof(buf));

	if (!e && sscanf(buf, "%llu %llu %llu", &run, &wait, &slices) == 3) {
		say(i, LC_CHECK_OK, NULL, "/proc/PID/schedstat readable (run, wait, slices)");
		return;
	}
	i->err = e ? -e : EINVAL;
	say(i, LC_CHECK_WARN, "a kernel with CONFIG_SCHED_INFO (schedstats) gives run-queue time",
	    "/proc/self/schedstat: %s", e ? strerror(-e) : "unexpected contents");
}

/* ---- shared memory ------------------------------------------------------------ */

/* PID of a segment name "lostcycles.S.PID.NONCE", or 0 when it is not one. */
static pid_t segment_pid(const char *name)
{
	const char *nonce, *pid;
	size_t plen = strlen(LC_SHM_PREFIX);
	char *end;
	long v;

	if (strncmp(name, LC_SHM_PREFIX, plen))
		return 0;
	nonce = strrchr(name, '.');
	if (!nonce || strlen(nonce + 1) != 16 || nonce - name <= (ptrdiff_t)plen)
		return 0;
	for (const char *c = nonce + 1; *c; c++)
		if (!isxdigit((unsigned char)*c))
			return 0;
	for (pid = nonce - 1; pid > name + plen && *pid != '.'; pid--)
		;
	if (*pid != '.' || pid == name + plen - 1)
		return 0;
	errno = 0;
	v = strtol(pid + 1, &end, 10);
	if (errno || end != nonce || v <= 0 || v > INT32_MAX)
		return 0;
	return (pid_t)v;
}

int lc_check_stale(const char *dir, int remove, uint64_t *bytes, int *failed)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int count = 0;

	*bytes = 0;
	*failed = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid_t pid = segment_pid(de->d_name);
		struct stat st;

		if (!pid || !kill(pid, 0) || errno != ESRCH)
			continue;
		if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			*bytes += (uint64_t)st.st_size;
		count++;
		if (remove && unlinkat(dirfd(d), de->d_name, 0))
			(*failed)++;
	}
	closedir(d);
	return count;
}

/* How much room is left in the writable dir. */
static void shm_room(struct lc_check_item *i, const char *dir)
{
	struct statvfs vfs;
	uint64_t avail;

	if (statvfs(dir, &vfs)) {
		say(i, LC_CHECK_OK, NULL, "%s writable", dir);
		return;
	}
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	i->number = (double)avail;
	if (avail < SHM_FREE_WARN)
		say(i, LC_CHECK_WARN, "free space in /dev/shm (remove old files, "
		    "'lostcycles check --clean')",
		    "%s writable, only %llu KiB free", dir, (unsigned long long)(avail >> 10));
	else
		say(i, LC_CHECK_OK, NULL, "%s writable, %llu MiB free", dir,
		    (unsigned long long)(avail >> 20));
}

/* Whether a file can be made in dir, and how much room is left there. */
static void shm_writable(struct lc_check_item *i, const char *dir)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/.lostcycles-check.%d", dir, (int)getpid());
	fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		i->err = errno;
		say(i, LC_CHECK_FAIL, "mount a writable tmpfs on /dev/shm (mount -t tmpfs tmpfs "
		    "/dev/shm) or fix its permissions (chmod 1777 /dev/shm)",
		    "%s not writable: %s", dir, strerror(errno));
		return;
	}
	close(fd);
	unlink(path);
	shm_room(i, dir);
}

/* Segments of dead processes left in dir. */
static void shm_stale(struct lc_check_item *s, const char *dir)
{
	uint64_t bytes;
	int failed, stale = lc_check_stale(dir, 0, &bytes, &failed);

	s->number = stale < 0 ? NAN : stale;
	if (stale < 0) {
		s->err = -stale;
		say(s, LC_CHECK_WARN, NULL, "cannot list %s: %s", dir, strerror(-stale));
	} else if (stale) {
		say(s, LC_CHECK_WARN, "lostcycles check --clean removes them",
		    "%d segment%s of dead processes (%llu KiB)", stale, stale == 1 ? "" : "s",
		    (unsigned long long)(bytes >> 10));
	} else {
		say(s, LC_CHECK_OK, NULL, "none");
	}
}

static void probe_shm(struct lc_check_item *it, size_t *n, const char *dir)
{
	shm_writable(item(it, n, "shm", "shared memory"), dir);
	shm_stale(item(it, n, "stale", "stale segments"), dir);
}

/* ---- CPUs ------------------------------------------------------------------- */

/* Busy and total jiffies of CPU cpu from /proc/stat; 0 or -errno. */
static int cpu_jiffies(int cpu, unsigned long long *busy, unsigned long long *total)
{
	char line[512], want[32];
	FILE *f = fopen("/proc/stat", "re");
	int e = -ENOENT;

	if (!f)
		return -errno;
	snprintf(want, sizeof(want), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = { 0 };

		if (strncmp(line, want, strlen(want)))
			continue;
		sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		       &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		*total = 0;
		for (int k = 0; k < 8; k++)
			*total += v[k];
		*busy = *total - v[3] - v[4];	/* minus idle and iowait */
		e = 0;
		break;
	}
	fclose(f);
	return e;
}

/* Whether cpu is listed in /sys/devices/system/cpu/isolated ("1-3,5"). */
static int cpu_isolated(int cpu)
{
	char buf[512], *s = buf;
	int a, b, k;

	if (read_line("/sys/devices/system/cpu/isolated", buf, sizeof(buf)))
		return 0;
	while (*s) {
		if (sscanf(s, "%d%n", &a, &k) != 1)
			return 0;
		s += k;
		b = a;
		if (*s == '-' && sscanf(s + 1, "%d%n", &b, &k) == 1)
			s += 1 + k;
		if (cpu >= a && cpu <= b)
			return 1;
		if (*s == ',')
			s++;
		else
			break;
	}
	return 0;
}

/* The CPUs this process may run on: two or more leave one to the sampler. */
static void cpus_allowed(struct lc_check_item *i)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int allowed = 0;

	if (!sched_getaffinity(0, sizeof(set), &set))
		allowed = CPU_COUNT(&set);
	i->number = allowed;
	if (allowed >= 2)
		say(i, LC_CHECK_OK, NULL, "%ld online, %d allowed", online, allowed);
	else
		say(i, LC_CHECK_WARN, "give the run at least two CPUs (taskset -c 0,1 ...) so the "
		    "sampler does not steal time from the program",
		    "%ld online, %d allowed: the sampler shares the program's CPU", online, allowed);
}

/* How busy cpu is over 100 ms (0..1); -1 when /proc/stat cannot say. */
static double cpu_busy(int cpu)
{
	unsigned long long b0, t0, b1, t1;

	if (cpu_jiffies(cpu, &b0, &t0))
		return -1;
	usleep(100000);
	if (cpu_jiffies(cpu, &b1, &t1) || t1 == t0)
		return 0;
	return (double)(b1 - b0) / (double)(t1 - t0);
}

/* The CPU the sampler would take (cpu, or the spare one when cpu < 0):
 * whether it is isolated and how busy it is now. */
static void sampler_cpu(struct lc_check_item *s, int cpu)
{
	double busy;
	int iso;

	if (cpu < 0)
		cpu = lc_sampler_spare_cpu();
	if (cpu < 0) {
		say(s, LC_CHECK_WARN, "see CPUs above", "no spare CPU: the sampler is not pinned");
		return;
	}
	s->number = cpu;
	iso = cpu_isolated(cpu);
	busy = cpu_busy(cpu);
	if (busy < 0)
		say(s, LC_CHECK_OK, NULL, "CPU %d%s (load unknown)", cpu, iso ? ", isolated" : "");
	else if (busy > CPU_BUSY_WARN)
		say(s, LC_CHECK_WARN, "pick a quieter CPU with 'record -C CPU', or reserve one "
		    "(isolcpus= on the kernel command line, or a cpuset)",
		    "CPU %d%s, %.0f %% busy right now: the sampler will be late", cpu,
		    iso ? " (isolated)" : "", 100 * busy);
	else
		say(s, LC_CHECK_OK, NULL, "CPU %d, %.0f %% busy right now, %s", cpu, 100 * busy,
		    iso ? "isolated" : "not isolated (isolcpus= or a cpuset would keep others off)");
}

static void probe_cpus(struct lc_check_item *it, size_t *n, int cpu)
{
	cpus_allowed(item(it, n, "cpus", "CPUs"));
	sampler_cpu(item(it, n, "sampler_cpu", "sampler CPU"), cpu);
}

/* ---- the tick loop ------------------------------------------------------------- */

/* What one probe of the tick loop holds: a registry of this process
 * alone, a writer on a temporary file, its threads and accumulator. */
struct probe {
	char path[32];
	struct lc_registry *reg;
	struct lc_pwriter *w;
	struct lc_threads *th;
	struct lc_accum *acc;
};

/* Set up pb for a profile of info; 0 or -errno (pb is then for
 * probe_close all the same). */
static int probe_open(struct probe *pb, const struct lc_prof_info *info)
{
	char session[LC_SESSION_MAX];
	int fd, e = 0;

	snprintf(pb->path, sizeof(pb->path), "/tmp/lostcycles-check.XXXXXX");
	fd = mkstemp(pb->path);
	if (fd < 0)
		return -errno;
	close(fd);
	unlink(pb->path);	/* a unique name; the profile writer creates it anew */
	snprintf(session, sizeof(session), "lccheck%d", (int)getpid());
	pb->reg = lc_registry_start_lineage(session, &e);	/* nothing but our own */
	if (!pb->reg || (e = lc_registry_set_roots(pb->reg, &(pid_t){ getpid() }, 1)))
		return e;
	pb->w = lc_pwriter_open(pb->path, info, &e);
	if (!pb->w)
		return e;
	pb->th = lc_threads_new(pb->w);
	pb->acc = lc_accum_new(pb->w, LC_SRC_SAMPLED, info->window_ns, 1);
	return pb->th && pb->acc ? 0 : -ENOMEM;
}

static void probe_close(struct probe *pb)
{
	if (pb->reg)
		lc_registry_stop(pb->reg);
	lc_accum_free(pb->acc);
	lc_threads_free(pb->th);
	lc_pwriter_close(pb->w);
	lc_registry_free(pb->reg);
	if (pb->path[0])
		unlink(pb->path);
}

/* Sleep ns, resumed after a signal. */
static void nap_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Run a sleeping sampler of 1 us ticks on cpu for probe_ns over pb; its
 * statistics into *st, its start into *t0; 0 or -errno. */
static int probe_run(struct probe *pb, uint64_t probe_ns, int cpu,
		     struct lc_sampler_stats *st, uint64_t *t0)
{
	struct lc_sampler_cfg cfg = { .cpu = cpu };
	int e = 0;
	struct lc_sampler *smp = lc_sampler_start(&cfg, &e);

	if (!smp)
		return e;
	*t0 = lc_clock_ns();
	cfg = (struct lc_sampler_cfg){ .interval_ns = 1000, .sleep_only = 1, .cpu = cpu,
				       .t0 = *t0, .reg = pb->reg, .acc = pb->acc,
				       .threads = pb->th, .w = pb->w };
	lc_sampler_go(smp, &cfg);
	nap_ns(probe_ns);
	lc_sampler_stop(smp, st);
	return 0;
}

int lc_check_tick_probe(uint64_t probe_ns, int cpu, double *mean_ns, double *max_ns,
			uint64_t *ticks)
{
	struct lc_prof_info info = { .interval_ns = 1000, .window_ns = 1000000000u };
	struct lc_sampler_stats st = { 0 };
	struct probe pb = { .path = "" };
	uint64_t t0 = 0;
	int e = probe_open(&pb, &info);

	if (!e)
		e = probe_run(&pb, probe_ns, cpu, &st, &t0);
	probe_close(&pb);
	if (e)
		return e;
	*ticks = st.ticks;
	*mean_ns = st.ticks ? (double)(st.t_end - t0) / (double)st.ticks : NAN;
	*max_ns = (double)st.max_gap_ns;
	return st.ticks ? 0 : -EAGAIN;
}

static void probe_tick(struct lc_check_item *it, size_t *n, uint64_t probe_ns, int cpu)
{
	struct lc_check_item *i = item(it, n, "tick", "tick interval");
	double mean = NAN, max = NAN;
	uint64_t ticks = 0;
	int e = lc_check_tick_probe(probe_ns, cpu, &mean, &max, &ticks);

	if (e) {
		i->err = -e;
		say(i, LC_CHECK_FAIL, "the sampler thread cannot run here: check the CPU given "
		    "with -C and the process limits (ulimit -u)",
		    "the sampler's loop did not run: %s", strerror(-e));
		return;
	}
	i->number = mean / 1000;
	if (mean <= TICK_WARN_NS)
		say(i, LC_CHECK_OK, NULL, "%.0f us achievable (%llu ticks in %.1f s, longest gap "
		    "%.0f us)", mean / 1000, (unsigned long long)ticks, (double)probe_ns / 1e9,
		    max / 1000);
	else
		say(i, LC_CHECK_WARN, "SCHED_FIFO (root or CAP_SYS_NICE) and an idle CPU give "
		    "shorter sleeps; below this floor ticks come late",
		    "%.0f us achievable at best (%llu ticks in %.1f s, longest gap %.0f us)",
		    mean / 1000, (unsigned long long)ticks, (double)probe_ns / 1e9, max / 1000);
}

/* ---- all of it ------------------------------------------------------------------ */

int lc_check_run(const struct lc_check_cfg *cfg, struct lc_check_item **items, size_t *n)
{
	struct lc_check_item *it = calloc(NITEMS_MAX, sizeof(*it));
	const char *dir = cfg->shm_dir ? cfg->shm_dir : "/dev/shm";
	int privileged = 0;

	*n = 0;
	if (!it)
		return -ENOMEM;
	probe_kernel(it, n);
	probe_privileges(it, n, &privileged);
	probe_paranoid(it, n, privileged);
	probe_pmu(it, n);
	probe_vm(it, n);
	probe_libpfm(it, n);
	probe_switches(it, n);
	probe_schedstat(it, n);
	probe_shm(it, n, dir);
	probe_cpus(it, n, cfg->cpu);
	probe_tick(it, n, cfg->tick_probe_ns ? cfg->tick_probe_ns : 200000000u, cfg->cpu);
	*items = it;
	return 0;
}

enum lc_check_level lc_check_worst(const struct lc_check_item *items, size_t n)
{
	enum lc_check_level w = LC_CHECK_OK;

	for (size_t i = 0; i < n; i++)
		if (items[i].level > w)
			w = items[i].level;
	return w;
}
