/* bsp_direct_get (one address space only: refused over MPI, docs/mpi.md):
 * it reads now what the last sync left in the other process's area, for
 * every P. */
#include <bsp.h>
#include <stdint.h>

#include "bsplib_check.h"

static unsigned P;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid(), next = (s + 1) % p;
    uint64_t cell = 10 + s;
    bsp_push_reg(&cell, sizeof cell);
    bsp_sync();
    uint64_t v = 500 + s;
    bsp_put(next, &v, &cell, 0, sizeof v);
    bsp_sync();
    uint64_t direct = 0;
    bsp_direct_get(next, &cell, 0, &direct, sizeof direct);
    SPMD_CHECK(direct == 500 + s);
    bsp_sync();
    SPMD_CHECK(direct == 500 + s);
    bsp_pop_reg(&cell);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    return bsplib_test_every_p(argc, argv, spmd, &P, "direct gets", "test_bsplib_direct_get");
}
