/*
 * profile.c — the category table, accounting arithmetic and the CRC-32 that
 * the profile writer and reader share.
 */
#include "lc_profile.h"
#include "profile_format.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Report order; keys are the -l and lca names, names as pp prints them.
 * The reasons say what is missing when a source was not measured; the
 * sampler copies them into a profile that lacks the source.  The colours
 * are every chart's; useful marks POP's useful computation; needed what
 * predicting T(E) cannot do without; computation the program's own work
 * (every loop over the table places it after the losses).  A row that names no source is
 * measured from the flags alone (LC_FROM_FLAGS, 0). */
static const struct lc_cat_info cat_table[LC_NKEY] = {
	[LC_CAT_LI] = { "li", "Load Imbalance", "load imbalance", .colour = "#d62728", .needed = 1 },
	[LC_CAT_IP] = { "ip", "Insuff Parallelism", "insufficient parallelism", .colour = "#ff7f0e",
			.needed = 1 },
	[LC_CAT_SL] = { "sl", "Synchronization Loss", "synchronization loss", .colour = "#9467bd",
			.needed = 1 },
	[LC_CAT_CL] = { "cl", "Communication Loss", "communication loss", .colour = "#8c564b", .needed = 1 },
	[LC_CAT_RC] = { "rc", "Resource Contention", "resource contention", LC_FROM_SCHED,
			"not measured: no run-queue data (record --sched=none, or none could be read)",
			.colour = "#e377c2" },
	[LC_CAT_ML] = { "ml", "Memory Loss", "memory loss", LC_FROM_COUNTERS,
			"not measured: no hardware stall counters (record -e; docs/counters.md)",
			.colour = "#7f7f7f", .useful = 1 },
	[LC_CAT_BL] = { "bl", "Braking Loss", "braking loss", .colour = "#bcbd22", .useful = 1 },
	[LC_CAT_WC] = { "wc", "Wasted Computation", "wasted computation", .colour = "#17becf", .useful = 1 },
	[LC_CAT_PC] = { "rt", "Remaining Time", "pure computation, remaining time", .colour = "#2ca02c",
			.useful = 1, .needed = 1, .computation = 1 },
#ifdef LC_TEST_EXTRA_CAT
	[LC_CAT_XT] = { "xt", "Extra Test Loss", "a test's extra loss", .colour = "#123456" },
#endif
	[LC_KEY_TT] = { "tt", "Total", "total time (p x wall)", LC_FROM_SUM, .colour = "#000000" },
};

/* The counter roles, by enum lc_ev_role. */
static const struct lc_ev_role_info role_table[LC_EVR_NROLES] = {
	[LC_EVR_OTHER] = { "other", "other" },
	[LC_EVR_CYCLES] = { "cycles", "cycles" },
	[LC_EVR_STALL] = { "stall", "stall cycles" },
	[LC_EVR_MISS] = { "miss", "misses" },
	[LC_EVR_INSTR] = { "instr", "instructions" },
	[LC_EVR_MISS_STALL] = { "miss-stall", "miss stall cycles" },
};

const struct lc_ev_role_info *lc_ev_role_info(uint32_t r)
{
	return &role_table[r < LC_EVR_NROLES ? r : LC_EVR_OTHER];
}

int lc_ev_role_by_key(const char *key)
{
	for (int r = 0; key && r < LC_EVR_NROLES; r++)
		if (!strcmp(role_table[r].key, key))
			return r;
	return -1;
}

/* The name of each LC_SCHED_* source that measured something. */
static const char *const sched_sources[] = {
	[LC_SCHED_SWITCH] = "context-switch records",
	[LC_SCHED_SCHEDSTAT] = "schedstat run delay",
	[LC_SCHED_REPLAY] = "replayed run-queue trace",
};

const char *lc_sched_source_name(uint32_t src)
{
	return src < sizeof(sched_sources) / sizeof(sched_sources[0]) ? sched_sources[src] : NULL;
}

