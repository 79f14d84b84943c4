/*
 * program.c — a program's file on PATH, its DT_NEEDED entries (libelf) and
 * the source lines of its addresses (libdw).  See lc_program.h.
 */
#include "lc_program.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lc_program_find(const char *w, char *path, size_t len)
{
	const char *p = getenv("PATH");
	char dirs[8192], *save = NULL, *d;

	if (strchr(w, '/')) {
		snprintf(path, len, "%s", w);
		return access(path, R_OK) ? -1 : 0;
	}
	snprintf(dirs, sizeof(dirs), "%s", p ? p : "/usr/local/bin:/usr/bin:/bin");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (snprintf(path, len, "%s/%s", *d ? d : ".", w) >= (int)len)
			continue;
		if (!access(path, X_OK))
			return 0;
	}
	return -1;
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

int lc_program_needs(const char *path, const char *prefix)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = -1;
	Elf *e;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF)
		r = needs(e, prefix);
	elf_end(e);
	close(fd);
	return r;
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
	d->fd = open(path, O_RDONLY | O_CLOEXEC);
	d->dw = d->fd >= 0 ? dwarf_begin(d->fd, DWARF_C_READ) : NULL;
	if (!d->dw) {
		lc_program_dbg_close(d);
		return NULL;
	}
	return d;
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

/* The name of the innermost function of cu holding addr, into func
 * (empty when none is named). */
static void function_at(Dwarf_Die *cu, uint64_t addr, char *func, size_t fnlen)
{
	Dwarf_Die fn;
	const char *name;

	func[0] = '\0';
	if (innermost(cu, addr, &fn, 0) && (name = die_name(&fn)))
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
	function_at(&cu, addr, func, fnlen);
	return 0;
}
