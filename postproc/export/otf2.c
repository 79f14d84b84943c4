/*
 * otf2.c — a profile's timeline as an OTF2 archive (see otf2.h).
 */
#include "otf2.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_emit.h"
#include "lc_util.h"

#ifndef LC_HAVE_OTF2

int lc_otf2_supported(void)
{
	return 0;
}

int lc_otf2_write(const char *dir, const struct lc_profile *pr, enum lc_source src, char *msg,
		  size_t len)
{
	return lc_fail(msg, len, 1, "this build has no OTF2 support (it was built without the "
		       "OTF2 library: install libopen-trace-format2-dev and rebuild)");
}

#else

#include <otf2/otf2.h>

#include "timeline.h"

#define ARCHIVE "traces"	/* DIR/traces.otf2, traces.def, traces/ */
#define NODE_MACHINE 0		/* the system tree's root; hosts follow */

/* One export in progress. */
struct ox {
	const struct lc_profile *pr;
	const struct lc_prof_data *d;
	struct lc_places *pl;		/* place tracks, or NULL */
	uint32_t nloc;			/* locations: threads, then (pl) their
					 * place tracks, then the empty slots */
	uint32_t nslots;		/* tracks of the empty processor slots */
	uint32_t slot_group;		/* their location group */
	OTF2_Archive *ar;
	OTF2_EvtWriter *ew;		/* the location being written */
	OTF2_GlobalDefWriter *gd;
	OTF2_ErrorCode rc;		/* the first error */
	char why[200];			/* the library's message of it */
	uint32_t nstr;			/* next string reference */
	uint64_t end;			/* the last Leave, ns after t0 */
	uint64_t *nev;			/* events per location */
	int32_t *pids;			/* the location groups' processes */
	uint32_t npids;
	const char **hosts;		/* the system tree's nodes */
	uint32_t nhosts;
};

/* Keep the first error of the library. */
static void keep(struct ox *o, OTF2_ErrorCode rc)
{
	if (rc != OTF2_SUCCESS && o->rc == OTF2_SUCCESS)
		o->rc = rc;
}

/* The library's error handler: its message into o->why instead of
 * standard error. */
static OTF2_ErrorCode on_error(void *arg, const char *file, uint64_t line, const char *fn,
			       OTF2_ErrorCode rc, const char *fmt, va_list va)
{
	struct ox *o = arg;

	if (!o->why[0] && fmt)
		vsnprintf(o->why, sizeof(o->why), fmt, va);
	return rc;
}

/* Every buffer may be flushed; no flush records. */
static OTF2_FlushType pre_flush(void *arg, OTF2_FileType type, OTF2_LocationRef loc,
				void *caller, bool final)
{
	return OTF2_FLUSH;
}

static OTF2_FlushCallbacks flush_cb = { .otf2_pre_flush = pre_flush, .otf2_post_flush = NULL };

/* lc_run_fn: one run as an Enter and a Leave of its category's region. */
static int run_events(void *arg, int cat, uint64_t start, uint64_t end)
{
	struct ox *o = arg;
	uint64_t t0 = o->pr->info.t0_ns;

	keep(o, OTF2_EvtWriter_Enter(o->ew, NULL, t0 + start, (OTF2_RegionRef)cat));
	keep(o, OTF2_EvtWriter_Leave(o->ew, NULL, t0 + end, (OTF2_RegionRef)cat));
	if (end > o->end)
		o->end = end;
	return o->rc != OTF2_SUCCESS;
}

/* lc_place_fn: one place run as an Enter and a Leave of its place's
 * region (the categories' regions first). */
static int place_events(void *arg, const struct lc_places *pl, uint32_t place, uint64_t start,
			uint64_t end)
{
	return run_events(arg, LC_NCAT + (int)place, start, end);
}

/* The event file of every location (loc: a thread, or nthreads + a thread
 * for its place track, then the empty slots' tracks), with its number of
 * events in nev[]. */
