/*
 * module.h — the modules of place words: which object file the module
 * field of a place word names in its process, and that file's path, build
 * id, size, mtime and load bias (the module block of docs/format.md).
 *
 * Threads.  The sampling thread notes the (pid, module) pairs of the place
 * words it meets (lc_modres_note: no lock, no allocation, no file, a few
 * probes of a table; a new pair wakes the resolver, at most
 * LC_PLACE_MODULES_MAX times a run).  The resolver thread, started by
 * lc_modres_new, looks them up while the processes live: one read of
 * /proc/PID/maps for all the pairs of a process that wait, whatever the
 * number of its mappings, so a program with tens of thousands of file
 * mappings costs the tick loop nothing.  The writer of the profile's end (after the sampling thread's
 * last note) waits for the lookups under way and writes the modules found
 * (lc_modres_write).
 *
 * Files.  The sampler may run as root; a module's path is named by the
 * target.  So a module file is the very file the process mapped
 * (/proc/PID/map_files/START-END, /proc/PID/exe), opened with the target's
 * file-system credentials (its fsuid, fsgid and groups, in the resolver
 * thread alone), so that it opens only when the target could read it; the
 * path in the maps is opened only where map_files is not allowed (a
 * sampler that is not root), never through a symbolic link, and with the
 * same credentials.  Only a regular file up to LC_MODULE_SIZE_MAX bytes is
 * read, and a FIFO or device is never waited for (docs/security.md,
 * "Modules the sampler opens").
 */
#ifndef LC_MODULE_H
#define LC_MODULE_H

#include <stdint.h>

#include "lc_profile.h"

/* Distinct (pid, module) pairs looked up in a run; more are not. */
#define LC_PLACE_MODULES_MAX 256u

/* The largest module file whose size, mtime and build id are recorded. */
#define LC_MODULE_SIZE_MAX (16ull << 30)

/* The module field of place word w (0 the main program), or -1 for a kind
 * without one, an unknown module or an unknown address. */
int32_t lc_module_of_place(uint64_t w);

struct lc_modres;

/* A resolver and its thread (when no thread starts, lc_modres_write looks
 * the modules up itself); NULL on ENOMEM. */
struct lc_modres *lc_modres_new(void);

/* Stop the thread and free r; accepts NULL. */
void lc_modres_free(struct lc_modres *r);

/* Note the module of place word w of process pid (sampling thread only):
 * the first time a pair is met, it is queued for the resolver; nothing
 * for a word without a module or beyond LC_PLACE_MODULES_MAX pairs. */
void lc_modres_note(struct lc_modres *r, int32_t pid, uint64_t w);

/* Wait up to wait_ns for the lookups under way, then write a module block
 * for every module found.  0 or -errno. */
int lc_modres_write(struct lc_modres *r, struct lc_pwriter *w, uint64_t wait_ns);

/* Look up one module now: m's pid and hash set, fills path, build_id (hex,
 * or NULL), size, mtime_ns and the bias.  0, -ENOENT when no mapped object
 * hashes to it, -EACCES when the process could not read the file, another
 * -errno (-EINVAL: not a regular file, or too large).  The strings are
 * m's to free. */
int lc_module_find(struct lc_prof_module *m);

#endif /* LC_MODULE_H */
