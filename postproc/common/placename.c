/*
 * placename.c — names for place words (see placename.h): which file a
 * place's address belongs to, whether that file is still the one of the
 * run, and its source line, symbol or address.
 */
#include "placename.h"
#include "lc_util.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lc_program.h"

/* The MPI layer's function table, in its order (index 0: none): the
 * "what" byte of an MPI place word indexes it (LC_MPI_FUNCS of
 * flaglib/lc_abi.h, which analysis does not include; tests/test_where.c
 * checks this copy against it).  Names come from the profile's names block
 * first; this is for a profile without one. */
static const char *const mpi_names[] = {
	NULL, "MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend", "MPI_Recv", "MPI_Sendrecv",
	"MPI_Sendrecv_replace", "MPI_Probe", "MPI_Mprobe", "MPI_Mrecv", "MPI_Wait",
	"MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test", "MPI_Testall",
	"MPI_Testany", "MPI_Testsome", "MPI_Iprobe", "MPI_Improbe", "MPI_Barrier",
	"MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Scan", "MPI_Exscan", "MPI_Gather",
	"MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv", "MPI_Allgather", "MPI_Allgatherv",
	"MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw", "MPI_Reduce_scatter",
	"MPI_Reduce_scatter_block", "MPI_Comm_split", "MPI_Comm_dup", "MPI_Win_fence",
	"MPI_Win_wait", "MPI_Win_start", "MPI_Win_complete", "MPI_Win_lock",
	"MPI_Win_unlock", "MPI_Win_lock_all", "MPI_Win_unlock_all", "MPI_Win_flush",
	"MPI_Win_flush_all",
};

/* The kinds of wait of a synchronization place (LC_PLACE_WAITS of
 * lc_abi.h, index 0: none; checked the same way). */
static const char *const wait_names[] = {
	NULL, "mutex", "rwlock", "condition", "barrier", "join", "semaphore", "spinlock",
	"LC_SYNC_BEGIN_ON", "omp critical", "omp barrier",
};

const char *lc_placename_what(uint32_t kind, uint32_t what)
{
	if (kind == LC_PLN_MPI && what < sizeof(mpi_names) / sizeof(*mpi_names))
		return mpi_names[what];
	if (kind == LC_PLN_SYNC && what < sizeof(wait_names) / sizeof(*wait_names))
		return wait_names[what];
	return NULL;
}

/* One file of the run's modules, opened once. */
struct file {
	char *path;
	int usable;			/* still the run's file */
	int told;			/* its note was written */
	int lib;			/* a shared object, not a main program */
	struct lc_program_syms *syms;	/* NULL: none */
	struct lc_program_dbg *dbg;	/* NULL: no debug information */
	char *base;			/* its base name, for addresses */
};

struct lc_placenames {
	const struct lc_profile *pr;
	uint32_t nfiles;
	struct file *files;
	char exe[PATH_MAX];		/* the command's program, "" none */
	char note[4096];
	char src[PATH_MAX];		/* the source file of the last code_name, "" */
	int src_line;			/* and its line */
};

/* Append sentence s to the note (once per call; the caller says once). */
static void add_note(struct lc_placenames *pn, const char *s)
{
	size_t n = strlen(pn->note);

	if (strstr(pn->note, s))
		return;
	snprintf(pn->note + n, sizeof(pn->note) - n, "%s%s", n ? "; " : "", s);
}

/* The module row of (pid, hash), the last one written; for the main
 * program of a process without one, any process's main program row.
 * NULL when none. */
static const struct lc_prof_module *module_row(const struct lc_profile *pr, int32_t pid,
					       uint32_t hash)
{
	const struct lc_prof_module *m = NULL, *any = NULL;

	for (uint32_t i = 0; i < pr->nmodules; i++) {
		if (pr->modules[i].hash != hash || !pr->modules[i].path)
			continue;
		if (pr->modules[i].pid == pid)
			m = &pr->modules[i];
		any = &pr->modules[i];
	}
	return m ? m : hash == 0 ? any : NULL;
}

