/*
 * lc_cmd.c — what every subcommand prints the same way: a layer's notes,
 * and its one-line failure.  See lc_cmd.h.
 */
#include "lc_cmd.h"

#include <err.h>
#include <string.h>

void lc_cmd_notes(const char *notes)
{
	while (*notes) {
		const char *nl = strchr(notes, '\n');
		int n = nl ? (int)(nl - notes) : (int)strlen(notes);

		warnx("%.*s", n, notes);
		notes += n + (nl != NULL);
	}
}

int lc_cmd_fail(const char *msg)
{
	warnx("%s", msg);
	return 1;
}
