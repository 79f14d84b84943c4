/* placeholder, replaced by the implementation */
#include "lostcycles.h"
