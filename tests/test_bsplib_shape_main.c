/* Program shape (b): bsp_begin is the first statement of main and bsp_end
 * comes before its return; no bsp_init. Every process sees the program's
 * own argc/argv (as pid 0 does), locals are private, and only
 * pid 0 gets past bsp_end. */
#include <bsp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"

static atomic_int after_end;
static int argc_seen[4];
static char **argv_seen[4];

int main(int argc, char **argv)
{
    bsp_begin(4);
    unsigned s = bsp_pid();
    argc_seen[s] = argc;
    argv_seen[s] = argv;
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
    for (int i = 0; i < 4; i++)
        CHECK(argc_seen[i] == argc && argv_seen[i] == argv);
    return check_report("test_bsplib_shape_main");
}
