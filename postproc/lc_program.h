/*
 * lc_program.h — facts about a program's file, through libelf and libdw:
 * where it is on PATH, which shared libraries it needs (to warn that GCC's
 * libgomp has no OMPT interface, for one), and the source line and function
 * of an address in it (to name the OpenMP tool's fragment tags).  The file
 * is untrusted input; the libraries check every offset.  Nothing here
 * prints.
 */
#ifndef LC_PROGRAM_H
#define LC_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

/* The file of program word w: w itself when it holds a '/', else the first
 * executable of that name on PATH.  Returns 0 with the file in path, or -1
 * when there is none. */
int lc_program_find(const char *w, char *path, size_t len);

/* Whether the ELF file at path names a shared library starting with prefix
 * (e.g. "libgomp.so") among its DT_NEEDED entries: 1 yes, 0 no, -1 when
 * path is not a readable ELF file with a dynamic section. */
int lc_program_needs(const char *path, const char *prefix);

/* The debug information of one ELF file. */
struct lc_program_dbg;

/* Open the DWARF debug information of the ELF file at path.  NULL when
 * the file cannot be read or has none. */
struct lc_program_dbg *lc_program_dbg_open(const char *path);

/* The source line of link-time address addr: its file (as the compiler
 * named it) into file[flen], its line into *line, and the name of the
 * innermost function (or inlined function) holding it into func[fnlen] (""
 * when unknown).  Returns 0, or -ENOENT when the debug information does not
 * know the address. */
int lc_program_srcline(struct lc_program_dbg *d, uint64_t addr, char *file, size_t flen,
		       int *line, char *func, size_t fnlen);

/* Close d; accepts NULL. */
void lc_program_dbg_close(struct lc_program_dbg *d);

#endif /* LC_PROGRAM_H */
