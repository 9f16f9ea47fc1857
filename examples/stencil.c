/* A 1-D heat stencil whose load is not balanced: process 0 holds three
 * shares of the n cells, every other process one. Each superstep updates
 * every cell from its neighbours, u'[i] = (u[i-1] + 2 u[i] + u[i+1]) / 4,
 * declares its work (bsp_work: 4 flops a cell) and puts its two boundary
 * cells to its neighbours; the supersteps are named with bsp_label. The
 * profile shows the straggler: process 0 declares three times the work of
 * the others and computes longest in each update (docs/prof.md):
 *
 *   BSPRAM_PATTERN=1 BSPRAM_TRACE=stencil.csv ./stencil 4 200000 40
 *   bspram prof stencil.csv --html stencil.html
 *
 * Pid 0 checks the result against the same updates done sequentially.
 */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned P;
static long N, STEPS; /* set by main: pid 0's (each process reads its own copy below) */

/* The first cell of process s: process 0 holds 3 shares, the others 1. */
static long first_cell(long n, unsigned p, unsigned s)
{
    return s == 0 ? 0 : n * (long)(s + 2) / (long)(p + 2);
}

static double initial(long i) { return (double)(i % 97); }

static void spmd(void)
{
    bsp_begin(P);
    unsigned p = bsp_nprocs(), s = bsp_pid();
    long nm[2] = {s == 0 ? N : 0, s == 0 ? STEPS : 0}; /* pid 0 sends n and the steps */
    bsp_push_reg(nm, sizeof nm);
    bsp_sync();
    if (s == 0)
        for (unsigned t = 1; t < p; t++)
            bsp_put(t, nm, nm, 0, sizeof nm);
    bsp_sync();
    bsp_pop_reg(nm);
    const long n = nm[0], steps = nm[1];
    const long lo = first_cell(n, p, s), hi = first_cell(n, p, s + 1), k = hi - lo;
    /* u[0] and u[k+1] are the neighbours' boundary cells (0 beyond the ends). */
    double *u = calloc((size_t)k + 2, sizeof *u), *v = calloc((size_t)k + 2, sizeof *v);
    for (long i = 0; i < k; i++)
        u[i + 1] = initial(lo + i);
    bsp_push_reg(u, ((size_t)k + 2) * sizeof *u);
    bsp_sync();
    bsp_label("halo"); /* the first halos */
    if (s > 0)
        bsp_put(s - 1, &u[1], u, (size_t)(first_cell(n, p, s) - first_cell(n, p, s - 1) + 1) * sizeof *u,
                sizeof *u);
    if (s + 1 < p)
        bsp_put(s + 1, &u[k], u, 0, sizeof *u);
    bsp_sync();
    bsp_label("update");
    for (long t = 0; t < steps; t++) {
        for (long i = 1; i <= k; i++)
            v[i] = (u[i - 1] + 2 * u[i] + u[i + 1]) / 4;
        memcpy(&u[1], &v[1], (size_t)k * sizeof *u);
        bsp_work(4 * (uint64_t)k);
        if (s > 0)
            bsp_put(s - 1, &u[1], u,
                    (size_t)(first_cell(n, p, s) - first_cell(n, p, s - 1) + 1) * sizeof *u, sizeof *u);
        if (s + 1 < p)
            bsp_put(s + 1, &u[k], u, 0, sizeof *u);
        bsp_sync();
    }
    /* Gather the cells at pid 0 and check them against the sequential updates. */
    bsp_label("gather");
    double *all = s == 0 ? calloc((size_t)n, sizeof *all) : NULL;
    bsp_push_reg(all, s == 0 ? (size_t)n * sizeof *all : 0);
    bsp_sync();
    bsp_put(0, &u[1], all, (size_t)lo * sizeof *all, (size_t)k * sizeof *all);
    bsp_sync();
    if (s == 0) {
        double *a = calloc((size_t)n + 2, sizeof *a), *b = calloc((size_t)n + 2, sizeof *b);
        for (long i = 0; i < n; i++)
            a[i + 1] = initial(i);
        for (long t = 0; t < steps; t++) {
            for (long i = 1; i <= n; i++)
                b[i] = (a[i - 1] + 2 * a[i] + a[i + 1]) / 4;
            memcpy(&a[1], &b[1], (size_t)n * sizeof *a);
        }
        for (long i = 0; i < n; i++)
            if (all[i] != a[i + 1])
                bsp_abort("stencil: cell %ld is %g, the sequential updates give %g\n", i, all[i],
                          a[i + 1]);
        printf("P = %u, n = %ld, %ld steps: every cell as the sequential updates give it\n", p, n,
               steps);
        free(a);
        free(b);
    }
    bsp_pop_reg(all);
    bsp_pop_reg(u);
    bsp_sync();
    free(all);
    free(u);
    free(v);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    P = argc > 1 ? (unsigned)atoi(argv[1]) : 4;
    N = argc > 2 ? atol(argv[2]) : 200000;
    STEPS = argc > 3 ? atol(argv[3]) : 40;
    if (P < 1 || N < 3 * (long)P || STEPS < 1) {
        fprintf(stderr, "stencil: usage: stencil [P >= 1] [n >= 3P] [steps >= 1]\n");
        return 2;
    }
    spmd();
    return 0;
}
