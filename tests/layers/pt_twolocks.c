/*
 * pt_twolocks — tests/workloads/twolocks.c without any flag: built with
 * LC_DISABLE (the flag macros compile to nothing, no flag library is
 * linked) and run without "macros", for "record --pthread" to tell which
 * lock costs the most.  Prints what twolocks prints.
 */
#define LC_DISABLE
#include "../workloads/twolocks.c"
