/* The cost models' shared parts (not installed): a workspace reused across
 * the supersteps of a log, and one pricing function per family. */
#ifndef BSPRAM_MODELS_MODEL_INTERNAL_H
#define BSPRAM_MODELS_MODEL_INTERNAL_H

#include "models/model.h"

/* Per-link (or per-component) sums, reset after each superstep through the
 * list of entries touched. */
typedef struct model_work {
    double *sum;        /* [size] */
    double *sum2;       /* [size]: a second array (shared memory's reads) */
    unsigned char *mark; /* [size]: entry is in touched */
    uint32_t *touched;   /* entries of sum / sum2 written since the last clear */
    size_t n_touched, size;
} model_work;

void bspram__models_work_init(model_work *w, size_t size);
void bspram__models_work_free(model_work *w);
/* w->sum[i] += x (recording i when it becomes touched). */
static inline void model_work_add(model_work *w, uint32_t i, double x, int second)
{
    if (!w->mark[i]) {
        w->mark[i] = 1;
        w->touched[w->n_touched++] = i;
    }
    (second ? w->sum2 : w->sum)[i] += x;
}
/* The largest entry of sum (or sum2) and their total. */
double bspram__models_work_max(model_work *w, int second, double *total);
void bspram__models_work_clear(model_work *w);

/* One message of m bytes on one channel: startup + per_byte·m; a flow's. */
static inline double model_flow_time(const bspram_model *m, const bspram_flow *f)
{
    return (double)f->messages * m->startup + (double)f->bytes * m->per_byte;
}

/* bus.c: BUS and SHARED_MEMORY; network.c: RING, TORUS, HYPERCUBE. */
double bspram__models_bus(const bspram_model *m, uint64_t p, const bspram_flow *flows, size_t n,
                 model_work *w);
double bspram__models_network(const bspram_model *m, uint64_t p, const bspram_flow *flows, size_t n,
                     model_work *w, unsigned *flags);
/* Links (network) or components (bus) a model's workspace needs. */
size_t bspram__models_network_links(const bspram_model *m, uint64_t p);

#endif
