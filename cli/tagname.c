/*
 * tagname.c — names for the OpenMP tool's fragment tags (see tagname.h):
 * find the program from the profile's command line, ask addr2line for the
 * source lines of all its tags in one run, fall back to raw names.
 */
#include "tagname.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lc_abi.h"
#include "program.h"

#define OUT_MAX (1u << 20)	/* most addr2line output read */

extern char **environ;

struct entry {
	int64_t tag;
	char *name;		/* NULL: no name */
};

struct lc_tagnames {
	uint32_t n;
	struct entry *e;
};

/* The program's word of a command line: the first word, or for "env" the
 * first word after its options and VAR=VALUE assignments.  Copies it into
 * out; returns 0, or -1 when there is none. */
static int program_word(const char *command, char *out, size_t len)
{
	char buf[PATH_MAX * 2], *save = NULL, *w;
	int env = 0, skip = 0;

	snprintf(buf, sizeof(buf), "%s", command);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *base = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;

		if (skip) {
			skip = 0;
			continue;
		}
		if (!env && !strcmp(base, "env")) {
			env = 1;
			continue;
		}
		if (env && (w[0] == '-' || strchr(w, '='))) {
			skip = !strcmp(w, "-u") || !strcmp(w, "--unset") || !strcmp(w, "-C");
			continue;
		}
		snprintf(out, len, "%s", w);
		return 0;
	}
	return -1;
}

/* The raw name of OpenMP tag t. */
static char *raw_name(int64_t t)
{
	char buf[64];

	if (LC_TAG_MODULE(t) == LC_TAG_MODULE_MAIN)
		snprintf(buf, sizeof(buf), "omp:main+0x%" PRIx64, LC_TAG_VADDR(t));
	else
		snprintf(buf, sizeof(buf), "omp:%04" PRIx32 "+0x%" PRIx64, LC_TAG_MODULE(t),
			 LC_TAG_VADDR(t));
	return strdup(buf);
}

/* Run argv with its stdout into a new buffer of at most OUT_MAX bytes
 * (NUL-terminated, *out; free it), stderr to /dev/null.  Returns 0 when
 * the program ran and exited 0, else -1. */
static int run_capture(char *const argv[], char **out)
{
	posix_spawn_file_actions_t fa;
	size_t n = 0;
	ssize_t r;
	int pfd[2], st = -1, ok = -1;
	pid_t pid;

	*out = calloc(1, OUT_MAX + 1);
	if (!*out || pipe2(pfd, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) == 0)
		ok = 0;
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	while (ok == 0 && n < OUT_MAX && (r = read(pfd[0], *out + n, OUT_MAX - n)) > 0)
		n += (size_t)r;
	close(pfd[0]);
	if (ok == 0 && (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)))
		ok = -1;
	return ok;
}

/* "file.c:LINE (function)" from addr2line's two lines, or NULL when it
 * knows nothing.  The file is shown by its base name; compiler-made
 * functions (".omp_outlined...") are left out. */
static char *pretty(const char *func, char *fileline)
{
	char *sp = strchr(fileline, ' '), *colon, *base, buf[PATH_MAX + 300];

	if (sp)
		*sp = 0;	/* " (discriminator N)" */
	colon = strrchr(fileline, ':');
	if (!colon || !strncmp(fileline, "??", 2) || !strcmp(colon, ":?") || !strcmp(colon, ":0"))
		return NULL;
	base = strrchr(fileline, '/') ? strrchr(fileline, '/') + 1 : fileline;
	if (func[0] && func[0] != '.' && strcmp(func, "??"))
		snprintf(buf, sizeof(buf), "%s (%s)", base, func);
	else
		snprintf(buf, sizeof(buf), "%s", base);
	return strdup(buf);
}

/* Name the main program's OpenMP tags of tn from exe's debug information
 * with one addr2line run; tags it cannot name keep their NULL name. */
static void resolve(struct lc_tagnames *tn, const char *exe)
{
	char **argv = calloc(tn->n + 5, sizeof(*argv)), *out = NULL, *line, *save = NULL;
	uint32_t *which = calloc(tn->n + 1, sizeof(*which)), na = 0, k;

	if (!argv || !which)
		goto out;
	argv[0] = "addr2line";
	argv[1] = "-f";
	argv[2] = "-e";
	argv[3] = (char *)exe;
	for (uint32_t i = 0; i < tn->n; i++) {
		int64_t t = tn->e[i].tag;

		if (LC_TAG_KIND(t) != LC_TAG_KIND(LC_TAG_OMP) || LC_TAG_VADDR(t) == 0 ||
		    LC_TAG_MODULE(t) != LC_TAG_MODULE_MAIN)
			continue;
		if (asprintf(&argv[4 + na], "0x%" PRIx64, LC_TAG_VADDR(t) - 1) < 0)
			goto out;
		which[na++] = i;
	}
	if (!na || run_capture(argv, &out))
		goto out;
	line = strtok_r(out, "\n", &save);
	for (k = 0; k < na && line; k++) {
		char *fl = strtok_r(NULL, "\n", &save);

		if (!fl)
			break;
		tn->e[which[k]].name = pretty(line, fl);
		line = strtok_r(NULL, "\n", &save);
	}
out:
	for (k = 0; argv && k < na; k++)
		free(argv[4 + k]);
	free(argv);
	free(which);
	free(out);
}

struct lc_tagnames *lc_tagnames_new(const char *command, const int64_t *tags, uint32_t n)
{
	struct lc_tagnames *tn = calloc(1, sizeof(*tn));
	char word[PATH_MAX], exe[PATH_MAX];

	if (!tn || !(tn->e = calloc(n + 1, sizeof(*tn->e)))) {
		free(tn);
		return NULL;
	}
	tn->n = n;
	for (uint32_t i = 0; i < n; i++)
		tn->e[i].tag = tags[i];
	if (command && !program_word(command, word, sizeof(word)) &&
	    !lc_program_find(word, exe, sizeof(exe)))
		resolve(tn, exe);
	for (uint32_t i = 0; i < n; i++)
		if (!tn->e[i].name && LC_TAG_KIND(tags[i]) == LC_TAG_KIND(LC_TAG_OMP))
			tn->e[i].name = raw_name(tags[i]);
	return tn;
}

const char *lc_tagnames_get(const void *arg, int64_t tag)
{
	const struct lc_tagnames *tn = arg;

	for (uint32_t i = 0; tn && i < tn->n; i++)
		if (tn->e[i].tag == tag)
			return tn->e[i].name;
	return NULL;
}

/* Nonzero when name designates full, a "file:line (function)" name: equal
 * to it, or to its part before " (". */
static int name_matches(const char *full, const char *name)
{
	const char *paren = strstr(full, " (");
	size_t n = paren ? (size_t)(paren - full) : strlen(full);

	return !strcmp(full, name) || (strlen(name) == n && !strncmp(full, name, n));
}

int lc_tagnames_find(const struct lc_tagnames *tn, const char *name, int64_t *tag)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;

	for (uint32_t i = 0; tn && i < tn->n; i++) {
		if (tn->e[i].name && name_matches(tn->e[i].name, base)) {
			*tag = tn->e[i].tag;
			return 0;
		}
	}
	return -1;
}

void lc_tagnames_free(struct lc_tagnames *tn)
{
	if (!tn)
		return;
	for (uint32_t i = 0; i < tn->n; i++)
		free(tn->e[i].name);
	free(tn->e);
	free(tn);
}
