/* fuzz_model — the model-file reader (lc_model_read_text), evaluating each
 * model it accepts at a point, as predict does. */
#include "lca_model.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct lc_model *m = NULL;
	double vals[16], v, h;
	char msg[256];
	int line;
	char *s = fuzz_text(data, n);

	if (!s)
		return 0;
	for (int i = 0; i < 16; i++)
		vals[i] = i + 2;
	if (!lc_model_read_text(s, &m, &line, msg, sizeof(msg))) {
		for (int c = 0; c < m->ncats; c++)
			lc_model_eval(&m->cats[c], vals, &v, &h);
		lc_model_free(m);
	}
	free(s);
	return 0;
}
