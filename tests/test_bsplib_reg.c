/* bsp_push_reg / bsp_pop_reg: matched by call order, each process with its
 * own address and size (stack variables); registering NULL/0 on some
 * processes; the newest registration of an address is the one used; pop
 * then reuse; registrations take effect at the next sync. */
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>

#include "bsplib_check.h"

static unsigned P;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    /* sizes differ by process: process t registers t+1 words */
    uint64_t *a = calloc(s + 1, sizeof *a);
    bsp_push_reg(a, (s + 1) * sizeof *a);
    bsp_sync();
    const unsigned t = (s + 1) % p;
    uint64_t v = 77 + s;
    bsp_put(t, &v, a, t * sizeof v, sizeof v); /* the last word of t's area */
    bsp_sync();
    SPMD_CHECK(a[s] == 77 + (s + p - 1) % p);

    /* the same address twice, with a larger size the second time: the
     * newest is used; after popping it, the old size applies again */
    bsp_push_reg(a, 0);
    bsp_sync();
    bsp_push_reg(a, (s + 1) * sizeof *a);
    bsp_sync();
    v = 5;
    bsp_put(t, &v, a, 0, sizeof v);
    bsp_sync();
    SPMD_CHECK(a[0] == 5);
    bsp_pop_reg(a); /* removes the newest (full size) */
    bsp_sync();
    bsp_put(t, &v, a, 0, 0); /* the 0-byte registration is the one left */
    bsp_pop_reg(a);
    bsp_pop_reg(a);
    bsp_sync();

    /* only odd processes contribute memory; pushes and pops in one superstep */
    uint64_t local = 0;
    bsp_push_reg(s % 2 ? &local : NULL, s % 2 ? sizeof local : 0);
    bsp_sync();
    if (p > 1) {
        v = 1000 + s;
        bsp_put(1, &v, s % 2 ? (void *)&local : NULL, 0, sizeof v);
        bsp_sync();
        if (s == 1)
            SPMD_CHECK(local == 1000 + p - 1);
    }
    bsp_pop_reg(s % 2 ? &local : NULL);
    uint64_t other = 3;
    bsp_push_reg(&other, sizeof other);
    bsp_sync();
    v = 9;
    bsp_put(t, &v, &other, 0, sizeof v);
    bsp_sync();
    SPMD_CHECK(other == 9);
    bsp_pop_reg(&other);
    bsp_sync();
    free(a);
    bsp_end();
}

int main(int argc, char **argv)
{
    return bsplib_test_every_p(argc, argv, spmd, &P, "registrations", "test_bsplib_reg");
}
