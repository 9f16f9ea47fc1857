/* bspram coll --tune's verdict on one operation at one size (coll_tune.h):
 * the measured figure of each algorithm, the ties, and a choice among the
 * tied that does not depend on which of them the machine favoured this time. */
#include <math.h>
#include <stdint.h>

#include "tools/coll_tune.h"

/* The fixed preference among tied algorithms: fewer rounds, then less data,
 * then the enum's order — all functions of (operation, p, block) alone. */
static int preferred(const coll_tune_row *row, unsigned a, unsigned b)
{
    if (row->c1[a] != row->c1[b])
        return row->c1[a] < row->c1[b];
    if (row->h[a] != row->h[b])
        return row->h[a] < row->h[b];
    return row->alg[a] < row->alg[b];
}

static void swap_algs(coll_tune_row *row, unsigned i, unsigned j)
{
    bsp_coll_algorithm a = row->alg[i];
    double t = row->seconds[i];
    uint64_t c1 = row->c1[i], h = row->h[i];
    row->alg[i] = row->alg[j];
    row->seconds[i] = row->seconds[j];
    row->c1[i] = row->c1[j];
    row->h[i] = row->h[j];
    row->alg[j] = a;
    row->seconds[j] = t;
    row->c1[j] = c1;
    row->h[j] = h;
}

void coll_tune_pick(coll_tune_row *row, const double *times, unsigned rounds)
{
    for (unsigned a = 0; a < row->n_algs; a++) {
        double least = times[(size_t)a * rounds];
        for (unsigned r = 1; r < rounds; r++)
            if (times[(size_t)a * rounds + r] < least)
                least = times[(size_t)a * rounds + r];
        row->seconds[a] = least;
    }
    /* By time (a few algorithms: selection sort, ties in time by the
     * preference), then the tied ones at the front by the preference. */
    for (unsigned a = 0; a < row->n_algs; a++)
        for (unsigned b = a + 1; b < row->n_algs; b++)
            if (row->seconds[b] < row->seconds[a] ||
                (row->seconds[b] == row->seconds[a] && preferred(row, b, a)))
                swap_algs(row, a, b);
    row->n_tied = row->n_algs ? 1 : 0;
    while (row->n_tied < row->n_algs && row->seconds[row->n_tied] <= row->seconds[0] * (1 + COLL_TUNE_TIE))
        row->n_tied++;
    for (unsigned a = 0; a < row->n_tied; a++)
        for (unsigned b = a + 1; b < row->n_tied; b++)
            if (preferred(row, b, a))
                swap_algs(row, a, b);
}

bsp_coll_algorithm coll_tune_one_for_all(const coll_tune_row *rows, size_t n_sizes)
{
    bsp_coll_algorithm best = rows[0].alg[0];
    double best_log = INFINITY;
    for (int alg = BSP_COLL_AUTO + 1; alg < COLL_TUNE_ALGS; alg++) {
        double sum = 0; /* Σ log(time / choice's time) over the sizes */
        int everywhere = n_sizes > 0;
        for (size_t s = 0; s < n_sizes && everywhere; s++) {
            const coll_tune_row *r = &rows[s];
            unsigned a = 0;
            while (a < r->n_algs && r->alg[a] != (bsp_coll_algorithm)alg)
                a++;
            everywhere = a < r->n_algs;
            if (everywhere && r->seconds[a] > 0 && r->seconds[0] > 0)
                sum += log(r->seconds[a] / r->seconds[0]);
        }
        if (everywhere && sum < best_log) {
            best_log = sum;
            best = (bsp_coll_algorithm)alg;
        }
    }
    return best;
}