/* The records of the file, field by field (profile_format.h).  F(f, w):
 * field f of struct T with width w in the file; a width that is not the
 * field's size does not compile. */
#define F_SIZE(w) ((w) == LC_PF_STR ? sizeof(char *) : (w) == LC_PF_STRS ? \
		   sizeof(char *) * LC_NCAT : (size_t)((w) & LC_PF_SIZE))
#define F(f, w) { (uint8_t)((w) + 0 * sizeof(char[sizeof(((struct T *)0)->f) == F_SIZE(w) ? 1 : -1])), \
		  (uint16_t)offsetof(struct T, f) }
#define LAYOUT(name, ...) \
	static const struct lc_pf_field name##_f[] = { __VA_ARGS__ }; \
	const struct lc_pf_layout name = { name##_f, sizeof(name##_f) / sizeof(name##_f[0]) }
#define S LC_PF_STR
#define SV LC_PF_STRS
#define V32 (LC_PF_VAR | 4)
#define V64 (LC_PF_VAR | 8)

#define T lc_prof_window
/* a window block of minor 0-2 (type 4), and a varint window's (type 12) */
LAYOUT(lc_pf_window4, F(source, 1), F(index, 4), F(start_ns, 8), F(ticks, 4), F(max_n, 4),
       F(team, 4));
LAYOUT(lc_pf_vwindow, F(source, 1), F(index, V32), F(start_ns, V64), F(len_ns, V64),
       F(ticks, V32), F(max_n, V32), F(team, V32));
#undef T

#define T lc_prof_info
LAYOUT(lc_pf_info, F(start_realtime_ns, 8), F(t0_ns, 8), F(interval_ns, 8), F(window_ns, 8),
       F(procs_option, 4), F(sampler_cpu, 4), F(sched_fifo, 4), F(unavailable, 4), F(reason, SV),
       F(hostname, S), F(command, S), F(session, S));
LAYOUT(lc_pf_info_grow, F(window_grow, 4));	/* minor 3 */
#undef T
#define T lc_prof_process
LAYOUT(lc_pf_process, F(pid, 4), F(attach_ns, 8), F(comm, S));
#undef T
#define T lc_prof_thread
LAYOUT(lc_pf_thread, F(idx, 4), F(pid, 4), F(tid, 4), F(slot, 4), F(first_ns, 8));
#undef T
#define T lc_prof_rank
LAYOUT(lc_pf_rank, F(pid, 4), F(rank, 4), F(size, 4), F(flags, 4), F(clock_offset_ns, 8),
       F(job_id, 8), F(host, S));
#undef T
#define T lc_prof_machine
LAYOUT(lc_pf_machine, F(start_ns, 8), F(len_ns, 8), F(ncpus, 4), F(flags, 4), F(total_ns, 8),
       F(program_ns, 8), F(sampler_ns, 8), F(other_ns, 8), F(steal_ns, 8));
#undef T
#define T lc_prof_module
LAYOUT(lc_pf_module, F(pid, 4), F(hash, 4), F(path, S), F(build_id, S), F(size, 8),
       F(mtime_ns, 8));
LAYOUT(lc_pf_module_bias, F(based, 1), F(bias, 8));	/* minor 5 */
#undef T
#define T lc_prof_wasted
LAYOUT(lc_pf_wasted, F(source, 1), F(window, 4), F(thread, 4), F(ns, 8), F(task, 8));
LAYOUT(lc_pf_move, F(source, 1), F(window, 4), F(thread, 4), F(from, 1), F(to, 1), F(ns, 8));
#undef T
#define T lc_prof_counts
LAYOUT(lc_pf_counts, F(source, 1), F(window, 4), F(thread, 4));
#undef T
#define T lc_prof_sync
LAYOUT(lc_pf_sync_row, F(pid, 4), F(obj, 8), F(ns, 8), F(name, S));
#undef T
#define T lc_prof_event
LAYOUT(lc_pf_event_row, F(role, 4), F(name, S));
#undef T
#define T lc_prof_place_name
LAYOUT(lc_pf_place_name_row, F(kind, 1), F(what, 1), F(name, S));
#undef T
#define T lc_prof_end
LAYOUT(lc_pf_end, F(end_ns, 8), F(procs, 4), F(procs_from, 4), F(exit_status, 4), F(ticks, 4),
       F(max_gap_ns, 8), F(wasted_lost, 8), F(bad_reads, 8), F(reason, S));
LAYOUT(lc_pf_end_ext, F(sampler_cpu_ns, 8), F(max_gap_at_ns, 8), F(missed_ticks, 8),
       F(sched_source, 4), F(shared_cpu, 4), F(unavailable, 4), F(reason_na, SV), F(method, SV),
       F(ncpus, 4));
LAYOUT(lc_pf_end_p, F(max_threads, 4), F(max_runnable, 4), F(affinity_cpus, 4));
LAYOUT(lc_pf_end_rule, F(rule, 4), F(interval_min_ns, 8), F(interval_max_ns, 8),
       F(mean_interval_ns, 8), F(goal_ppm, 4), F(budget_ppm, 4), F(goal_at_ns, 8),
       F(thread_cpu_ns, 8));
LAYOUT(lc_pf_end_fds, F(untracked, 4), F(fd_flags, 4));
LAYOUT(lc_pf_end_limits, F(unslotted, 4), F(unslotted_seen, 4), F(unslotted_cpu_ns, 8),
       F(tags_cap, 4), F(tags_over, 8));
#undef T
#undef S
#undef SV
#undef V32
#undef V64
#undef LAYOUT
#undef F
#undef F_SIZE

/* CRC-32 table for the reflected polynomial 0xEDB88320. */
static const uint32_t crc_table[256] = {
	0x00000000, 0x77073096, 0xee0e612c, 0x990951ba,
	0x076dc419, 0x706af48f, 0xe963a535, 0x9e6495a3,
	0x0edb8832, 0x79dcb8a4, 0xe0d5e91e, 0x97d2d988,
	0x09b64c2b, 0x7eb17cbd, 0xe7b82d07, 0x90bf1d91,
	0x1db71064, 0x6ab020f2, 0xf3b97148, 0x84be41de,
	0x1adad47d, 0x6ddde4eb, 0xf4d4b551, 0x83d385c7,
	0x136c9856, 0x646ba8c0, 0xfd62f97a, 0x8a65c9ec,
	0x14015c4f, 0x63066cd9, 0xfa0f3d63, 0x8d080df5,
	0x3b6e20c8, 0x4c69105e, 0xd56041e4, 0xa2677172,
	0x3c03e4d1, 0x4b04d447, 0xd20d85fd, 0xa50ab56b,
	0x35b5a8fa, 0x42b2986c, 0xdbbbc9d6, 0xacbcf940,
	0x32d86ce3, 0x45df5c75, 0xdcd60dcf, 0xabd13d59,
	0x26d930ac, 0x51de003a, 0xc8d75180, 0xbfd06116,
	0x21b4f4b5, 0x56b3c423, 0xcfba9599, 0xb8bda50f,
	0x2802b89e, 0x5f058808, 0xc60cd9b2, 0xb10be924,
	0x2f6f7c87, 0x58684c11, 0xc1611dab, 0xb6662d3d,
	0x76dc4190, 0x01db7106, 0x98d220bc, 0xefd5102a,
	0x71b18589, 0x06b6b51f, 0x9fbfe4a5, 0xe8b8d433,
	0x7807c9a2, 0x0f00f934, 0x9609a88e, 0xe10e9818,
	0x7f6a0dbb, 0x086d3d2d, 0x91646c97, 0xe6635c01,
	0x6b6b51f4, 0x1c6c6162, 0x856530d8, 0xf262004e,
	0x6c0695ed, 0x1b01a57b, 0x8208f4c1, 0xf50fc457,
	0x65b0d9c6, 0x12b7e950, 0x8bbeb8ea, 0xfcb9887c,
	0x62dd1ddf, 0x15da2d49, 0x8cd37cf3, 0xfbd44c65,
	0x4db26158, 0x3ab551ce, 0xa3bc0074, 0xd4bb30e2,
	0x4adfa541, 0x3dd895d7, 0xa4d1c46d, 0xd3d6f4fb,
	0x4369e96a, 0x346ed9fc, 0xad678846, 0xda60b8d0,
	0x44042d73, 0x33031de5, 0xaa0a4c5f, 0xdd0d7cc9,
	0x5005713c, 0x270241aa, 0xbe0b1010, 0xc90c2086,
	0x5768b525, 0x206f85b3, 0xb966d409, 0xce61e49f,
	0x5edef90e, 0x29d9c998, 0xb0d09822, 0xc7d7a8b4,
	0x59b33d17, 0x2eb40d81, 0xb7bd5c3b, 0xc0ba6cad,
	0xedb88320, 0x9abfb3b6, 0x03b6e20c, 0x74b1d29a,
	0xead54739, 0x9dd277af, 0x04db2615, 0x73dc1683,
	0xe3630b12, 0x94643b84, 0x0d6d6a3e, 0x7a6a5aa8,
	0xe40ecf0b, 0x9309ff9d, 0x0a00ae27, 0x7d079eb1,
	0xf00f9344, 0x8708a3d2, 0x1e01f268, 0x6906c2fe,
	0xf762575d, 0x806567cb, 0x196c3671, 0x6e6b06e7,
	0xfed41b76, 0x89d32be0, 0x10da7a5a, 0x67dd4acc,
	0xf9b9df6f, 0x8ebeeff9, 0x17b7be43, 0x60b08ed5,
	0xd6d6a3e8, 0xa1d1937e, 0x38d8c2c4, 0x4fdff252,
	0xd1bb67f1, 0xa6bc5767, 0x3fb506dd, 0x48b2364b,
	0xd80d2bda, 0xaf0a1b4c, 0x36034af6, 0x41047a60,
	0xdf60efc3, 0xa867df55, 0x316e8eef, 0x4669be79,
	0xcb61b38c, 0xbc66831a, 0x256fd2a0, 0x5268e236,
	0xcc0c7795, 0xbb0b4703, 0x220216b9, 0x5505262f,
	0xc5ba3bbe, 0xb2bd0b28, 0x2bb45a92, 0x5cb36a04,
	0xc2d7ffa7, 0xb5d0cf31, 0x2cd99e8b, 0x5bdeae1d,
	0x9b64c2b0, 0xec63f226, 0x756aa39c, 0x026d930a,
	0x9c0906a9, 0xeb0e363f, 0x72076785, 0x05005713,
	0x95bf4a82, 0xe2b87a14, 0x7bb12bae, 0x0cb61b38,
	0x92d28e9b, 0xe5d5be0d, 0x7cdcefb7, 0x0bdbdf21,
	0x86d3d2d4, 0xf1d4e242, 0x68ddb3f8, 0x1fda836e,
	0x81be16cd, 0xf6b9265b, 0x6fb077e1, 0x18b74777,
	0x88085ae6, 0xff0f6a70, 0x66063bca, 0x11010b5c,
	0x8f659eff, 0xf862ae69, 0x616bffd3, 0x166ccf45,
	0xa00ae278, 0xd70dd2ee, 0x4e048354, 0x3903b3c2,
	0xa7672661, 0xd06016f7, 0x4969474d, 0x3e6e77db,
	0xaed16a4a, 0xd9d65adc, 0x40df0b66, 0x37d83bf0,
	0xa9bcae53, 0xdebb9ec5, 0x47b2cf7f, 0x30b5ffe9,
	0xbdbdf21c, 0xcabac28a, 0x53b39330, 0x24b4a3a6,
	0xbad03605, 0xcdd70693, 0x54de5729, 0x23d967bf,
	0xb3667a2e, 0xc4614ab8, 0x5d681b02, 0x2a6f2b94,
	0xb40bbe37, 0xc30c8ea1, 0x5a05df1b, 0x2d02ef8d,
};

/* The facts of category or key c; NULL when c is out of range. */
const struct lc_cat_info *lc_cat_info(int c)
{
	if ((unsigned)c >= LC_NKEY)
		return NULL;
	return &cat_table[c];
}

/* The lost time of cat: category c, or every category but computation. */
uint64_t lc_cat_lost(const uint64_t cat[LC_NCAT], int c)
{
	uint64_t s = 0;

	if (c >= 0 && c < LC_NCAT)
		return cat[c];
	for (int k = 0; k < LC_NCAT; k++)
		if (!cat_table[k].computation)
			s += cat[k];
	return s;
}

/* Category whose key is key, or -1 (also for "tt" and NULL). */
int lc_cat_by_key(const char *key)
{
	int c = lc_key_lookup(key);

	return c >= 0 && c < LC_NCAT && !strcmp(cat_table[c].key, key) ? c : -1;
}

/* Category or LC_KEY_TT named name ("pc" means rt), or -1. */
int lc_key_lookup(const char *name)
{
	if (!name)
		return -1;
	if (!strcmp(name, "pc"))
		return LC_CAT_PC;
	for (int c = 0; c < LC_NKEY; c++)
		if (!strcmp(cat_table[c].key, name))
			return c;
	return -1;
}

/* "li ip sl cl rc ml bl wc rt tt", from the table. */
char *lc_key_list(char *buf, size_t len)
{
	size_t at = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (int c = 0; c < LC_NKEY && at < len; c++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", c ? " " : "", cat_table[c].key);
	return buf;
}

/* Add b into a, field by field. */
void lc_acct_add(struct lc_acct *a, const struct lc_acct *b)
{
	lc_cat_add(a->cat, b->cat);
	a->li_qempty += b->li_qempty;
	a->t_we += b->t_we;
	a->n_we += b->n_we;
	a->t_nwe += b->t_nwe;
	a->n_nwe += b->n_nwe;
}

/* Wall time covered by a. */
uint64_t lc_acct_wall(const struct lc_acct *a)
{
	return a->t_we + a->t_nwe;
}

/* p*t - n, or 0 when more threads than slots were live. */
static uint64_t empty_slots(uint32_t p, uint64_t t, uint64_t n)
{
	uint64_t slots = (uint64_t)p * t;

	return slots > n ? slots - n : 0;
}

/* out = cat[] plus the empty slots: LI while work existed, IP otherwise. */
void lc_acct_finish(const struct lc_acct *a, uint32_t p, uint64_t out[LC_NCAT])
{
	memcpy(out, a->cat, sizeof(a->cat));
	out[LC_CAT_LI] += empty_slots(p, a->t_we, a->n_we);
	out[LC_CAT_IP] += empty_slots(p, a->t_nwe, a->n_nwe);
}

/* The categories of a for the profile's p. */
uint64_t lc_profile_finish(const struct lc_profile *prof, const struct lc_acct *a,
			   uint64_t out[LC_NCAT])
{
	lc_acct_finish(a, prof->procs, out);
	return lc_cat_sum(out);
}

uint64_t lc_cat_sum(const uint64_t cat[LC_NCAT])
{
	uint64_t s = 0;

	for (int c = 0; c < LC_NCAT; c++)
		s += cat[c];
	return s;
}

void lc_cat_add(uint64_t a[LC_NCAT], const uint64_t b[LC_NCAT])
{
	for (int c = 0; c < LC_NCAT; c++)
		a[c] += b[c];
}

/* Table-driven CRC-32, zlib-compatible: lc_crc32(0, "123456789", 9) is
 * 0xcbf43926. */
uint32_t lc_crc32(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	crc = ~crc;
	while (n--)
		crc = crc_table[(crc ^ *b++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
