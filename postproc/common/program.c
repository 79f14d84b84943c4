/*
 * program.c — a program's file on PATH, its DT_NEEDED entries (libelf) and
 * the source lines of its addresses (libdw).  See lc_program.h.
 */
#include "lc_elf.h"
#include "lc_program.h"
#include "lc_util.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The executable w in a directory of $PATH into path; 0 or -1. */
static int find_in_path(const char *w, char *path, size_t len)
{
	const char *p = getenv("PATH");
	char dirs[8192], *save = NULL, *d;

	snprintf(dirs, sizeof(dirs), "%s", p ? p : "/usr/local/bin:/usr/bin:/bin");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
		if (snprintf(path, len, "%s/%s", *d ? d : ".", w) < (int)len && !access(path, X_OK))
			return 0;
	return -1;
}

int lc_program_find(const char *w, char *path, size_t len)
{
	if (strchr(w, '/')) {
		snprintf(path, len, "%s", w);
		return access(path, R_OK) ? -1 : 0;
	}
	return find_in_path(w, path, len);
}

/* The program's word of a command line: the first word, or for "env" the
 * first word after its options and VAR=VALUE assignments.  Copies it into
 * out; returns 0, or -1 when there is none. */
static int program_word(const char *command, char *out, size_t len)
{
	char buf[PATH_MAX * 2], *save = NULL, *w;
	int env = 0, skip = 0;

	snprintf(buf, sizeof(buf), "%s", command);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *base = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;

		if (skip) {
			skip = 0;
			continue;
		}
		if (!env && !strcmp(base, "env")) {
			env = 1;
			continue;
		}
		if (env && (w[0] == '-' || strchr(w, '='))) {
			skip = !strcmp(w, "-u") || !strcmp(w, "--unset") || !strcmp(w, "-C");
			continue;
		}
		snprintf(out, len, "%s", w);
		return 0;
	}
	return -1;
}

int lc_program_of_command(const char *command, char *path, size_t len)
{
	char word[PATH_MAX];

	if (!command || program_word(command, word, sizeof(word)))
		return -1;
	return lc_program_find(word, path, len);
}

/* Whether a DT_NEEDED entry of the dynamic section scn (strings in
 * section link) starts with prefix: 1 or 0. */
static int needs_in(Elf *e, Elf_Scn *scn, size_t link, const char *prefix)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	GElf_Dyn dyn;

	for (int i = 0; data && gelf_getdyn(data, i, &dyn) && dyn.d_tag != DT_NULL; i++) {
		const char *name;

		if (dyn.d_tag != DT_NEEDED)
			continue;
		name = elf_strptr(e, link, dyn.d_un.d_val);
		if (name && !strncmp(name, prefix, strlen(prefix)))
			return 1;
	}
	return 0;
}

/* Search the dynamic section of e: 1, 0, or -1 when it has none. */
static int needs(Elf *e, const char *prefix)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNAMIC)
			return needs_in(e, scn, sh.sh_link, prefix);
	return -1;
}

/* Open path as an ELF file into *e with its descriptor in *fd: a regular
 * file only (lc_open_regular: a FIFO or device at a module's path is never
 * opened or waited for) of at most LC_PROGRAM_MAX_SIZE bytes.  Returns 0,
 * or -errno (-ENOEXEC: not ELF; -EINVAL: not a regular file; -EFBIG) with
 * nothing left open. */
static int elf_open(const char *path, int *fd, Elf **e)
{
	*fd = lc_open_regular(path, LC_PROGRAM_MAX_SIZE, NULL, 0);
	if (*fd < 0)
		return *fd;
	elf_version(EV_CURRENT);
	*e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (*e && elf_kind(*e) == ELF_K_ELF)
		return 0;
	elf_end(*e);
	close(*fd);
	return -ENOEXEC;
}

/* Close what elf_open opened. */
static void elf_close(int fd, Elf *e)
{
	elf_end(e);
	close(fd);
}

