#include <stdlib.h>

#include "base/environment.h"

bspram_environment bspram_environment_read(void)
{
    bspram_environment e;
    e.transport = getenv("BSPRAM_TRANSPORT");
    return e;
}
