/*
 * lc_elf.h — what the tool reads of an ELF file itself: its GNU build id,
 * for the sampler (the modules of a run's places) and for analysis (is the
 * file on disk still the one the run recorded).  One reader, so both sides
 * agree on every edge case.  The file is untrusted input: libelf checks
 * every offset against the file's size, and a note section or segment
 * larger than LC_ELF_NOTES_MAX is not read.  Nothing here prints.
 */
#ifndef LC_ELF_H
#define LC_ELF_H

#include <stddef.h>

/* The longest build id kept, in bytes (a SHA-1 id has 20); the hex of one
 * fits LC_BUILD_ID_HEX bytes with its terminating 0. */
#define LC_BUILD_ID_MAX 64
#define LC_BUILD_ID_HEX (2 * LC_BUILD_ID_MAX + 1)

/* The largest note section or segment read, in bytes. */
#define LC_ELF_NOTES_MAX (1u << 20)

/* The GNU build id of the ELF file open as fd (read through its offsets,
 * whatever fd's position), as lower-case hex into hex[len]: the descriptor
 * of the first note named "GNU" of type NT_GNU_BUILD_ID holding 1 to
 * LC_BUILD_ID_MAX bytes, in the note sections (SHT_NOTE) in file order, or
 * for a file whose sections hold none (stripped of its section headers)
 * in its PT_NOTE segments.  Either class (32 or 64 bits) and byte order;
 * notes aligned to 4 or 8 bytes as their section or segment says.  A
 * note that does not fit its section ends that section's notes.
 * Returns 0, -ENOENT (an ELF file without one), -ENOEXEC (not an ELF
 * file: empty, cut inside its header, another format), -ERANGE (len is
 * under 2 * size + 1; hex is then ""), or -EINVAL (len 0). */
int lc_elf_build_id(int fd, char *hex, size_t len);

#endif /* LC_ELF_H */