static void events(struct ox *o)
{
	uint32_t nt = o->pr->nthreads, nslot0 = o->nloc - o->nslots;

	keep(o, OTF2_Archive_OpenEvtFiles(o->ar));
	for (uint32_t loc = 0; loc < o->nloc && o->rc == OTF2_SUCCESS; loc++) {
		o->ew = OTF2_Archive_GetEvtWriter(o->ar, loc);
		if (!o->ew) {
			keep(o, OTF2_ERROR_MEM_ALLOC_FAILED);
			break;
		}
		if (loc < nt)
			lc_timeline_runs(o->d, loc, run_events, o);
		else if (loc < nslot0)
			lc_place_runs(o->pl, o->d, loc - nt, place_events, o);
		else
			lc_timeline_empty_runs(o->pr, o->d, loc - nslot0, run_events, o);
		keep(o, OTF2_EvtWriter_GetNumberOfEvents(o->ew, &o->nev[loc]));
		keep(o, OTF2_Archive_CloseEvtWriter(o->ar, o->ew));
	}
	keep(o, OTF2_Archive_CloseEvtFiles(o->ar));
}

/* An empty local definition file per location: readers open one each. */
static void local_defs(struct ox *o)
{
	keep(o, OTF2_Archive_OpenDefFiles(o->ar));
	for (uint32_t t = 0; t < o->nloc && o->rc == OTF2_SUCCESS; t++) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(o->ar, t);

		if (!dw)
			keep(o, OTF2_ERROR_MEM_ALLOC_FAILED);
		else
			keep(o, OTF2_Archive_CloseDefWriter(o->ar, dw));
	}
	keep(o, OTF2_Archive_CloseDefFiles(o->ar));
}

/* s (NULL: "") as a new string for the archive, in a copy with control
 * characters and bytes that are not UTF-8 as '?' (the emitter's text
 * rule): a name from the profile reaches no reader's terminal as an
 * escape sequence.  NULL when out of memory. */
static char *clean(const char *s)
{
	char *c = strdup(s ? s : "");

	lc_emit_text_fix(c, 0);
	return c;
}

/* A new string definition (cleaned); its reference. */
static OTF2_StringRef str(struct ox *o, const char *s)
{
	char *c = clean(s);

	if (!c)
		keep(o, OTF2_ERROR_MEM_ALLOC_FAILED);
	else
		keep(o, OTF2_GlobalDefWriter_WriteString(o->gd, o->nstr, c));
	free(c);
	return o->nstr++;
}

/* The location group of process pid, appended when new. */
static uint32_t pid_index(struct ox *o, int32_t pid)
{
	for (uint32_t i = 0; i < o->npids; i++)
		if (o->pids[i] == pid)
			return i;
	o->pids[o->npids] = pid;
	return o->npids++;
}

/* The host of process pid: its rank's in a job, else the recording's. */
static const char *host_of(const struct lc_profile *pr, int32_t pid)
{
	const struct lc_prof_rank *rk = lc_profile_rank_of(pr, pid);

	if (rk && rk->host)
		return rk->host;
	return pr->info.hostname ? pr->info.hostname : "localhost";
}

/* The system tree node of host h (nodes follow the machine), appended
 * when new. */
static uint32_t host_index(struct ox *o, const char *h)
{
	for (uint32_t i = 0; i < o->nhosts; i++)
		if (!strcmp(o->hosts[i], h))
			return i;
	o->hosts[o->nhosts] = h;
	return o->nhosts++;
}

/* The regions: one per category, its reference the category, then one
 * per place (LC_NCAT + its number in pl). */
static void regions(struct ox *o)
{
	OTF2_StringRef file = str(o, "");

	for (int c = 0; c < LC_NCAT; c++) {
		const struct lc_cat_info *ci = lc_cat_info(c);
		OTF2_StringRef name = str(o, ci->name), key = str(o, ci->key),
			       desc = str(o, ci->desc);

		keep(o, OTF2_GlobalDefWriter_WriteRegion(o->gd, (OTF2_RegionRef)c, name, key, desc,
							 OTF2_REGION_ROLE_ARTIFICIAL,
							 OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
							 file, 0, 0));
	}
	for (uint32_t i = 0; o->pl && i < lc_places_count(o->pl); i++) {
		OTF2_StringRef name = str(o, lc_places_name(o->pl, i));

		keep(o, OTF2_GlobalDefWriter_WriteRegion(o->gd, (OTF2_RegionRef)(LC_NCAT + i), name,
							 name, str(o, "a place (report --where)"),
							 OTF2_REGION_ROLE_UNKNOWN,
							 OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
							 file, 0, 0));
	}
}

