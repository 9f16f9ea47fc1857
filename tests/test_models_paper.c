/* Saad & Schultz's formulas against our algorithms priced from their
 * records, where the algorithm is the paper's: the ring's daisy chain for
 * the all-to-all broadcast on the ring (3.28), the direct scatter on the
 * bus (3.36), the hypercube's scatter by halving (3.40), and the switch's
 * doubling all-to-all broadcast (3.35, Bruck's concatenation for P = 2^n).
 * The priced time may differ from the formula only by the 8-byte word each
 * put carries and the paper's rounding of (k − 1)/k to 1: within 10 %. */
#include <math.h>

#include <bsp.h>
#include <bsp_coll.h>

#include "bspram.h"
#include "check.h"

#define P 16
#define N 65536

static double priced[4], formula[4]; /* written by process 0 */

static double price(bspram_model_kind kind)
{
    bspram_model m = bspram_model_default(kind);
    return bsp_model_price(&m).seconds;
}

static void spmd(void)
{
    bsp_begin(P);
    static unsigned char send[N], recv[P][N];
    unsigned char *mine = recv[bsp_pid()];
    double got[4], want[4];
    bsp_model_keep_pattern(1);
    bspram_model m = bspram_model_default(BSPRAM_MODEL_RING);
    double k = P, t = m.startup, x = N * m.per_byte, L = log2(k);

    double before = price(BSPRAM_MODEL_RING);
    bsp_coll_allgather(NULL, send, mine, N / P, &(bsp_coll_options){.algorithm = BSP_COLL_RING});
    got[0] = price(BSPRAM_MODEL_RING) - before;
    want[0] = (k - 1) * (x / k + t); /* (3.28) */

    before = price(BSPRAM_MODEL_BUS);
    bsp_coll_scatter(NULL, send, mine, N / P, 0,
                     &(bsp_coll_options){.algorithm = BSP_COLL_DIRECT, .ports = 1});
    got[1] = price(BSPRAM_MODEL_BUS) - before;
    want[1] = k * t + x; /* (3.36) */

    before = price(BSPRAM_MODEL_HYPERCUBE);
    bsp_coll_scatter(NULL, send, mine, N / P, 0,
                     &(bsp_coll_options){.algorithm = BSP_COLL_BINOMIAL});
    got[2] = price(BSPRAM_MODEL_HYPERCUBE) - before;
    want[2] = L * t + x; /* (3.40) */

    before = price(BSPRAM_MODEL_SWITCH);
    bsp_coll_allgather(NULL, send, mine, N / P, &(bsp_coll_options){.algorithm = BSP_COLL_BRUCK});
    got[3] = price(BSPRAM_MODEL_SWITCH) - before;
    want[3] = x + L * t; /* (3.35) */
    if (bsp_pid() == 0)
        for (int i = 0; i < 4; i++)
            priced[i] = got[i], formula[i] = want[i];
    bsp_end();
}

int main(void)
{
    bsp_init(spmd, 0, NULL);
    spmd();
    for (int i = 0; i < 4; i++) {
        double ratio = priced[i] / formula[i];
        if (!(ratio > 0.9 && ratio < 1.1))
            fprintf(stderr, "case %d: priced %g s, the paper's formula %g s\n", i, priced[i],
                    formula[i]);
        CHECK(ratio > 0.9 && ratio < 1.1);
    }
    return check_report("test_models_paper");
}