int lc_program_needs(const char *path, const char *prefix)
{
	int fd, r;
	Elf *e;

	if (elf_open(path, &fd, &e))
		return -1;
	r = needs(e, prefix);
	elf_close(fd, e);
	return r;
}

/* The runtime libraries a layer measures, by the prefix of their name. */
static const struct { const char *lib; const char *layer; } layer_libs[] = {
	{ "libomp.so", "omp" }, { "libiomp5.so", "omp" }, { "libgomp.so", "gomp" },
	{ "libmpi.so", "mpi" }, { "libmpich.so", "mpi" }, { "libmpi_", "mpi" },
	{ "libmpicxx.so", "mpi" }, { "libmpifort.so", "mpi" }, { "libmpich", "mpi" },
};

const char *lc_program_layer(const char *path)
{
	int fd;
	Elf *e;
	const char *r = NULL;

	if (elf_open(path, &fd, &e))
		return NULL;
	for (size_t i = 0; !r && i < sizeof(layer_libs) / sizeof(*layer_libs); i++)
		if (needs(e, layer_libs[i].lib) == 1)
			r = layer_libs[i].layer;
	elf_close(fd, e);
	return r;
}

int lc_program_build_id(const char *path, char *hex, size_t len)
{
	struct stat st;
	int fd, r;

	if (!len)
		return -EINVAL;
	*hex = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);	/* a FIFO must not block */
	if (fd < 0)
		return -errno;
	r = fstat(fd, &st) ? -errno : S_ISREG(st.st_mode) ? lc_elf_build_id(fd, hex, len) : -ENOEXEC;
	close(fd);
	return r;
}

/* Whether symbol s is a named function or data object with an address. */
static int wanted_sym(const GElf_Sym *s, const char *name)
{
	int t = GELF_ST_TYPE(s->st_info);

	return name && name[0] && s->st_value && s->st_shndx != SHN_UNDEF &&
	       (t == STT_FUNC || t == STT_GNU_IFUNC || t == STT_OBJECT);
}

/* Append the symbols of symbol table scn (strings in section link) to t.
 * 0 or -ENOMEM. */
