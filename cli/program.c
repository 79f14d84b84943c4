/*
 * program.c — find a command's program on PATH, and read the DT_NEEDED
 * entries of a 64-bit ELF file (see program.h).  The file is untrusted:
 * every offset and size is checked before use.
 */
#include "program.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_PHDRS 256
#define MAX_DYN 1024

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

/* Read exactly n bytes at off.  Returns 0 or -1. */
static int read_at(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

/* The file offset of virtual address va in one of the PT_LOAD segments of
 * ph[0..n), or -1. */
static off_t va_to_off(const Elf64_Phdr *ph, int n, uint64_t va)
{
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && va >= ph[i].p_vaddr &&
		    va - ph[i].p_vaddr < ph[i].p_filesz)
			return (off_t)(va - ph[i].p_vaddr + ph[i].p_offset);
	return -1;
}

/* Read the program headers of the ELF file fd into ph (at most MAX_PHDRS).
 * Returns their number, or -1 when fd is not a 64-bit ELF file. */
static int read_phdrs(int fd, Elf64_Phdr *ph)
{
	Elf64_Ehdr eh;

	if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    eh.e_phnum == 0 || eh.e_phnum > MAX_PHDRS)
		return -1;
	if (read_at(fd, ph, eh.e_phnum * sizeof(*ph), (off_t)eh.e_phoff))
		return -1;
	return eh.e_phnum;
}

/* Whether a DT_NEEDED entry of dyn[0..n) starts with prefix (see
 * lc_program_needs). */
static int needs(int fd, const Elf64_Phdr *ph, int nph, const Elf64_Dyn *dyn, size_t n,
		 const char *prefix)
{
	char name[256];
	uint64_t strtab = 0;
	off_t base;

	for (size_t i = 0; i < n && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = dyn[i].d_un.d_ptr;
	base = va_to_off(ph, nph, strtab);
	if (!strtab || base < 0)
		return -1;
	for (size_t i = 0; i < n && dyn[i].d_tag != DT_NULL; i++) {
		ssize_t got;

		if (dyn[i].d_tag != DT_NEEDED)
			continue;
		got = pread(fd, name, sizeof(name) - 1, base + (off_t)dyn[i].d_un.d_val);
		if (got <= 0)
			continue;
		name[got] = 0;
		if (!strncmp(name, prefix, strlen(prefix)))
			return 1;
	}
	return 0;
}

int lc_program_needs(const char *path, const char *prefix)
{
	Elf64_Phdr ph[MAX_PHDRS];
	Elf64_Dyn *dyn = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), nph, r = -1;
	size_t n = 0;

	if (fd < 0)
		return -1;
	nph = read_phdrs(fd, ph);
	for (int i = 0; i < nph; i++) {
		if (ph[i].p_type != PT_DYNAMIC)
			continue;
		n = ph[i].p_filesz / sizeof(*dyn);
		if (n > MAX_DYN)
			n = MAX_DYN;
		dyn = calloc(n + 1, sizeof(*dyn));
		if (dyn && !read_at(fd, dyn, n * sizeof(*dyn), (off_t)ph[i].p_offset))
			r = needs(fd, ph, nph, dyn, n, prefix);
		break;
	}
	free(dyn);
	close(fd);
	return r;
}
