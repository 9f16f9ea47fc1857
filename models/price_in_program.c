/* Pricing from inside a BSPlib program (models/model.h): keeping the
 * message pattern of the section's supersteps, and pricing them so far.
 * Both are collective. Keeping: a barrier before the rank's lead (pid 0 on
 * one machine) touches the router (every process has left its last
 * exchange) and one after (the lead is done). Pricing: the lead prices its
 * log and publishes the price to its rank's processes
 * (bspram__bsp_bsplib_publish), as bsp_coll_last_cost does; over MPI the
 * leads first put their ranks' parts of the pattern together (the other
 * processes wait in the publication's barrier meanwhile). */
#include <string.h>

#include "bsp/bsplib_internal.h"
#include "models/model.h"
#include "router/router.h"

void bsp_model_keep_pattern(int on)
{
    bsplib_proc *me = bsplib_me("bsp_model_keep_pattern");
    bspram__bsp_bsplib_barrier(me, 0);
    if (me->pid == me->world->lo) /* over MPI: every rank's lead, for its processes */
        bspram__router_keep_pattern(me->router, on != 0);
    bspram__bsp_bsplib_barrier(me, 0);
}

typedef struct price_args {
    const bspram_model *m;
} price_args;

/* The lead: the section's records so far, priced. */
static void price_log(bsplib_proc *lead, void *buf, void *arg)
{
    const price_args *a = arg;
    bspram__router_pattern_gather(lead->router);
    const bspram_log *log = bspram__router_log(lead->router);
    bspram_model_total t = bspram_model_price(a->m, lead->p, log->records, log->n,
                                              bspram__router_pattern(lead->router));
    memcpy(buf, &t, sizeof t);
}

bspram_model_total bsp_model_price(const bspram_model *m)
{
    bsplib_proc *me = bsplib_me("bsp_model_price");
    if (!m)
        bspram__bsp_bsplib_fatal(me, "bsp_model_price(m=NULL): m must not be NULL");
    bspram_model_total t;
    price_args a = {m};
    bspram__bsp_bsplib_publish(me, &t, sizeof t, price_log, &a);
    return t;
}
