/*
 * omp_names — an unmodified OpenMP program (no lostcycles macros) whose
 * constructs report --where and --tags must name apart (tests/t_omp_names.sh):
 * a combined "parallel for" (a region and its loop on one source line)
 * with a skewed schedule(static) loop, then a region with a named critical
 * section that the threads queue for and an explicit barrier after uneven
 * work.  The lines the test looks for carry a "LINE:" comment.
 */
#include <omp.h>
#include <stdio.h>
#define LW_NAME "omp_names"
#include "layer_wl.h"

int main(void)
{
	double s = 0;

#pragma omp parallel for schedule(static) /* LINE:pfor */
	for (int i = 0; i < 8; i++)
		work(i < 4 ? 60 : 20);
#pragma omp parallel /* LINE:region */
	{
#pragma omp critical(sumup) /* LINE:critical */
		{
			work(80);
			s += 1;
		}
		if (omp_get_thread_num() == 0)	/* the others wait at the barrier */
			work(200);
#pragma omp barrier /* LINE:barrier */
	}
	printf("omp_names: %g\n", s);
	return 0;
}
