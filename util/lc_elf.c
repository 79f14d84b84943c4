/*
 * lc_elf.c — the GNU build id of an ELF file (see lc_elf.h).
 */
#include "lc_elf.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The build id among the notes of d into hex[len]: 0, -ENOENT (none),
 * -ERANGE (too long for hex). */
static int notes_build_id(const Elf_Data *d, char *hex, size_t len)
{
	GElf_Nhdr nh;
	size_t off = 0, next, noff, doff;

	for (; d && off < d->d_size; off = next) {
		const unsigned char *b = (const unsigned char *)d->d_buf;

		next = gelf_getnote((Elf_Data *)d, off, &nh, &noff, &doff);
		if (!next)
			break;	/* cut or malformed: the section's notes end */
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp(b + noff, "GNU", 4) || !nh.n_descsz || nh.n_descsz > LC_BUILD_ID_MAX)
			continue;
		if (len < 2 * (size_t)nh.n_descsz + 1)
			return -ERANGE;
		for (size_t k = 0; k < nh.n_descsz; k++)
			snprintf(hex + 2 * k, 3, "%02x", b[doff + k]);
		return 0;
	}
	return -ENOENT;
}

/* The build id of the note sections of e: 0, -ENOENT, -ERANGE. */
static int sections_build_id(Elf *e, char *hex, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int r = -ENOENT;

	while (r == -ENOENT && (scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE &&
		    sh.sh_size <= LC_ELF_NOTES_MAX)
			r = notes_build_id(elf_getdata(scn, NULL), hex, len);
	return r;
}

/* The build id of the PT_NOTE segments of e: 0, -ENOENT, -ERANGE. */
static int segments_build_id(Elf *e, char *hex, size_t len)
{
	size_t n = 0;
	GElf_Phdr ph;
	int r = -ENOENT;

	if (elf_getphdrnum(e, &n))
		return -ENOENT;
	for (size_t i = 0; i < n && r == -ENOENT; i++) {
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE ||
		    ph.p_filesz > LC_ELF_NOTES_MAX)
			continue;
		r = notes_build_id(elf_getdata_rawchunk(e, (int64_t)ph.p_offset,
							(size_t)ph.p_filesz,
							ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR),
				   hex, len);
	}
	return r;
}

int lc_elf_build_id(int fd, char *hex, size_t len)
{
	GElf_Ehdr eh;
	Elf *e;
	int r = -ENOEXEC;

	if (!len)
		return -EINVAL;
	*hex = 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh)) {
		r = sections_build_id(e, hex, len);
		if (r == -ENOENT)
			r = segments_build_id(e, hex, len);
	}
	elf_end(e);
	if (r)
		*hex = 0;
	return r;
}
