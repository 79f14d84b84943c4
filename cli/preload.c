/*
 * preload.c — the caller's LD_PRELOAD is for the program, not the tool: a
 * library preloaded into lostcycles itself would run in the sampler's
 * process (and, were it a lostcycles layer, make the tool a process of the
 * session it profiles).  lc_preload_strip() runs the tool again without
 * it, and then puts the value back into the environment, where only the
 * commands the tool starts see it.
 */
#include <stdlib.h>
#include <unistd.h>

#include "lc_cmd.h"

#define LC_ENV_CALLER_PRELOAD "LOSTCYCLES_CALLER_PRELOAD"

void lc_preload_strip(char **argv)
{
	const char *v = getenv("LD_PRELOAD"), *kept = getenv(LC_ENV_CALLER_PRELOAD);

	if (kept) {		/* the second start: the value back for the command */
		setenv("LD_PRELOAD", kept, 1);
		unsetenv(LC_ENV_CALLER_PRELOAD);
		return;
	}
	if (!v || !*v || setenv(LC_ENV_CALLER_PRELOAD, v, 1))
		return;
	unsetenv("LD_PRELOAD");
	execv("/proc/self/exe", argv);
	/* no /proc: go on as we are */
	setenv("LD_PRELOAD", getenv(LC_ENV_CALLER_PRELOAD), 1);
	unsetenv(LC_ENV_CALLER_PRELOAD);
}