/* The name of the location group of process pid. */
static void group_name(const struct lc_profile *pr, int32_t pid, char *buf, size_t len)
{
	const struct lc_prof_rank *rk = lc_profile_rank_of(pr, pid);
	const char *comm = "process";

	for (uint32_t i = 0; i < pr->nprocesses; i++)
		if (pr->processes[i].pid == pid && pr->processes[i].comm)
			comm = pr->processes[i].comm;
	if (rk)
		snprintf(buf, len, "rank %d (%s %d)", rk->rank, comm, pid);
	else
		snprintf(buf, len, "%s %d", comm, pid);
}

/* The system tree (machine, hosts) and a location group per process: the
 * processes of the profile, then any process only a thread names. */
static void groups(struct ox *o)
{
	const struct lc_profile *pr = o->pr;
	OTF2_StringRef cls = str(o, "node");
	char buf[512];

	for (uint32_t i = 0; i < pr->nprocesses; i++)
		pid_index(o, pr->processes[i].pid);
	for (uint32_t t = 0; t < pr->nthreads; t++)
		pid_index(o, pr->threads[t].pid);
	for (uint32_t g = 0; g < o->npids; g++)
		host_index(o, host_of(pr, o->pids[g]));
	keep(o, OTF2_GlobalDefWriter_WriteSystemTreeNode(o->gd, NODE_MACHINE, str(o, "machine"),
							 str(o, "machine"),
							 OTF2_UNDEFINED_SYSTEM_TREE_NODE));
	for (uint32_t h = 0; h < o->nhosts; h++)
		keep(o, OTF2_GlobalDefWriter_WriteSystemTreeNode(o->gd, NODE_MACHINE + 1 + h,
								 str(o, o->hosts[h]), cls,
								 NODE_MACHINE));
	for (uint32_t g = 0; g < o->npids; g++) {
		group_name(pr, o->pids[g], buf, sizeof(buf));
		keep(o, OTF2_GlobalDefWriter_WriteLocationGroup(
				o->gd, g, str(o, buf), OTF2_LOCATION_GROUP_TYPE_PROCESS,
				NODE_MACHINE + 1 + host_index(o, host_of(pr, o->pids[g])),
				OTF2_UNDEFINED_LOCATION_GROUP));
	}
	o->slot_group = o->npids;
	if (o->nslots) {	/* the program's p slots that no thread held */
		snprintf(buf, sizeof(buf), "empty processor slots (p = %u)", pr->procs);
		keep(o, OTF2_GlobalDefWriter_WriteLocationGroup(
				o->gd, o->slot_group, str(o, buf), OTF2_LOCATION_GROUP_TYPE_UNKNOWN,
				NODE_MACHINE + 1 + host_index(o, host_of(pr, o->npids ? o->pids[0] : 0)),
				OTF2_UNDEFINED_LOCATION_GROUP));
	}
}

/* A location per thread, in its process's group; then (places) one per
 * thread's place track; then one per track of the empty slots, in theirs. */
static void locations(struct ox *o)
{
	uint32_t nt = o->pr->nthreads, nslot0 = o->nloc - o->nslots;
	char buf[64];

	for (uint32_t loc = 0; loc < nslot0; loc++) {
		uint32_t t = loc < nt ? loc : loc - nt;

		snprintf(buf, sizeof(buf), "thread %u (tid %d)%s", t, o->pr->threads[t].tid,
			 loc < nt ? "" : " places");
		keep(o, OTF2_GlobalDefWriter_WriteLocation(o->gd, loc, str(o, buf),
							   OTF2_LOCATION_TYPE_CPU_THREAD, o->nev[loc],
							   pid_index(o, o->pr->threads[t].pid)));
	}
	for (uint32_t k = 0; k < o->nslots; k++) {
		snprintf(buf, sizeof(buf), "empty processor slot %u", k);
		keep(o, OTF2_GlobalDefWriter_WriteLocation(o->gd, nslot0 + k, str(o, buf),
							   OTF2_LOCATION_TYPE_CPU_THREAD,
							   o->nev[nslot0 + k], o->slot_group));
	}
}

