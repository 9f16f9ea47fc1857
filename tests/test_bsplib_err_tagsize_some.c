/* Error: bsp_set_tagsize called by some processes but not all in a superstep
 * (it is collective), detected at the sync, at P = 2 and 4 — also when the
 * callers pass the size already in force, so no size differs. Also: every
 * process setting the same size works. */
#include <bsp.h>

#include "bsplib_death.h"

static void spmd(void)
{
    const unsigned P = which == 0 ? 2 : 4;
    bsp_begin(P);
    const unsigned s = bsp_pid();
    bsp_size_t size = 8;
    if (which == 2) { /* everyone, the same size: fine */
        bsp_set_tagsize(&size);
        bsp_sync();
        bsp_end();
        return;
    }
    if (which == 1) /* P = 4: 8 everywhere from superstep 1 on */
        bsp_set_tagsize(&size);
    bsp_sync();
    bsp_sync();
    bsp_sync();
    /* superstep 3: P = 2: only pid 1 (a new size); P = 4: all but pid 2,
     * with the size already in force */
    size = 8;
    if (which == 0 ? s == 1 : s != 2)
        bsp_set_tagsize(&size);
    bsp_sync();
    bsp_end();
}

int main(void)
{
    int k[3] = {0, 1, 2};
    check_death("P=2", bsplib_death_run, &k[0],
                "bspram: bsp_set_tagsize: called by pid 1 but not by pid 0 in superstep 3; all processes must call it in the same superstep\n", 1, 20);
    check_death("P=4", bsplib_death_run, &k[1],
                "bspram: bsp_set_tagsize: called by pid 0 but not by pid 2 in superstep 3; all processes must call it in the same superstep\n", 1, 20);
    bsplib_death_run(&k[2]);
    CHECK(1);
    return check_report("test_bsplib_err_tagsize_some");
}