static int add_syms(struct lc_program_syms *t, Elf *e, Elf_Scn *scn, size_t link)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	GElf_Sym sym;

	for (int i = 0; data && gelf_getsym(data, i, &sym); i++) {
		const char *name = elf_strptr(e, link, sym.st_name);
		struct lc_program_sym *n;

		if (!wanted_sym(&sym, name))
			continue;
		n = realloc(t->s, (t->n + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->s = n;
		n[t->n] = (struct lc_program_sym){ sym.st_value, sym.st_size,
						   GELF_ST_TYPE(sym.st_info) != STT_OBJECT,
						   strdup(name) };
		if (!n[t->n++].name)
			return -ENOMEM;
	}
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct lc_program_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The symbol table of type (SHT_SYMTAB or SHT_DYNSYM) of e into t.  1 when
 * e has one, 0 when not, -ENOMEM. */
static int read_syms(struct lc_program_syms *t, Elf *e, unsigned type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return add_syms(t, e, scn, sh.sh_link) ? -ENOMEM : 1;
	return 0;
}

struct lc_program_syms *lc_program_syms_open(const char *path)
{
	struct lc_program_syms *t;
	GElf_Ehdr eh;
	int fd, r;
	Elf *e;

	if (elf_open(path, &fd, &e))
		return NULL;
	t = calloc(1, sizeof(*t));
	r = t && gelf_getehdr(e, &eh) ? read_syms(t, e, SHT_SYMTAB) : -ENOMEM;
	if (t && r >= 0) {
		t->pie = eh.e_type == ET_DYN;
		t->symtab = r;
		r = r ? 0 : read_syms(t, e, SHT_DYNSYM);
	}
	elf_close(fd, e);
	if (r < 0) {
		lc_program_syms_close(t);
		return NULL;
	}
	if (t->n)	/* t->s is NULL without symbols */
		qsort(t->s, t->n, sizeof(*t->s), by_addr);
	return t;
}

/* Whether symbol s holds addr: inside its size, or at or above it for a
 * function of size 0 (the caller checks that no later one starts below). */
static int holds(const struct lc_program_sym *s, uint64_t addr)
{
	return addr >= s->addr && (addr - s->addr < s->size || (!s->size && s->func));
}

const struct lc_program_sym *lc_program_sym_at(const struct lc_program_syms *t, uint64_t addr,
					       int func)
{
	size_t lo = 0, hi = t ? t->n : 0;

	while (lo < hi) {	/* first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int first = 1; lo-- > 0;) {
		const struct lc_program_sym *s = &t->s[lo];

		if (s->func != func)
			continue;
		if (holds(s, addr) && (s->size || first))
			return s;
		if (addr - s->addr > (1u << 24))
			break;	/* far below: no symbol reaches this far */
		first = 0;
	}
	return NULL;
}

static void free_sym(void *s)
{
	free(((struct lc_program_sym *)s)->name);
}

void lc_program_syms_close(struct lc_program_syms *t)
{
	LC_FREE_TABLE(t, s, n, free_sym);
}

struct lc_program_dbg {
	int fd;
	Dwarf *dw;
};

struct lc_program_dbg *lc_program_dbg_open(const char *path)
{
	struct lc_program_dbg *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->fd = lc_open_regular(path, LC_PROGRAM_MAX_SIZE, NULL, 0);
	d->dw = d->fd >= 0 ? dwarf_begin(d->fd, DWARF_C_READ) : NULL;
	if (d->dw)
		return d;
	lc_program_dbg_close(d);
	return NULL;
}

void lc_program_dbg_close(struct lc_program_dbg *d)
{
	if (!d)
		return;
	if (d->dw)
		dwarf_end(d->dw);
	if (d->fd >= 0)
		close(d->fd);
	free(d);
}

/* The name of die, following its abstract origin or specification; NULL
 * when it has none. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
}

/* Whether die is a function: a subprogram or an inlined one. */
static int is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* The innermost function below parent whose ranges hold addr into *found;
 * 1 when there is one, else 0.  (dwarf_getscopes names the abstract scopes
 * of an inlined call, not the innermost call as addr2line does.) */
static int innermost(Dwarf_Die *parent, uint64_t addr, Dwarf_Die *found, int depth)
{
	Dwarf_Die child;
	int got = 0;

	if (depth > 64 || dwarf_child(parent, &child))
		return 0;
	do {
		if (dwarf_haspc(&child, addr) <= 0)
			continue;
		if (is_function(&child)) {
			*found = child;
			got = 1;
		}
		return innermost(&child, addr, found, depth + 1) || got;
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

/* The part of path after its last '/'. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The function of the source that holds line of file: the named function
 * of cu (not a compiler-made one, ".omp_outlined.") declared last at or
 * above that line in that file; NULL when none.  An OpenMP region's body
 * is outlined into a function of its own, which this names back. */
static const char *function_by_line(Dwarf_Die *cu, const char *file, int line)
{
	const char *best = NULL;
	Dwarf_Die child;
	int bl = 0;

	if (dwarf_child(cu, &child))
		return NULL;
	do {
		const char *n = die_name(&child), *f;
		int l;

		if (dwarf_tag(&child) != DW_TAG_subprogram || !n || n[0] == '.' ||
		    dwarf_decl_line(&child, &l) || l > line || l < bl)
			continue;
		f = dwarf_decl_file(&child);	/* NULL for DWARF 5's file 0: the unit's */
		if (!f)
			f = die_name(cu);
		if (!f || strcmp(base_name(f), base_name(file)))
			continue;
		best = n;
		bl = l;
	} while (!dwarf_siblingof(&child, &child));
	return best;
}

/* The name of the innermost function of cu holding addr (line of file),
 * into func (empty when none is named). */
static void function_at(Dwarf_Die *cu, uint64_t addr, const char *file, int line, char *func,
			size_t fnlen)
{
	Dwarf_Die fn;
	const char *name = NULL;

	func[0] = '\0';
	if (innermost(cu, addr, &fn, 0))
		name = die_name(&fn);
	if (!name || name[0] == '.')
		name = function_by_line(cu, file, line);
	if (name)
		snprintf(func, fnlen, "%s", name);
}

/* The compilation unit of addr into *cu: through .debug_aranges, else (a
 * clang build has none) the first unit whose ranges hold it.  0 or
 * -ENOENT. */
static int unit_of(Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, addr, cu))
		return 0;
	for (; !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL); off = next)
		if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, addr) > 0)
			return 0;
	return -ENOENT;
}

