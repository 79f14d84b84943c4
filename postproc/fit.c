/* placeholder, replaced by the implementation */
#include "lc_cmd.h"
#include <stdio.h>
int lc_cmd_fit(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "lostcycles fit: not built yet\n"); return 1; }
