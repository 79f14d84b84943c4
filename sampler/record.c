/* placeholder, replaced by the implementation */
#include "lc_cmd.h"
#include <stdio.h>
int lc_cmd_record(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "lostcycles record: not built yet\n"); return 1; }
int lc_cmd_attach(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "lostcycles attach: not built yet\n"); return 1; }
