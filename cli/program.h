/*
 * program.h — facts about the program a command runs: where its file is,
 * and which shared libraries it needs (to warn that GCC's libgomp has no
 * OMPT interface, for one).
 */
#ifndef LC_PROGRAM_H
#define LC_PROGRAM_H

#include <stddef.h>

/* The file of program word w: w itself when it holds a '/', else the first
 * executable of that name on PATH.  Returns 0 with the file in path, or -1
 * when there is none. */
int lc_program_find(const char *w, char *path, size_t len);

/* Whether the ELF file at path names a shared library starting with prefix
 * (e.g. "libgomp.so") among its DT_NEEDED entries: 1 yes, 0 no, -1 when
 * path is not a readable 64-bit ELF file with a dynamic section. */
int lc_program_needs(const char *path, const char *prefix);

#endif /* LC_PROGRAM_H */
