/* Classic BSPlib program: the inner product of BSPedupack (Bisseling 2020,
 * §1.4, bspinprod) — cyclic distribution, one put of the local sum to every
 * process, one sync — against the closed form Σ_{i=1..n} i² = n(n+1)(2n+1)/6.
 * Locals are declared before bsp_begin, as in BSPedupack: each process must
 * get its own. */
#include <bsp.h>
#include <stdlib.h>

#include "bsplib_check.h"

static unsigned P;
static const long N = 10007;

static void spmd(void)
{
    double *x, *partial, alpha;
    long p, s, nl, i;
    bsp_begin(P);
    p = bsp_nprocs();
    s = bsp_pid();
    nl = N / p + (s < N % p);
    x = malloc((size_t)(nl ? nl : 1) * sizeof *x);
    for (i = 0; i < nl; i++)
        x[i] = (double)(i * p + s + 1); /* x_j = j + 1 on process j mod p */
    partial = calloc((size_t)p, sizeof *partial);
    bsp_push_reg(partial, (size_t)p * sizeof *partial);
    bsp_sync();

    alpha = 0;
    for (i = 0; i < nl; i++)
        alpha += x[i] * x[i];
    for (long t = 0; t < p; t++)
        bsp_put((bsp_pid_t)t, &alpha, partial, (size_t)s * sizeof alpha, sizeof alpha);
    bsp_sync();

    alpha = 0;
    for (long t = 0; t < p; t++)
        alpha += partial[t];
    const double expect = (double)N * (N + 1) * (2 * N + 1) / 6; /* exact in double */
    SPMD_CHECK(alpha == expect);
    bsp_pop_reg(partial);
    bsp_sync();
    free(partial);
    free(x);
    bsp_end();
}

int main(int argc, char **argv)
{
    return bsplib_test_every_p(argc, argv, spmd, &P, "inner product", "test_bsplib_inprod");
}
