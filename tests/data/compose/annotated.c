/* annotated.c — input of t_compose.sh's --extract test (not compiled):
 * the structure of thesis Figure 6.4 with OpenMP pragmas, fragment tags
 * and lcm: comments. */
/* lcm: size a = 16*n^2 */
void fft2d(int n, int k)
{
	/* lcm: name: tasks */
#pragma omp parallel sections
	{
		/* lcm: name: task1 */
#pragma omp section
		{
			for (int m = 0; m < k; m++) {
				/* lcm: name: init
				   lcm: model init.model
				   lcm: output: a */
#pragma omp parallel for
				for (int r = 0; r < n; r++)
					init_row(m, r);
				/* lcm: name: rows
				 * lcm: model cffts.model
				 * lcm: input: a
				 * lcm: output: a */
				LC_FRAGMENT_BEGIN(2);
				cffts(m);
				LC_FRAGMENT_END(2);
			}
		}
		/* lcm: name: task2
		   lcm: after: task1 / k
		   lcm: p = p - p/T */
#pragma omp section
		{
			for (int m = 0; m < k; m++) {
				/* lcm: name: transpose
				   lcm: model transpose.model
				   lcm: input: a
				   lcm: output: a */
				LC_FRAGMENT_BEGIN(3);
				transpose(m, "}{");
				LC_FRAGMENT_END(3);
				/* lcm: name: cols
				   lcm: model cffts.model
				   lcm: output: a */
				LC_FRAGMENT_BEGIN(4);
				cffts(m);
				LC_FRAGMENT_END(4);
			}
		}
	}
}
