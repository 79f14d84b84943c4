/*
 * elfsym.c — does the program call a function of liblostcycles itself?
 * Looks for an undefined dynamic symbol of that name in every object
 * loaded so far (the main program and its shared libraries), read from
 * their files.  Used by the automatic layers' precedence rules (auto.c):
 * a program that calls LC_PARALLEL_* anywhere owns work_exists from its
 * start, not only from its first call.  The files are untrusted: every
 * offset and size is checked.
 */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_internal.h"

#define MAX_SECTIONS 4096u
#define MAX_STRTAB (16u << 20)	/* larger .dynstr: not looked at */
#define SYM_BATCH 256u

/* What the dl_iterate_phdr callback looks for, and what it found. */
struct refs_query {
	const char *const *names;
	int n;
	int found;
};

/* Read exactly len bytes at off.  Returns 0 or -1. */
static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* Find the dynamic symbol table of the ELF file fd: its section header in
 * *sym and that of its string table in *str.  Returns 0 or -1. */
static int find_dynsym(int fd, Elf64_Shdr *sym, Elf64_Shdr *str)
{
	Elf64_Ehdr eh;

	if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shnum == 0 || eh.e_shnum > MAX_SECTIONS)
		return -1;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (read_at(fd, sym, sizeof(*sym), eh.e_shoff + (uint64_t)i * sizeof(*sym)))
			return -1;
		if (sym->sh_type != SHT_DYNSYM)
			continue;
		if (sym->sh_entsize != sizeof(Elf64_Sym) || sym->sh_link >= eh.e_shnum)
			return -1;
		return read_at(fd, str, sizeof(*str),
			       eh.e_shoff + (uint64_t)sym->sh_link * sizeof(*str));
	}
	return -1;
}

/* Whether symbol s (names in strtab[0..len)) is an undefined reference to
 * one of q's names. */
static int wanted(const Elf64_Sym *s, const char *strtab, uint64_t len,
		  const struct refs_query *q)
{
	const char *name;

	if (s->st_shndx != SHN_UNDEF || s->st_name == 0 || s->st_name >= len)
		return 0;
	name = strtab + s->st_name;
	if (!memchr(name, 0, len - s->st_name))
		return 0;
	for (int i = 0; i < q->n; i++)
		if (!strcmp(name, q->names[i]))
			return 1;
	return 0;
}

/* Whether the ELF file at path refers to one of q's names without defining
 * it: 1 yes, 0 no or unreadable. */
static int file_refers(const char *path, const struct refs_query *q)
{
	Elf64_Shdr symh, strh;
	Elf64_Sym batch[SYM_BATCH];
	char *strtab = NULL;
	uint64_t nsym, i;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return 0;
	if (find_dynsym(fd, &symh, &strh) || strh.sh_size == 0 || strh.sh_size > MAX_STRTAB)
		goto out;
	strtab = malloc(strh.sh_size);
	if (!strtab || read_at(fd, strtab, strh.sh_size, strh.sh_offset))
		goto out;
	nsym = symh.sh_size / sizeof(Elf64_Sym);
	for (i = 0; i < nsym && !r; i += SYM_BATCH) {
		uint64_t k = nsym - i < SYM_BATCH ? nsym - i : SYM_BATCH;

		if (read_at(fd, batch, k * sizeof(Elf64_Sym), symh.sh_offset + i * sizeof(Elf64_Sym)))
			break;
		for (uint64_t j = 0; j < k && !r; j++)
			r = wanted(&batch[j], strtab, strh.sh_size, q);
	}
out:
	free(strtab);
	close(fd);
	return r;
}

/* dl_iterate_phdr callback: look into one loaded object (the main program
 * has an empty name: its file is /proc/self/exe).  Returns nonzero to
 * stop once a reference was found. */
static int look(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct refs_query *q = arg;
	const char *path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name :
			   "/proc/self/exe";

	(void)size;
	if (!strchr(path, '/'))
		return 0;	/* the vDSO: no file */
	q->found = file_refers(path, q);
	return q->found;
}

int lc_priv_program_refers(const char *const *names, int n)
{
	struct refs_query q = { names, n, 0 };

	dl_iterate_phdr(look, &q);
	return q.found;
}
