/* PLACEHOLDER: to be written (paper, section, cost formula first). */
#include "coll/coll_internal.h"

void coll_allreduce_doubling(coll_call *c, const coll_args *a)
{
    (void)a;
    coll_fail(c, "algorithm not built yet");
}

COLL_PREDICT(allreduce_doubling)
{
    (void)n, (void)b, (void)radix, (void)ports, (void)tradeoff;
    return (coll_prediction){0, 0};
}
