/* Error: destination pid out of range, for bsp_put, bsp_get and bsp_send —
 * one line naming call, arguments, superstep and pid; exit status 1. */
#include <bsp.h>
#include <stdint.h>

#include "bsplib_death.h"


static void spmd(void)
{
    bsp_begin(4);
    uint64_t x = 0;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    if (bsp_pid() == 2) {
        if (which == 0)
            bsp_put(4, &x, &x, 0, sizeof x);
        else if (which == 1)
            bsp_get(7, &x, 0, &x, sizeof x);
        else
            bsp_send(100, NULL, &x, sizeof x);
    }
    bsp_sync();
    bsp_end();
}

int main(void)
{
    int k[3] = {0, 1, 2};
    check_death("put pid", bsplib_death_run, &k[0], "bsp_put(pid=4, src=", 1, 20);
    check_death("put pid line", bsplib_death_run, &k[0], "nbytes=8): pid outside [0, 4) (superstep 1, pid 2)\n", 1, 20);
    check_death("get pid", bsplib_death_run, &k[1], "bsp_get(pid=7, src=", 1, 20);
    check_death("get pid line", bsplib_death_run, &k[1], "pid outside [0, 4) (superstep 1, pid 2)\n", 1, 20);
    check_death("send pid", bsplib_death_run, &k[2], "bsp_send(pid=100, tag=(nil), payload=", 1, 20);
    check_death("send pid line", bsplib_death_run, &k[2], "nbytes=8): pid outside [0, 4) (superstep 1, pid 2)\n", 1, 20);
    return check_report("test_bsplib_err_pid");
}
