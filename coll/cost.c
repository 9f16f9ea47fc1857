/* The measured cost of a process's latest collective call: the sums over the
 * records of its rounds (bsp_coll.h, bsp_coll_last_cost). The first process
 * of each MPI rank (pid 0 on one machine), which keeps the log, notes where
 * the call's records start and end in it (frame.c); here the log is
 * completed (its last record's receive side is reduced lazily, with the next
 * exchange: router.h), that process sums, and its rank's processes read the
 * sums (bspram__bsp_bsplib_publish).
 */
#include <string.h>

#include "coll/coll_internal.h"
#include "router/router.h"

/* The 8-byte destination word of a put (bsp.h, "Message sizes"): a round's
 * largest data is its record's largest message less this. */
#define PUT_WORD (bsplib_put_len(0))

/* The lead: the sums over the latest call's records. */
static void sum_records(bsplib_proc *lead, void *buf, void *arg)
{
    (void)arg;
    const bspram_log *log = bspram__router_log(lead->router);
    const coll_state *cs = coll_state_of(lead);
    bsp_coll_cost t = {0};
    for (size_t i = cs->log[0]; i < cs->log[1] && i < log->n; i++) {
        const bspram_record *r = &log->records[i];
        t.supersteps++;
        t.h_bytes += r->h_bytes;
        t.charge += r->charge;
        t.messages += r->messages;
        t.bytes += r->bytes;
        t.max_q = r->q > t.max_q ? r->q : t.max_q;
        t.max_r = r->r > t.max_r ? r->r : t.max_r;
        if (r->messages) {
            t.c1++;
            t.c2 += r->max_message - PUT_WORD;
        }
    }
    memcpy(buf, &t, sizeof t);
}

bsp_coll_cost bsp_coll_last_cost(void)
{
    bsplib_proc *me = bsplib_me("bsp_coll_last_cost()");
    bsp_coll_cost t;
    bspram__bsp_bsplib_publish(me, &t, sizeof t, sum_records, NULL);
    return t;
}
