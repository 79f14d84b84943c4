/* placeholder, replaced by the implementation */
#include "lc_cmd.h"
#include <stdio.h>
int lc_cmd_report(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "lostcycles report: not built yet\n"); return 1; }
