/* The classic first BSPlib program (Bisseling, Parallel Scientific
 * Computation, §1.4): the inner product of two distributed vectors, as any
 * BSPlib implementation runs it — built here against bspram unchanged, and
 * against libbspram-mpi for MPI ranks. As on any distributed-memory BSPlib,
 * main's variables set after bsp_init are pid 0's alone: pid 0 sends n to
 * the others in the first superstep (each process has its own n, on the
 * stack, so that on one machine no two threads share it).
 *
 *   inprod [P] [n]        BSPRAM_TRACE=t.csv shows its supersteps
 *   mpirun -np 4 ./inprod 8 1000  (built with -lbspram-mpi)
 */
#include <bsp.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned P;
static long n_main; /* set by main: pid 0's */

static void spmd(void)
{
    bsp_begin(P);
    unsigned p = bsp_nprocs(), s = bsp_pid();
    long n = s == 0 ? n_main : 0; /* only pid 0 reads main's variable */
    bsp_push_reg(&n, sizeof n);
    bsp_sync();
    if (s == 0)
        for (unsigned t = 1; t < p; t++)
            bsp_put(t, &n, &n, 0, sizeof n);
    bsp_sync();
    bsp_pop_reg(&n);
    long lo = n * s / p, hi = n * (s + 1) / p;   /* block distribution */
    /* Integers, so that the result is exact and can be checked (Σ i² < 2^64). */
    uint64_t *partial = calloc(p, sizeof *partial), sum = 0;
    bsp_push_reg(partial, p * sizeof *partial);
    bsp_sync();
    for (long i = lo; i < hi; i++)               /* x_i = y_i = i + 1 */
        sum += (uint64_t)(i + 1) * (uint64_t)(i + 1);
    for (unsigned t = 0; t < p; t++)             /* everyone gets every partial sum */
        bsp_put(t, &sum, partial, s * sizeof sum, sizeof sum);
    bsp_sync();
    uint64_t alpha = 0;
    for (unsigned t = 0; t < p; t++)
        alpha += partial[t];
    uint64_t expect = (uint64_t)n * (uint64_t)(n + 1) / 2 * (uint64_t)(2 * n + 1) / 3; /* Σ i² */
    if (s == 0)
        printf("P = %u, n = %ld: inner product %" PRIu64 " (expected %" PRIu64 ") in %.6f s\n", p,
               n, alpha, expect, bsp_time());
    if (alpha != expect)
        bsp_abort("pid %u: inner product %" PRIu64 ", expected %" PRIu64 "\n", s, alpha, expect);
    bsp_pop_reg(partial);
    bsp_sync();
    free(partial);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    P = argc > 1 ? (unsigned)atoi(argv[1]) : bsp_nprocs();
    n_main = argc > 2 ? atol(argv[2]) : 1000000;
    if (n_main < 1 || n_main > 2000000) {
        fprintf(stderr, "inprod: n must be in [1, 2000000] (so that the sum fits 64 bits)\n");
        return 2;
    }
    spmd();
    return 0;
}
