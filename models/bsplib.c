/* Pricing from inside a BSPlib program (models/model.h): keeping the
 * message pattern of the section's supersteps, and pricing them so far.
 * Both are collective: a barrier before pid 0 touches the router (every
 * process has left its last exchange) and one after (pid 0 is done). The
 * price is computed on pid 0 and read by the others from its scratch, as
 * bsp_coll_last_cost does. */
#include <string.h>

#include "bsp/bsplib_internal.h"
#include "models/model.h"
#include "bsp/machine_internal.h"
#include "router/router.h"

void bsp_model_keep_pattern(int on)
{
    bsplib_proc *me = bsplib_me("bsp_model_keep_pattern");
    bspram__bsp_bsplib_barrier(me, 0);
    if (me->pid == me->world->lo) /* over MPI ranks: refused (router.h) */
        bspram__router_keep_pattern(me->router, on != 0);
    bspram__bsp_bsplib_barrier(me, 0);
}

bspram_model_total bsp_model_price(const bspram_model *m)
{
    bsplib_proc *me = bsplib_me("bsp_model_price");
    if (!m)
        bspram__bsp_bsplib_fatal(me, "bsp_model_price(m=NULL): m must not be NULL");
    bspram__bsp_team_flush(bspram__bsp_component_team(me->self));
    bsplib_proc *lead = &me->world->procs[me->world->lo]; /* keeps the log on this rank */
    if (me == lead) {
        const bspram_log *log = bspram__router_log(me->router);
        bspram_model_total t = bspram_model_price(m, me->p, log->records, log->n,
                                                  bspram__router_pattern(me->router));
        memcpy(bspram__bsp_bsplib_scratch(me, 3, sizeof t), &t, sizeof t);
    }
    bspram__bsp_bsplib_barrier(me, 0);
    bspram_model_total t;
    memcpy(&t, lead->scratch[3], sizeof t);
    bspram__bsp_bsplib_barrier(me, 0); /* the lead writes its scratch again only after everyone read it */
    return t;
}
