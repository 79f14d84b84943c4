/*
 * lc_program.h — facts about a program's file, through libelf and libdw:
 * where it is on PATH, which shared libraries it needs (to warn that GCC's
 * libgomp has no OMPT interface, for one), and the source line and function
 * of an address in it (to name the OpenMP tool's fragment tags).  The file
 * is untrusted input; the libraries check every offset.  Only a regular
 * file is opened (a FIFO or device named as a module is never opened or
 * waited for), and none larger than LC_PROGRAM_MAX_SIZE.  Nothing here
 * prints.
 */
#ifndef LC_PROGRAM_H
#define LC_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

/* The largest program or library file read (4 GiB). */
#define LC_PROGRAM_MAX_SIZE (4ull << 30)

/* The file of program word w: w itself when it holds a '/', else the first
 * executable of that name on PATH.  Returns 0 with the file in path, or -1
 * when there is none. */
int lc_program_find(const char *w, char *path, size_t len);

/* The file of the program a command line runs (space-separated; its first
 * word, or for "env" the first word after its options and assignments),
 * found as lc_program_find does.  Returns 0, or -1 (command NULL too). */
int lc_program_of_command(const char *command, char *path, size_t len);

/* Whether the ELF file at path names a shared library starting with prefix
 * (e.g. "libgomp.so") among its DT_NEEDED entries: 1 yes, 0 no, -1 when
 * path is not a readable ELF file with a dynamic section. */
int lc_program_needs(const char *path, const char *prefix);

/* The layer that would profile the ELF file at path, from the runtime it
 * links (DT_NEEDED): "omp" (LLVM's or Intel's OpenMP runtime: record
 * --omp), "gomp" (GCC's libgomp, which --omp cannot see), "mpi" (an MPI
 * library: --mpi), or NULL (none of them, or not a readable ELF file). */
const char *lc_program_layer(const char *path);

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

/* Where the code at link-time address addr was inlined: the source line of
 * the outermost inlined call holding it (the line of the function the
 * compiler emitted that called it), its file into file[flen].  Returns 0,
 * or -ENOENT when addr is not inside inlined code (or unknown). */
int lc_program_inline_site(struct lc_program_dbg *d, uint64_t addr, char *file, size_t flen,
			   int *line);

/* Close d; accepts NULL. */
void lc_program_dbg_close(struct lc_program_dbg *d);

/* The GNU build id of the ELF file at path as lower-case hex into
 * hex[len], read by lc_elf_build_id (util/lc_elf.h: which note, which
 * edge cases).  Returns 0, -ENOENT when the file has none, -ENOEXEC when
 * it is not a regular ELF file (a FIFO is not waited for), -ERANGE when
 * len is too short for it, or another -errno when it does not open. */
int lc_program_build_id(const char *path, char *hex, size_t len);

/* One symbol of an ELF file: a function (STT_FUNC, STT_GNU_IFUNC) or a data
 * object (STT_OBJECT, STT_TLS is left out), at its link-time address. */
struct lc_program_sym {
	uint64_t addr;
	uint64_t size;
	int func;		/* 1 function, 0 data object */
	char *name;
};

/* The symbols of one ELF file, sorted by address. */
struct lc_program_syms {
	int pie;		/* ET_DYN: addresses are offsets from a load base */
	int symtab;		/* 1 from .symtab, 0 from .dynsym alone (stripped) */
	size_t n;
	struct lc_program_sym *s;
};

/* Read the symbols of the ELF file at path (.symtab, else .dynsym).
 * Returns the table (n may be 0: a stripped file), or NULL when the file
 * cannot be read as ELF or memory runs out. */
struct lc_program_syms *lc_program_syms_open(const char *path);

/* The symbol holding link-time address addr among functions (func 1) or
 * data objects (func 0): the one whose [addr, addr + size) holds it, or for
 * a function of size 0 the nearest one below.  NULL when none. */
const struct lc_program_sym *lc_program_sym_at(const struct lc_program_syms *t, uint64_t addr,
					       int func);

/* Free t; accepts NULL. */
void lc_program_syms_close(struct lc_program_syms *t);

/* The readable form of symbol name: a C++ name ("_Z4ddotiPKdS0_PdRd")
 * demangled into buf ("ddot(int, double const*, double const*, double*,
 * double&)") by the C++ runtime's __cxa_demangle, loaded from
 * libstdc++.so.6 when present (no link-time C++ dependency); any other
 * name as it is (C, and Fortran's "ddot_": the linker's name, the one the
 * program's sources and other tools show).  Returns buf or name; NULL
 * name gives "".  *mangled, when not NULL, is set to 1 when name is a C++
 * name that stayed mangled (no C++ runtime, or a name it refused). */
const char *lc_program_demangle(const char *name, char *buf, size_t len, int *mangled);

#endif /* LC_PROGRAM_H */
