/* bspram coll --tune's verdict (tools/coll_tune_pick.c) on made-up windows,
 * the cases that made two tunes in a row disagree:
 *  - load that disturbs three rounds of five of one algorithm: its least
 *    window still wins (the median picked the other);
 *  - two algorithms 4 % apart, in either order: a tie, reported, and the
 *    same choice both ways (fewest rounds C1, then least Σ h, then the
 *    enum's order); 6 % apart: no tie;
 *  - the one algorithm for every size (Open MPI's scan rule): the least
 *    geometric mean of time over the choice's, ties in the enum's order. */
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "tools/coll_tune.h"

typedef struct alg_case {
    bsp_coll_algorithm alg;
    uint64_t c1, h;
    double windows[5];
} alg_case;

/* A row of n algorithms measured in 5 rounds, ordered by coll_tune_pick. */
static coll_tune_row pick(const alg_case *c, unsigned n)
{
    coll_tune_row row;
    memset(&row, 0, sizeof row);
    row.op = BSP_COLL_ALLGATHER;
    row.block = 8;
    double times[COLL_TUNE_ALGS * 5];
    for (unsigned a = 0; a < n; a++) {
        row.alg[a] = c[a].alg;
        row.c1[a] = c[a].c1;
        row.h[a] = c[a].h;
        memcpy(&times[a * 5], c[a].windows, sizeof c[a].windows);
    }
    row.n_algs = n;
    coll_tune_pick(&row, times, 5);
    return row;
}

/* A scan row whose choice takes time 1 and the other two algorithms 2. */
static void set_scan_row(coll_tune_row *row, bsp_coll_algorithm choice)
{
    const bsp_coll_algorithm all[3] = {BSP_COLL_DIRECT, BSP_COLL_BINOMIAL, BSP_COLL_DISSEMINATION};
    memset(row, 0, sizeof *row);
    row->op = BSP_COLL_SCAN;
    row->n_algs = 3;
    row->n_tied = 1;
    row->alg[0] = choice;
    row->seconds[0] = 1;
    for (int a = 0, i = 1; a < 3; a++)
        if (all[a] != choice) {
            row->alg[i] = all[a];
            row->seconds[i++] = 2;
        }
}

int main(void)
{
    /* Three disturbed rounds of five: direct's least is 10, binomial's 20. */
    const alg_case burst[] = {{BSP_COLL_DIRECT, 1, 8, {10, 50, 10, 50, 50}},
                              {BSP_COLL_BINOMIAL, 2, 16, {20, 21, 20, 22, 20}}};
    coll_tune_row r = pick(burst, 2);
    CHECK(r.alg[0] == BSP_COLL_DIRECT && r.seconds[0] == 10 && r.n_tied == 1);
    CHECK(r.alg[1] == BSP_COLL_BINOMIAL && r.seconds[1] == 20);

    /* 4 % apart, either way round: tied, bruck (2 rounds) before ring (3). */
    for (int swap = 0; swap < 2; swap++) {
        const double near = swap ? 100 : 104, far = swap ? 104 : 100;
        const alg_case close[] = {{BSP_COLL_RING, 3, 24, {far, far, far + 30, far, far}},
                                  {BSP_COLL_BRUCK, 2, 24, {near, near, near, near + 30, near}}};
        r = pick(close, 2);
        CHECK(r.alg[0] == BSP_COLL_BRUCK && r.alg[1] == BSP_COLL_RING && r.n_tied == 2);
        CHECK(r.seconds[0] == near); /* the choice's own time */
    }
    /* 6 % apart: no tie, the faster stands. */
    const alg_case apart[] = {{BSP_COLL_RING, 3, 24, {100, 100, 100, 100, 100}},
                              {BSP_COLL_BRUCK, 2, 24, {106, 106, 106, 106, 106}}};
    r = pick(apart, 2);
    CHECK(r.alg[0] == BSP_COLL_RING && r.n_tied == 1);
    /* The same rounds: less data first; the same data too: the enum's order
     * (doubling before dissemination), and the untied one last. */
    const alg_case same_c1[] = {{BSP_COLL_DISSEMINATION, 2, 16, {50, 50, 50, 50, 50}},
                                {BSP_COLL_RABENSEIFNER, 4, 12, {80, 80, 80, 80, 80}},
                                {BSP_COLL_DOUBLING, 2, 16, {51, 51, 51, 51, 51}}};
    r = pick(same_c1, 3);
    CHECK(r.alg[0] == BSP_COLL_DOUBLING && r.alg[1] == BSP_COLL_DISSEMINATION && r.n_tied == 2);
    CHECK(r.alg[2] == BSP_COLL_RABENSEIFNER);
    const alg_case less_h[] = {{BSP_COLL_DISSEMINATION, 2, 16, {50, 50, 50, 50, 50}},
                               {BSP_COLL_DOUBLING, 2, 24, {49, 49, 49, 49, 49}}};
    r = pick(less_h, 2);
    CHECK(r.alg[0] == BSP_COLL_DISSEMINATION && r.n_tied == 2);

    /* One scan algorithm for four sizes: choices dissemination, direct,
     * direct, direct (time 1), the others 2 — direct loses at one size
     * only. */
    coll_tune_row rows[4];
    const bsp_coll_algorithm d = BSP_COLL_DIRECT, m = BSP_COLL_DISSEMINATION;
    set_scan_row(&rows[0], m);
    set_scan_row(&rows[1], d);
    set_scan_row(&rows[2], d);
    set_scan_row(&rows[3], d);
    CHECK(coll_tune_one_for_all(rows, 4) == BSP_COLL_DIRECT);
    /* Two sizes each: equal means, the enum's order (direct before
     * dissemination); three of four for dissemination: dissemination. */
    set_scan_row(&rows[1], m);
    CHECK(coll_tune_one_for_all(rows, 4) == BSP_COLL_DIRECT);
    set_scan_row(&rows[2], m);
    CHECK(coll_tune_one_for_all(rows, 4) == BSP_COLL_DISSEMINATION);

    printf("coll_tune_pick: %d checks, %d failed\n", (int)check_count, (int)check_failures);
    return check_failures != 0;
}
