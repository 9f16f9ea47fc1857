/* The order in which a superstep's communication takes effect (BSPlib 1998:
 * a get "takes effect at the end of the superstep after all remote reads …
 * are performed, but before any data is written by any bsp_put"): where a
 * get's destination overlaps a put's destination in the same superstep, the
 * put wins. For every P: each process gets a value into x while its
 * neighbour puts another value into the same x; a second case mixes gets,
 * puts and sends into one buffer, with a put of its own into its own x. */
#include <bsp.h>
#include <stdint.h>
#include <string.h>

#include "bsplib_check.h"

static unsigned P;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    const unsigned next = (s + 1) % p, prev = (s + p - 1) % p;
    uint64_t x = 0, y = 111 + s;
    bsp_push_reg(&x, sizeof x);
    bsp_push_reg(&y, sizeof y);
    bsp_sync();

    /* s gets next's y into its own x; prev puts 222 + prev into s's x */
    bsp_get(next, &y, 0, &x, sizeof x);
    uint64_t v = 222 + s;
    bsp_put(next, &v, &x, 0, sizeof v);
    bsp_sync();
    SPMD_CHECK(x == 222 + prev);

    /* A row of 4 words: the get writes words 0..3 (from next's row), the
     * put of prev writes words 1..2 over it; a put to oneself writes word 3.
     * Result: word 0 from the get, 1..2 from prev's put, 3 from own put. */
    uint64_t row[4], src[4];
    for (unsigned i = 0; i < 4; i++)
        row[i] = src[i] = 1000u * s + i;
    bsp_push_reg(row, sizeof row);
    bsp_sync();
    uint64_t mine[2] = {7000u + s, 7100u + s}, own = 9000u + s;
    bsp_get(next, row, 0, row, sizeof row);
    bsp_put(next, mine, row, 1 * sizeof *row, sizeof mine);
    bsp_put(s, &own, row, 3 * sizeof *row, sizeof own);
    bsp_send(next, NULL, &own, sizeof own);
    bsp_sync();
    SPMD_CHECK(row[0] == 1000u * next + 0);
    SPMD_CHECK(p == 1 ? row[1] == 7000u + s : row[1] == 7000u + prev);
    SPMD_CHECK(p == 1 ? row[2] == 7100u + s : row[2] == 7100u + prev);
    SPMD_CHECK(row[3] == 9000u + s);
    bsp_nprocs_t packets = 0;
    bsp_size_t bytes = 0;
    bsp_qsize(&packets, &bytes);
    SPMD_CHECK(packets == 1 && bytes == sizeof own);
    uint64_t got = 0;
    bsp_move(&got, sizeof got);
    SPMD_CHECK(got == 9000u + prev);
    (void)src;
    bsp_pop_reg(row);
    bsp_pop_reg(&y);
    bsp_pop_reg(&x);
    bsp_end();
}

int main(int argc, char **argv)
{
    return bsplib_test_every_p(argc, argv, spmd, &P, "get before put", "test_bsplib_order");
}