/* The global definitions: the clock first, then names and places. */
static void global_defs(struct ox *o)
{
	const struct lc_prof_info *in = &o->pr->info;

	o->gd = OTF2_Archive_GetGlobalDefWriter(o->ar);
	if (!o->gd) {
		keep(o, OTF2_ERROR_MEM_ALLOC_FAILED);
		return;
	}
	keep(o, OTF2_GlobalDefWriter_WriteClockProperties(o->gd, 1000000000u, in->t0_ns, o->end,
							  in->start_realtime_ns ?
							  in->start_realtime_ns :
							  OTF2_UNDEFINED_TIMESTAMP));
	regions(o);
	groups(o);
	locations(o);
}

/* Accept DIR when it is missing, or an empty directory of the user's own
 * (not a symbolic link): the archive goes into a new private directory
 * and is renamed to DIR when complete, so nothing planted in or at DIR is
 * followed, overwritten or mixed with it. */
static int fresh(const char *dir, char *msg, size_t len)
{
	char path[4096];
	struct stat st, at;
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (lstat(dir, &st))
		return errno == ENOENT ? 0 : lc_fail(msg, len, 1, "%s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/" ARCHIVE ".otf2", dir);
	if (S_ISDIR(st.st_mode) && !lstat(path, &at) && S_ISREG(at.st_mode))
		return lc_fail(msg, len, 1, "%s already holds an OTF2 archive (" ARCHIVE ".otf2): "
			       "remove it or choose another directory", dir);
	if (!S_ISDIR(st.st_mode))
		return lc_fail(msg, len, 1, "%s exists and is %s: not replaced (name a new or "
			       "empty directory)", dir, S_ISLNK(st.st_mode) ? "a symbolic link" :
			       "not a directory");
	if (st.st_uid != geteuid())
		return lc_fail(msg, len, 1, "%s belongs to uid %u: refused (name a new directory "
			       "or an empty one of your own)", dir, (unsigned)st.st_uid);
	if (!(d = opendir(dir)))
		return lc_fail(msg, len, 1, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	if (n)
		return lc_fail(msg, len, 1, "%s is not empty: refused (name a new or empty "
			       "directory)", dir);
	return 0;
}

/* Remove the entries of directory fd (the archive's files and its one
 * level of folders below); fd stays open. */
static void empty_dir(int fd, int depth)
{
	DIR *d = fdopendir(dup(fd));
	struct dirent *de;

	while (d && (de = readdir(d))) {
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!unlinkat(fd, de->d_name, 0) || errno != EISDIR || depth > 2)
			continue;
		sub = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			empty_dir(sub, depth + 1);
			close(sub);
		}
		unlinkat(fd, de->d_name, AT_REMOVEDIR);
	}
	if (d)
		closedir(d);
}

/* The private directory the archive is written into: tmp, made beside
 * dir (mode 0700, a new name), open as *fd, and the name the library is
 * given for it (through the descriptor: its files go into that
 * directory whatever is done to the names around it).  0 or 1. */
static int private_dir(const char *dir, char *tmp, size_t tlen, int *fd, char *via,
		       size_t vlen, char *msg, size_t len)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (snprintf(tmp, tlen, "%.*s.tmp-XXXXXX", (int)n, dir) >= (int)tlen)
		return lc_fail(msg, len, 1, "%s: name too long", dir);
	if (!mkdtemp(tmp))
		return lc_fail(msg, len, 1, "cannot make a directory beside %s: %s", dir,
			       strerror(errno));
	*fd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0) {
		lc_fail(msg, len, 1, "%s: %s", tmp, strerror(errno));
		rmdir(tmp);
		return 1;
	}
	snprintf(via, vlen, "/proc/self/fd/%d", *fd);
	return 0;
}

/* Put the written archive in place: the private directory gets the
 * user's usual mode and becomes dir (rename: an empty directory there is
 * replaced; a link or anything else planted since is not).  On failure
 * (or failed set) its files are removed.  0 or 1. */
