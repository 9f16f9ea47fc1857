/* bspram — the environment: the one place the library reads it.
 * (Placeholder; completed with the trace and parameter variables.) */
#ifndef BSPRAM_BASE_ENVIRONMENT_H
#define BSPRAM_BASE_ENVIRONMENT_H

#include "base/api.h"

BSPRAM_BEGIN_DECLS

typedef struct bspram_environment {
    const char *transport; /* BSPRAM_TRANSPORT: "shm" (default) or "staged" */
} bspram_environment;

bspram_environment bspram_environment_read(void);

BSPRAM_END_DECLS

#endif
