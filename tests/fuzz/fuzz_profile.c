/* fuzz_profile — the profile reader (lc_profile_parse) on any bytes: the
 * checks of fuzz_profile.h.  Random bytes rarely pass a block's CRC;
 * fuzz_profile_blocks mutates inside blocks and repairs it. */
#include "fuzz_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	fuzz_profile_check(data, n);
	return 0;
}
