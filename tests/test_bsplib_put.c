/* bsp_put and bsp_hpput: all-to-all by puts for every P; buffering (the
 * source may change right after the call); the order of puts to the same
 * place (by source pid, then issue order); self-puts; offsets; 0-byte puts;
 * puts to a process that registered NULL/0 elsewhere. */
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>

#include "bsplib_check.h"

static unsigned P;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();

    /* all-to-all: process s puts value 1000*s + t into slot s of process t */
    uint64_t *in = calloc(p, sizeof *in);
    bsp_push_reg(in, p * sizeof *in);
    bsp_sync();
    for (unsigned t = 0; t < p; t++) {
        uint64_t v = 1000u * s + t;
        bsp_put(t, &v, in, s * sizeof v, sizeof v);
        v = 999999; /* buffered: the value at the call is what lands */
    }
    SPMD_CHECK(in[s] == 0); /* nothing lands before the sync */
    bsp_sync();
    for (unsigned t = 0; t < p; t++)
        SPMD_CHECK(in[t] == 1000u * t + s);

    /* same place, many writers: the last in (source pid, issue) order wins,
     * i.e. the highest pid's last put. hpput behaves the same. */
    uint64_t cell = 7;
    bsp_push_reg(&cell, sizeof cell); /* a stack variable: its own address on every process */
    bsp_sync();
    for (unsigned k = 0; k < 3; k++) {
        uint64_t v = 100u * s + k;
        bsp_hpput(0, &v, &cell, 0, sizeof v);
    }
    bsp_sync();
    if (s == 0)
        SPMD_CHECK(cell == 100u * (p - 1) + 2);

    /* bytes at an offset inside the registration; a 0-byte put changes nothing */
    unsigned char bytes[16] = {0};
    bsp_push_reg(bytes, sizeof bytes);
    bsp_sync();
    unsigned char b = (unsigned char)(s + 1);
    bsp_put((s + 1) % p, &b, bytes, 5, 1);
    bsp_put((s + 1) % p, NULL, bytes, 16, 0);
    bsp_sync();
    SPMD_CHECK(bytes[5] == (unsigned char)((s + p - 1) % p + 1));
    SPMD_CHECK(bytes[4] == 0 && bytes[6] == 0);

    /* registration NULL on every process but 0; puts go to process 0 */
    uint64_t *sink = s == 0 ? calloc(p, sizeof *sink) : NULL;
    bsp_push_reg(sink, s == 0 ? p * sizeof *sink : 0);
    bsp_sync();
    uint64_t v = s + 1;
    bsp_put(0, &v, sink, s * sizeof v, sizeof v);
    bsp_sync();
    if (s == 0)
        for (unsigned t = 0; t < p; t++)
            SPMD_CHECK(sink[t] == t + 1);

    bsp_pop_reg(sink);
    bsp_pop_reg(bytes);
    bsp_pop_reg(&cell);
    bsp_pop_reg(in);
    bsp_sync();
    free(sink);
    free(in);
    bsp_end();
}

int main(int argc, char **argv)
{
    return bsplib_test_every_p(argc, argv, spmd, &P, "puts", "test_bsplib_put");
}
