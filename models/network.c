/* Saad & Schultz 1986, §2 (C) the ring, (D) the 2-D torus with wraparound
 * and (E) the hypercube: nearest-neighbour machines on which a message to a
 * non-neighbour is forwarded, store and forward, one τ + m/b per hop
 * (§3.1's naive scheme), every link of a node usable at once. A superstep
 * costs its congestion or its dilation, whichever is larger: the busiest
 * directed link's Σ (τ + m/b) over the messages routed across it, and the
 * longest message's hops·(τ + m/b). Routes: the ring's shorter way (ties:
 * increasing pid); the torus along the row, then the column, each the
 * shorter way (ties: increasing index); the hypercube's dimension order,
 * lowest differing bit first (§3.1 (E): a path of Hamming-distance length). */
#include "models/model_internal.h"

/* The torus's rows: the largest divisor of p not above √p. */
static uint64_t torus_rows(uint64_t p)
{
    uint64_t r = 1;
    for (uint64_t d = 1; d * d <= p; d++)
        if (p % d == 0)
            r = d;
    return r;
}

static unsigned cube_dims(uint64_t p)
{
    unsigned n = 0;
    while ((UINT64_C(1) << n) < p)
        n++;
    return n;
}

size_t bspram__models_network_links(const bspram_model *m, uint64_t p)
{
    switch (m->kind) {
    case BSPRAM_MODEL_RING: return (size_t)(2 * p);
    case BSPRAM_MODEL_TORUS: return (size_t)(4 * p);
    default: return (size_t)(p * (cube_dims(p) ? cube_dims(p) : 1));
    }
}

/* Hops along a ring of `size` from a to b: the direction (0: increasing,
 * 1: decreasing) and the count. */
static uint64_t ring_hops(uint64_t a, uint64_t b, uint64_t size, int *down)
{
    uint64_t up = (b + size - a) % size;
    *down = up > size - up;
    return *down ? size - up : up;
}

double bspram__models_network(const bspram_model *m, uint64_t p, const bspram_flow *flows, size_t n,
                     model_work *w, unsigned *flags)
{
    unsigned dims = cube_dims(p);
    if (m->kind == BSPRAM_MODEL_HYPERCUBE && (UINT64_C(1) << dims) != p) {
        *flags |= BSPRAM_MODEL_NOT_APPLICABLE;
        return 0;
    }
    uint64_t rows = torus_rows(p), cols = p / rows;
    double dilation = 0;
    for (size_t i = 0; i < n; i++) {
        const bspram_flow *f = &flows[i];
        if (f->src == f->dst)
            continue;
        double t = model_flow_time(m, f);
        uint64_t hops = 0, at = f->src;
        if (m->kind == BSPRAM_MODEL_RING) {
            int down;
            hops = ring_hops(f->src, f->dst, p, &down);
            for (uint64_t h = 0; h < hops; h++) {
                model_work_add(w, (uint32_t)(2 * at + (unsigned)down), t, 0);
                at = down ? (at + p - 1) % p : (at + 1) % p;
            }
        } else if (m->kind == BSPRAM_MODEL_TORUS) {
            uint64_t row = at / cols, col = at % cols, to_row = f->dst / cols,
                     to_col = f->dst % cols;
            int down;
            uint64_t k = ring_hops(col, to_col, cols, &down); /* along the row */
            for (uint64_t h = 0; h < k; h++, hops++) {
                model_work_add(w, (uint32_t)(4 * (row * cols + col) + (unsigned)down), t, 0);
                col = down ? (col + cols - 1) % cols : (col + 1) % cols;
            }
            k = ring_hops(row, to_row, rows, &down); /* then the column */
            for (uint64_t h = 0; h < k; h++, hops++) {
                model_work_add(w, (uint32_t)(4 * (row * cols + col) + 2 + (unsigned)down), t, 0);
                row = down ? (row + rows - 1) % rows : (row + 1) % rows;
            }
        } else { /* hypercube */
            uint64_t diff = f->src ^ f->dst;
            for (unsigned b = 0; b < dims; b++)
                if (diff >> b & 1) {
                    model_work_add(w, (uint32_t)(at * dims + b), t, 0);
                    at ^= UINT64_C(1) << b;
                    hops++;
                }
        }
        double d = (double)hops * (m->startup + m->per_byte * (double)f->largest);
        if (d > dilation)
            dilation = d;
    }
    double congestion = bspram__models_work_max(w, 0, NULL);
    bspram__models_work_clear(w);
    return congestion > dilation ? congestion : dilation;
}