/* The outermost inlined call below parent holding addr into *found: the
 * first DW_TAG_inlined_subroutine on the way down.  1 when there is one. */
static int outer_inline(Dwarf_Die *parent, uint64_t addr, Dwarf_Die *found, int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(parent, &child))
		return 0;
	do {
		if (dwarf_haspc(&child, addr) <= 0)
			continue;
		if (dwarf_tag(&child) == DW_TAG_inlined_subroutine) {
			*found = child;
			return 1;
		}
		return outer_inline(&child, addr, found, depth + 1);
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

int lc_program_inline_site(struct lc_program_dbg *d, uint64_t addr, char *file, size_t flen,
			   int *line)
{
	Dwarf_Attribute a;
	Dwarf_Files *files;
	Dwarf_Word fidx, ln;
	Dwarf_Die cu, in;
	const char *src;
	size_t nf;

	if (unit_of(d->dw, addr, &cu) || !outer_inline(&cu, addr, &in, 0) ||
	    dwarf_formudata(dwarf_attr(&in, DW_AT_call_line, &a), &ln) || !ln ||
	    dwarf_formudata(dwarf_attr(&in, DW_AT_call_file, &a), &fidx) ||
	    dwarf_getsrcfiles(&cu, &files, &nf) || fidx >= nf ||
	    !(src = dwarf_filesrc(files, fidx, NULL, NULL)))
		return -ENOENT;
	snprintf(file, flen, "%s", src);
	*line = (int)ln;
	return 0;
}

int lc_program_srcline(struct lc_program_dbg *d, uint64_t addr, char *file, size_t flen,
		       int *line, char *func, size_t fnlen)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *src;

	if (unit_of(d->dw, addr, &cu) || !(l = dwarf_getsrc_die(&cu, addr)) ||
	    !(src = dwarf_linesrc(l, NULL, NULL)) || dwarf_lineno(l, line))
		return -ENOENT;
	snprintf(file, flen, "%s", src);
	function_at(&cu, addr, src, *line, func, fnlen);
	return 0;
}

/* ---- C++ names ------------------------------------------------------------- */

/* The C++ runtime's demangler (the Itanium C++ ABI's __cxa_demangle),
 * looked up once; NULL when libstdc++.so.6 is not there. */
typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);
static cxa_demangle_fn cxa_demangle;
static pthread_once_t cxa_once = PTHREAD_ONCE_INIT;

static void cxa_load(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

	if (h)	/* kept open: the function is used until exit */
		*(void **)&cxa_demangle = dlsym(h, "__cxa_demangle");
}

const char *lc_program_demangle(const char *name, char *buf, size_t len, int *mangled)
{
	int status = -1;
	char *d = NULL;

	if (mangled)
		*mangled = 0;
	if (!name)
		return "";
	if (strncmp(name, "_Z", 2) || !len)
		return name;
	pthread_once(&cxa_once, cxa_load);
	if (cxa_demangle)
		d = cxa_demangle(name, NULL, NULL, &status);
	if (!d || status) {
		free(d);
		if (mangled)
			*mangled = 1;
		return name;
	}
	snprintf(buf, len, "%s", d);
	free(d);
	return buf;
}
