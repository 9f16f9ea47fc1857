/* bsp_get and bsp_hpget: all-to-all by gets for every P; a get sees the
 * value from before the same superstep's puts; self-gets. */
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>

#include "bsplib_check.h"

static unsigned P;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();

    /* all-to-all: process s holds row[t] = 1000*s + t; t fetches it */
    uint64_t *row = malloc(p * sizeof *row), *got = calloc(p, sizeof *got);
    for (unsigned t = 0; t < p; t++)
        row[t] = 1000u * s + t;
    bsp_push_reg(row, p * sizeof *row);
    bsp_sync();
    for (unsigned t = 0; t < p; t++)
        (t % 2 ? bsp_hpget : bsp_get)(t, row, s * sizeof *row, &got[t], sizeof *got);
    SPMD_CHECK(got[(s + 1) % p] == 0 || p == 1); /* nothing arrives before the sync */
    bsp_sync();
    for (unsigned t = 0; t < p; t++)
        SPMD_CHECK(got[t] == 1000u * t + s);

    /* gets are served before puts land: everybody overwrites the cell of the
     * next process and reads it in the same superstep */
    uint64_t cell = 10 + s, before = 0;
    bsp_push_reg(&cell, sizeof cell);
    bsp_sync();
    const unsigned next = (s + 1) % p;
    uint64_t v = 500 + s;
    bsp_put(next, &v, &cell, 0, sizeof v);
    bsp_get(next, &cell, 0, &before, sizeof before);
    bsp_sync();
    SPMD_CHECK(before == 10 + next);
    SPMD_CHECK(cell == 500 + (s + p - 1) % p);

    uint64_t self = 7;
    bsp_get(s, &cell, 0, &self, 0); /* a 0-byte self-get changes nothing */
    bsp_sync();
    SPMD_CHECK(self == 7);

    bsp_pop_reg(&cell);
    bsp_pop_reg(row);
    bsp_sync();
    free(row);
    free(got);
    bsp_end();
}

int main(int argc, char **argv)
{
    return bsplib_test_every_p(argc, argv, spmd, &P, "gets", "test_bsplib_get");
}