static int put_in_place(const char *tmp, int fd, const char *dir, int failed, char *msg,
			size_t len)
{
	mode_t um = umask(0);

	umask(um);
	if (!failed && (fchmod(fd, 0777 & ~um) || rename(tmp, dir)))
		failed = lc_fail(msg, len, 1, "cannot move the archive to %s: %s", dir,
				 strerror(errno));
	if (failed) {
		empty_dir(fd, 0);
		rmdir(tmp);
	}
	close(fd);
	return failed ? 1 : 0;
}

/* Open the archive in directory via (dir in the reason when it fails). */
static int open_archive(struct ox *o, const char *via, const char *dir, char *msg, size_t len)
{
	char creator[64], *c = NULL, *h = NULL;

	o->ar = OTF2_Archive_Open(via, ARCHIVE, OTF2_FILEMODE_WRITE, 1024 * 1024,
				  4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!o->ar)
		return lc_fail(msg, len, 1, "%s: cannot create the OTF2 archive%s%s", dir,
			       o->why[0] ? ": " : "", o->why);
	snprintf(creator, sizeof(creator), "lostcycles %s", LC_TOOL_VERSION);
	keep(o, OTF2_Archive_SetFlushCallbacks(o->ar, &flush_cb, NULL));
	keep(o, OTF2_Archive_SetSerialCollectiveCallbacks(o->ar));
	keep(o, OTF2_Archive_SetCreator(o->ar, creator));
	if (o->pr->info.command && (c = clean(o->pr->info.command)))
		keep(o, OTF2_Archive_SetDescription(o->ar, c));
	free(c);
	if (o->pr->info.hostname && (h = clean(o->pr->info.hostname)))
		keep(o, OTF2_Archive_SetMachineName(o->ar, h));
	free(h);
	return 0;
}

int lc_otf2_supported(void)
{
	return 1;
}

int lc_otf2_write(const char *dir, const struct lc_profile *pr, enum lc_source src, char *msg,
		  size_t len)
{
	struct ox o = { .pr = pr, .d = &pr->data[src] };
	size_t n = (size_t)pr->nprocesses + pr->nthreads + 1;
	char tmp[4096], via[64];
	OTF2_ErrorCallback prev;
	int rc, fd = -1;

	if (!o.d->present)
		return lc_fail(msg, len, 1, "the profile holds no %s data",
			       src == LC_SRC_TRACE ? "trace" : "sampled");
	if (fresh(dir, msg, len) || private_dir(dir, tmp, sizeof(tmp), &fd, via, sizeof(via), msg,
						len))
		return 1;
	prev = OTF2_Error_RegisterCallback(on_error, &o);
	rc = lc_places_new(pr, src, &o.pl);
	o.nslots = lc_timeline_empty_slots(pr, o.d);
	o.nloc = pr->nthreads * (o.pl ? 2 : 1) + o.nslots;
	o.nev = calloc(o.nloc + 1, sizeof(*o.nev));
	o.pids = calloc(n, sizeof(*o.pids));
	o.hosts = calloc(n, sizeof(*o.hosts));
	if (rc || !o.nev || !o.pids || !o.hosts) {
		rc = lc_fail(msg, len, 1, "%s", strerror(ENOMEM));
		goto out;
	}
	rc = open_archive(&o, via, dir, msg, len);
	if (rc)
		goto out;
	events(&o);
	local_defs(&o);
	global_defs(&o);
	keep(&o, OTF2_Archive_Close(o.ar));
	rc = o.rc == OTF2_SUCCESS ? 0 :
	     lc_fail(msg, len, 1, "%s: writing the OTF2 archive failed: %s%s%s", dir,
		     OTF2_Error_GetDescription(o.rc), o.why[0] ? ": " : "", o.why);
out:
	rc = put_in_place(tmp, fd, dir, rc, msg, len);
	OTF2_Error_RegisterCallback(prev, NULL);
	lc_places_free(o.pl);
	free(o.nev);
	free(o.pids);
	free(o.hosts);
	return rc;
}

#endif
