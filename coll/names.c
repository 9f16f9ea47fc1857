/* The names of the operations and algorithms (bsp_coll.h), for the
 * `bspram coll` command and error lines. */
#include <string.h>

#include "base/error.h"
#include "coll/coll_internal.h"

static const char *const OPS[] = {"broadcast", "scatter", "gather", "allgather",
                                  "alltoall", "reduce", "allreduce", "scan"};
static const char *const ALGS[] = {"auto", "bruck", "direct", "ring",
                                   "binomial", "scatter-allgather", "doubling", "dissemination",
                                   "exchange", "rabenseifner"};

const char *bsp_coll_op_name(bsp_coll_op op)
{
    return (unsigned)op < sizeof OPS / sizeof *OPS ? OPS[op] : "unknown";
}

const char *bsp_coll_algorithm_name(bsp_coll_algorithm a)
{
    return (unsigned)a < sizeof ALGS / sizeof *ALGS ? ALGS[a] : "unknown";
}

int bsp_coll_op_parse(const char *name)
{
    BSPRAM_NONNULL(name);
    for (unsigned i = 0; i < sizeof OPS / sizeof *OPS; i++)
        if (strcmp(name, OPS[i]) == 0)
            return (int)i;
    return -1;
}

int bsp_coll_algorithm_parse(const char *name)
{
    BSPRAM_NONNULL(name);
    for (unsigned i = 0; i < sizeof ALGS / sizeof *ALGS; i++)
        if (strcmp(name, ALGS[i]) == 0)
            return (int)i;
    return -1;
}