/* Whether file path is the one row m recorded; else a reason into why. */
static int same_file(const struct lc_prof_module *m, char *why, size_t len)
{
	char id[256];
	struct stat st;

	if (stat(m->path, &st)) {
		snprintf(why, len, "%s: %s since the run: its places are named by address",
			 m->path, strerror(errno));
		return 0;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > LC_PROGRAM_MAX_SIZE) {
		snprintf(why, len, "%s is %s: not opened, its places are named by address",
			 m->path, S_ISREG(st.st_mode) ? "larger than 4 GiB" : "not a regular file");
		return 0;
	}
	if (m->build_id) {
		if (!lc_program_build_id(m->path, id, sizeof(id)) && !strcmp(id, m->build_id))
			return 1;
		snprintf(why, len, "binary changed since the run: build id %s recorded, %s now "
			 "(%s): its places are named by address", m->build_id, *id ? id : "none",
			 m->path);
		return 0;
	}
	if ((uint64_t)st.st_size == m->size &&
	    (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec ==
		    m->mtime_ns)
		return 1;
	snprintf(why, len, "binary changed since the run: %s has another size or mtime (and "
		 "no build id): its places are named by address", m->path);
	return 0;
}

/* Open the symbols and debug information of f. */
static void open_file(struct file *f)
{
	f->syms = lc_program_syms_open(f->path);
	f->dbg = lc_program_dbg_open(f->path);
}

/* The file of path (usable or not, with why when not), opened once.  NULL
 * when out of memory. */
static struct file *file_of(struct lc_placenames *pn, const char *path, int lib, int usable,
			    const char *why)
{
	struct file *f;

	for (uint32_t i = 0; i < pn->nfiles; i++)
		if (!strcmp(pn->files[i].path, path))
			return &pn->files[i];
	f = realloc(pn->files, (pn->nfiles + 1) * sizeof(*f));
	if (!f)
		return NULL;
	pn->files = f;
	f = &f[pn->nfiles];
	*f = (struct file){ .path = strdup(path), .usable = usable, .lib = lib };
	if (!f->path)
		return NULL;
	pn->nfiles++;
	f->base = strdup(strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	if (usable)
		open_file(f);
	else
		add_note(pn, why);
	return f;
}

/* The file of module hash in process pid: its module row's (checked), or
 * for the main program without rows the command's program (unchecked).
 * NULL when none is known. */
static struct file *module_file(struct lc_placenames *pn, int32_t pid, uint32_t hash)
{
	const struct lc_prof_module *m = module_row(pn->pr, pid, hash);
	char why[PATH_MAX * 2 + 300];

	if (m)
		return file_of(pn, m->path, hash != 0, same_file(m, why, sizeof(why)), why);
	if (hash || !pn->exe[0])
		return NULL;
	return file_of(pn, pn->exe, 0, 1, NULL);
}

/* Say once that f had nothing to name an address with. */
static void unnamed(struct lc_placenames *pn, struct file *f)
{
	char why[PATH_MAX + 200];

	if (!f->usable || f->told)
		return;
	f->told = 1;
	snprintf(why, sizeof(why), "%s has %s: its places are named by address", f->path,
		 f->syms && f->syms->n ? "no debug information or symbol for some addresses"
				       : "no symbols (stripped)");
	add_note(pn, why);
}

/* The readable name of symbol s (a C++ name demangled, lc_program.h) in
 * buf or s's; a note when a C++ name stays mangled. */
static const char *sym_name(struct lc_placenames *pn, const struct lc_program_sym *s, char *buf,
			    size_t len)
{
	int mangled;
	const char *n = lc_program_demangle(s->name, buf, len, &mangled);

	if (mangled)
		add_note(pn, "C++ names are shown mangled: the C++ runtime (libstdc++.so.6) "
			     "that demangles them was not found");
	return n;
}

/* The function of link-time address a in f into func ("" unknown). */
static void function_of(struct lc_placenames *pn, const struct file *f, uint64_t a, char *func,
			size_t len)
{
	const struct lc_program_sym *s = lc_program_sym_at(f->syms, a, 1);
	char buf[1024];

	snprintf(func, len, "%s", s ? sym_name(pn, s, buf, sizeof(buf)) : "");
}

/* Append " via FILE:LINE" to out when code address a of f was inlined at
 * a call of another line: the line of the function the compiler emitted
 * tells the copies of an inlined helper apart. */
static void inline_site(const struct file *f, uint64_t a, int line, char *out, size_t len)
{
	char file[PATH_MAX];
	size_t n = strlen(out);
	int cl;

	if (lc_program_inline_site(f->dbg, a, file, sizeof(file), &cl) || cl == line)
		return;
	snprintf(out + n, len - n, " via %.300s:%d",
		 strrchr(file, '/') ? strrchr(file, '/') + 1 : file, cl);
}

/* The name of code address a (a return address: its line is that of a - 1)
 * of file f into out and its function into func: "file.c:LINE",
 * "function+0xOFF", or "base+0xADDR" / "0xADDR"; in a shared library the
 * first two are prefixed with its base name: "libx.so:function+0xOFF". */
static void code_name(struct lc_placenames *pn, struct file *f, uint64_t a, char *out,
		      size_t len, char *func, size_t flen)
{
	const struct lc_program_sym *s = NULL;
	char file[PATH_MAX], mod[300] = "";
	int line;

	*func = 0;
	pn->src[0] = 0;
	if (f && f->lib && f->base)
		snprintf(mod, sizeof(mod), "%s:", f->base);
	if (f && f->usable && f->dbg && a &&
	    !lc_program_srcline(f->dbg, a - 1, file, sizeof(file), &line, func, flen) && line > 0) {
		const char *b = strrchr(file, '/');

		snprintf(pn->src, sizeof(pn->src), "%s", file);
		pn->src_line = line;

		snprintf(out, len, "%s%.300s:%d", mod, b ? b + 1 : file, line);
		inline_site(f, a - 1, line, out, len);
		if (!*func || *func == '.')
			function_of(pn, f, a - 1, func, flen);
		return;
	}
	if (f && f->usable && (s = lc_program_sym_at(f->syms, a - 1, 1))) {
		const char *n = sym_name(pn, s, file, sizeof(file));

		snprintf(out, len, "%s%s+0x%" PRIx64, mod, n, a - s->addr);
		snprintf(func, flen, "%s", n);
		return;
	}
	if (f)
		unnamed(pn, f);
	if (f && f->lib && f->base)
		snprintf(out, len, "%s+0x%" PRIx64, f->base, a);
	else
		snprintf(out, len, "0x%" PRIx64, a);
}

/* ---- synchronization objects -------------------------------------------- */

/* The LC_NAME of object obj of process pid, or NULL. */
static const char *sync_name(const struct lc_profile *pr, int32_t pid, uint64_t obj)
{
	for (uint32_t i = 0; i < pr->nsync; i++)
		if (pr->sync[i].pid == pid && pr->sync[i].obj == obj && pr->sync[i].name)
			return pr->sync[i].name;
	return NULL;
}

/* The data symbol of file f holding link-time address a, written as
 * "[MODULE:]symbol[+0xOFF]" into out; 0, or -ENOENT when none holds it
 * (a data symbol holds an address only inside its size). */
static int data_symbol(struct lc_placenames *pn, const struct file *f, uint64_t a, char *out,
		       size_t len)
{
	const struct lc_program_sym *s = f && f->usable ? lc_program_sym_at(f->syms, a, 0) : NULL;
	char mod[300] = "", buf[1024];
	const char *n;

	if (!s)
		return -ENOENT;
	if (f->lib && f->base)
		snprintf(mod, sizeof(mod), "%s:", f->base);
	n = sym_name(pn, s, buf, sizeof(buf));
	if (a == s->addr)
		snprintf(out, len, "%s%s", mod, n);
	else
		snprintf(out, len, "%s%s+0x%" PRIx64, mod, n, a - s->addr);
	return 0;
}

/* The static object of a module of process pid holding obj, by the load
 * bias the sampler recorded for that module (a program that is not PIE
 * needs none: its link-time addresses are its run-time ones).  No bias is
 * ever guessed: 0, or -ENOENT (and a note when there was no bias). */
static int static_name(struct lc_placenames *pn, int32_t pid, uint64_t obj, char *out,
		       size_t len)
{
	const struct lc_profile *pr = pn->pr;
	struct file *f;
	int based = 0;

	for (uint32_t i = 0; i < pr->nmodules; i++) {
		const struct lc_prof_module *m = &pr->modules[i];

		if (m->pid != pid || !m->based || !m->path)
			continue;
		based = 1;
		f = module_file(pn, pid, m->hash);
		if (obj >= m->bias && !data_symbol(pn, f, obj - m->bias, out, len))
			return 0;
	}
	if (based)
		return -ENOENT;
	f = module_file(pn, pid, 0);
	if (f && f->usable && f->syms && !f->syms->pie)
		return data_symbol(pn, f, obj, out, len);
	if (f && f->usable)
		add_note(pn, "no load address of the program was recorded (a profile of an "
			     "older build): its synchronization objects are named by address");
	return -ENOENT;
}

/* The name of synchronization object obj of process pid into out: its
 * LC_NAME, the static object of a module holding it, or its address. */
static void object_name(struct lc_placenames *pn, int32_t pid, uint64_t obj, char *out,
			size_t len)
{
	const char *n = sync_name(pn->pr, pid, obj);

	if (n)
		snprintf(out, len, "%s", n);
	else if (static_name(pn, pid, obj, out, len))
		snprintf(out, len, "0x%" PRIx64, obj);
}

/* ---- place words ------------------------------------------------------- */

/* The words of an OpenMP directive that name its construct, in the order
 * they may come ("parallel for simd"); a clause ends the name. */
static const char *const omp_words[] = {
	"target", "teams", "distribute", "parallel", "for", "do", "loop", "sections",
	"section", "single", "master", "masked", "critical", "barrier", "task",
	"taskloop", "taskwait", "taskgroup", "ordered", "simd", "workshare", "scope",
};

/* Whether word w[0..n) is one of omp_words. */
static int omp_word(const char *w, size_t n)
{
	for (size_t i = 0; i < sizeof(omp_words) / sizeof(*omp_words); i++)
		if (strlen(omp_words[i]) == n && !strncmp(omp_words[i], w, n))
			return 1;
	return 0;
}

/* "omp parallel for", "omp critical (name)": the construct of the
 * "#pragma omp" directive of source line text t into out; 0, or -1 when
 * the line holds none. */
static int omp_directive(const char *t, char *out, size_t len)
{
	size_t o, n;

	while (*t == ' ' || *t == '\t')
		t++;
	if (strncmp(t, "#pragma", 7) || !(t = strstr(t + 7, "omp")) || (t[3] != ' ' && t[3] != '\t'))
		return -1;
	o = (size_t)snprintf(out, len, "omp");
	for (t += 3;; t += n) {
		t += strspn(t, " \t");
		n = strspn(t, "abcdefghijklmnopqrstuvwxyz_");
		if (!n || !omp_word(t, n) || o + n + 2 >= len)
			break;
		o += (size_t)snprintf(out + o, len - o, " %.*s", (int)n, t);
	}
	if (strstr(out, "critical") && *t == '(' && strchr(t, ')'))	/* its name */
		snprintf(out + o, len - o, " %.*s", (int)(strchr(t, ')') - t + 1), t);
	return o > 3 ? 0 : -1;
}

/* The construct of the OpenMP directive on line of source file path (a
 * regular file of at most 64 MiB, as analysis opens files) into out; 0, or
 * -1 when the file cannot be read or the line holds none. */
static int omp_pragma(const char *path, int line, char *out, size_t len)
{
	char buf[1024];
	int fd = path[0] && line > 0 ? lc_open_regular(path, 64u << 20, NULL, 0) : -1, r = -1;
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (!f && fd >= 0)
		close(fd);
	for (int k = 1; f && fgets(buf, sizeof(buf), f); k += strchr(buf, '\n') != NULL)
		if (k == line && strchr(buf, '\n')) {
			r = omp_directive(buf, out, len);
			break;
		}
	if (f)
		fclose(f);
	return r;
}

/* An OpenMP construct's place: its kind from its directive in the source
 * ("omp parallel for"), else "omp region" or "omp loop". */
static void omp_place(struct lc_placenames *pn, int32_t pid, uint64_t w,
		      struct lc_place_name *out)
{
	struct file *f = module_file(pn, pid, LC_PLN_OMP_MODULE(w));

	code_name(pn, f, LC_PLN_OMP_ADDR(w), out->name, sizeof(out->name), out->func,
		  sizeof(out->func));
	if (omp_pragma(pn->src, pn->src_line, out->what, sizeof(out->what)))
		snprintf(out->what, sizeof(out->what), "%s",
			 LC_PLN_KIND(w) == LC_PLN_OMP_REGION ? "omp region" : "omp loop");
}

/* "WHAT @ SITE" (or WHAT alone without a call site) of an MPI or wait
 * place whose subject is subj. */
static void call_place(struct lc_placenames *pn, int32_t pid, uint64_t w, const char *subj,
		       struct lc_place_name *out)
{
	char site[400];

	out->func[0] = 0;
	if (LC_PLN_CALL_ADDR(w) == LC_PLN_NOADDR) {
		snprintf(out->name, sizeof(out->name), "%s", subj);
		return;
	}
	code_name(pn, module_file(pn, pid, LC_PLN_CALL_MODULE(w)), LC_PLN_CALL_ADDR(w), site,
		  sizeof(site), out->func, sizeof(out->func));
	snprintf(out->name, sizeof(out->name), "%s @ %s", subj, site);
}

/* An OpenMP critical construct's wait named by the critical's name in its
 * directive: "omp critical (sumup) @ tri.c:14". */
static void omp_critical_name(struct lc_placenames *pn, struct lc_place_name *out)
{
	char d[128], rest[384];
	size_t k = strlen("omp critical");

	if (strcmp(out->what, "omp critical") || strncmp(out->name, "omp critical", k) ||
	    omp_pragma(pn->src, pn->src_line, d, sizeof(d)) || strncmp(d, "omp critical (", k + 2))
		return;
	snprintf(rest, sizeof(rest), "%s", out->name + k);
	snprintf(out->name, sizeof(out->name), "%.127s%.383s", d, rest);
}

/* The name of the "what" field of place word w: the profile's names
 * block's, or for a profile without one this build's table; NULL when
 * unknown. */
static const char *what_name(const struct lc_profile *pr, uint64_t w)
{
	if (pr->nplace_names)
		return lc_profile_place_what(pr, w);
	return lc_placename_what(LC_PLN_KIND(w), LC_PLN_WHAT(w));
}

void lc_placenames_get(struct lc_placenames *pn, int32_t pid, uint64_t w, uint64_t obj,
		       struct lc_place_name *out)
{
	uint32_t k = LC_PLN_KIND(w), what = LC_PLN_WHAT(w);
	const char *wn = what_name(pn->pr, w);
	char subj[300];

	memset(out, 0, sizeof(*out));

	if (k == LC_PLN_OMP_REGION || k == LC_PLN_OMP_WORK) {
		omp_place(pn, pid, w, out);
	} else if (k == LC_PLN_MPI) {
		if (wn)
			snprintf(out->what, sizeof(out->what), "%s", wn);
		else
			snprintf(out->what, sizeof(out->what), "MPI#%" PRIu32, what);
		call_place(pn, pid, w, out->what, out);
	} else if (k == LC_PLN_SYNC) {
		if (wn)
			snprintf(out->what, sizeof(out->what), "%s", wn);
		else
			snprintf(out->what, sizeof(out->what), "wait#%" PRIu32, what);
		if (obj || sync_name(pn->pr, pid, 0))
			object_name(pn, pid, obj, subj, sizeof(subj));
		else if (!strcmp(out->what, "join") || !strncmp(out->what, "omp ", 4))
			snprintf(subj, sizeof(subj), "%s", out->what);	/* no object */
		else	/* its object was not known at the tick */
			snprintf(subj, sizeof(subj), "%s (object not recorded)", out->what);
		call_place(pn, pid, w, subj, out);
		omp_critical_name(pn, out);
	} else if (w) {
		snprintf(out->name, sizeof(out->name), "place:0x%016" PRIx64, w);
		snprintf(out->what, sizeof(out->what), "unknown");
	} else {
		snprintf(out->name, sizeof(out->name), "(elsewhere)");
	}
}

struct lc_placenames *lc_placenames_new(const struct lc_profile *pr)
{
	struct lc_placenames *pn = calloc(1, sizeof(*pn));

	if (!pn)
		return NULL;
	pn->pr = pr;
	if (lc_program_of_command(pr->info.command, pn->exe, sizeof(pn->exe)))
		pn->exe[0] = 0;
	return pn;
}

const char *lc_placenames_note(const struct lc_placenames *pn)
{
	return pn ? pn->note : "";
}

/* Free what a file row holds. */
static void free_file(void *row)
{
	struct file *f = row;

	free(f->path);
	free(f->base);
	lc_program_syms_close(f->syms);
	lc_program_dbg_close(f->dbg);
}

void lc_placenames_free(struct lc_placenames *pn)
{
	LC_FREE_TABLE(pn, files, nfiles, free_file);
}
