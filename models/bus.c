/* Saad & Schultz 1986, §2 (A) the broadcast bus and (B) the shared memory.
 * A bus carries k* transfers at once, and each sender's channel one at a
 * time: the superstep takes the longer of the busiest sender's messages and
 * all messages shared by k* channels. A shared memory is written, then read,
 * through k* banks without conflict (the paper's assumption): the same
 * bound for the writes by sender, then for the reads by receiver (§3.1 (B):
 * one message costs 2(τ + m/b)). Messages to oneself use no channel.
 * Our algorithms send a copy per destination, so a broadcast is priced as
 * its messages, not as one bus broadcast. */
#include "models/model_internal.h"

double bspram__models_bus(const bspram_model *m, uint64_t p, const bspram_flow *flows, size_t n,
                 model_work *w)
{
    (void)p;
    for (size_t i = 0; i < n; i++) {
        if (flows[i].src == flows[i].dst)
            continue;
        double t = model_flow_time(m, &flows[i]);
        model_work_add(w, (uint32_t)flows[i].src, t, 0);
        if (m->kind == BSPRAM_MODEL_SHARED_MEMORY)
            model_work_add(w, (uint32_t)flows[i].dst, t, 1);
    }
    double all, most = bspram__models_work_max(w, 0, &all), k = (double)m->k_star;
    double time = most > all / k ? most : all / k;
    if (m->kind == BSPRAM_MODEL_SHARED_MEMORY) {
        double reads = bspram__models_work_max(w, 1, &all);
        time += reads > all / k ? reads : all / k;
    }
    bspram__models_work_clear(w);
    return time;
}
