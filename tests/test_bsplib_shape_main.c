/* Program shape (b): bsp_begin is the first statement of main and bsp_end
 * comes before its return; no bsp_init. Every process sees the program's
 * own argc/argv (pid 0 compares their argc with its own), locals are private, and only
 * pid 0 gets past bsp_end. */
#include <bsp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"

static atomic_int after_end;

int main(int argc, char **argv)
{
    bsp_begin(4);
    unsigned s = bsp_pid();
    SPMD_CHECK(argc >= 1 && strstr(argv[0], "test_bsplib_shape_main") != NULL);
    uint64_t *argcs = spmd_words_at_pid0((uint64_t)argc); /* every process's argc, at pid 0 */
    for (unsigned t = 0; argcs && t < 4; t++)
        SPMD_CHECK(argcs[t] == (uint64_t)argc);
    free(argcs);
    uint64_t cell = 0, v = s + 1;
    bsp_push_reg(&cell, sizeof cell);
    bsp_sync();
    bsp_put((s + 1) % 4, &v, &cell, 0, sizeof v);
    bsp_sync();
    SPMD_CHECK(cell == (s + 3) % 4 + 1);
    bsp_pop_reg(&cell);
    bsp_end();

    atomic_fetch_add(&after_end, 1);
    CHECK_SPMD("shape (b)");
    CHECK_EQ_U64(atomic_load(&after_end), 1);
    CHECK_EQ_U64(s, 0); /* pid 0's locals survive bsp_end */
    CHECK(argc >= 1 && strstr(argv[0], "test_bsplib_shape_main") != NULL);
    return check_report("test_bsplib_shape_main");
}
