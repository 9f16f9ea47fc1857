/* The EREW scan of the PRAM examples: Blelloch's up-sweep and down-sweep
 * (G. E. Blelloch, "Prefix sums and their applications", CMU-CS-90-190,
 * 1990), written once for the two examples that run it — pram_prefix_sums
 * (the scan is the example) and pram_sort (the buckets' offsets). Header
 * only, like the frame (example.h): each example stays one file that builds
 * alone against the installed package.
 *
 *   up-sweep, d = 0 .. log2(m)−1, h = 2^d:   for all i < m/2h in parallel
 *       X[2h·i + 2h − 1] ← X[2h·i + h − 1] + X[2h·i + 2h − 1]
 *   root:       SUM ← X[m−1];  X[m−1] ← 0
 *   down-sweep, d = log2(m)−1 .. 0:          for all i < m/2h in parallel
 *       (X[2h·i + h − 1], X[2h·i + 2h − 1]) ← (X[2h·i + 2h − 1], X[2h·i + h − 1] + X[2h·i + 2h − 1])
 *
 * Each step is one bulk read phase (two cells per VP) and one write phase,
 * in the owned forms (bspram_pram_gather_owned, bspram_pram_scatter_owned):
 * each process lays out its own VPs [lo, hi) (bspram_pram_owned) in one pair
 * of buffers (cells, values) of 2 words per VP — all n VPs on one machine,
 * its share on an MPI rank, with no answers gathered. A level's tree nodes
 * are spread evenly over the VPs (node i on VP i·stride), so every
 * component, and every rank, does its share of each level. An example includes
 * it as "pram/scan.h", after "pram/example.h".
 */
#ifndef BSPRAM_EXAMPLES_PRAM_SCAN_H
#define BSPRAM_EXAMPLES_PRAM_SCAN_H

#include <stdint.h>
#include <stdlib.h>

#include "example.h"

/* One sweep step: tree node i < active is done by VP i·stride (stride =
 * VPs / active, so the busy VPs are spread evenly over the components and,
 * over MPI, the ranks — with VP i, the low components would do every step
 * and their rank hold every message); it reads cells (left_i, right_i) of
 * a, then writes (left, right) ← down ? (R, L + R) : (L, L + R) — in the
 * up-sweep only the right cell is written. c and v hold 2 words per VP of
 * [lo, hi): the read's cells and answers, then in place the write's cells
 * and values (one pair of buffers for both phases); the entries of idle VPs
 * are NONE (no access) on entry and on return. */
static inline void pram_scan_sweep_step(bspram_pram *P, bspram_pram_array a, uint64_t h, uint64_t active,
                                        int down, uint64_t lo, uint64_t hi, uint64_t *c, uint64_t *v)
{
    const uint64_t stride = bspram_pram_n(P) / active;
    const uint64_t i0 = (lo + stride - 1) / stride, i1 = (hi + stride - 1) / stride;
    const uint64_t end = i1 < active ? i1 : active;
    for (uint64_t i = i0; i < end; i++) {
        uint64_t j = 2 * (i * stride - lo);
        c[j] = bspram_pram_cell(P, a, 2 * h * i + h - 1);
        c[j + 1] = bspram_pram_cell(P, a, 2 * h * i + 2 * h - 1);
    }
    bspram_pram_gather_owned(P, 2, c, v);
    for (uint64_t i = i0; i < end; i++) {
        uint64_t j = 2 * (i * stride - lo), l = v[j], r = v[j + 1];
        if (!down)
            c[j] = BSPRAM_PRAM_NONE;
        v[j] = r;
        v[j + 1] = l + r;
    }
    bspram_pram_scatter_owned(P, 2, c, v);
    for (uint64_t i = i0; i < end; i++)
        c[2 * (i * stride - lo)] = c[2 * (i * stride - lo) + 1] = BSPRAM_PRAM_NONE;
}

/* The exclusive prefix sums (scan) of cells [0, m) of array a, m a power of
 * two, in place on an EREW PRAM of at least m/2 VPs (max(m/2, 1)): the
 * balanced tree's up-sweep and down-sweep, 2·log2(m) + 1 steps; the total
 * goes to cell 0 of array `total`. Two buffers of 2 words per VP held. */
static inline void pram_scan_exclusive(bspram_pram *P, bspram_pram_array a, uint64_t m,
                                       bspram_pram_array total)
{
    uint64_t lo, hi;
    bspram_pram_owned(P, &lo, &hi);
    unsigned levels = pram_example_log2(m);
    uint64_t held = hi - lo > 0 ? hi - lo : 1;
    uint64_t *c = pram_example_words(2 * held, "scan"), *v = pram_example_words(2 * held, "scan");
    for (uint64_t i = 0; i < 2 * held; i++)
        c[i] = BSPRAM_PRAM_NONE;
    for (unsigned d = 0; d < levels; d++) /* up-sweep */
        pram_scan_sweep_step(P, a, UINT64_C(1) << d, m >> (d + 1), 0, lo, hi, c, v);
    /* root: VP 0 reads X[m−1], writes it to SUM and 0 to X[m−1] */
    const int root = lo == 0 && hi > 0; /* VP 0 is this process's */
    if (root)
        c[0] = bspram_pram_cell(P, a, m - 1);
    bspram_pram_gather_owned(P, 1, c, v);
    if (root) {
        c[1] = c[0];
        c[0] = bspram_pram_cell(P, total, 0);
        v[1] = 0; /* v[0]: the value read */
    }
    bspram_pram_scatter_owned(P, 2, c, v);
    c[0] = c[1] = BSPRAM_PRAM_NONE;
    for (unsigned d = levels; d-- > 0;) /* down-sweep */
        pram_scan_sweep_step(P, a, UINT64_C(1) << d, m >> (d + 1), 1, lo, hi, c, v);
    free(c);
    free(v);
}

#endif
