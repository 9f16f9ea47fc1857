/* Error: bsp_move on an empty queue (the standard defines no status for
 * it; bsp_get_tag and bsp_hpmove report −1 instead, see test_bsplib_send). */
#include <bsp.h>
#include <stdint.h>

#include "bsplib_death.h"

static void spmd(void)
{
    bsp_begin(4);
    bsp_send(0, NULL, "x", 1);
    bsp_sync();
    char c[8];
    if (bsp_pid() == 3)
        bsp_move(c, sizeof c);
    bsp_sync();
    bsp_end();
}

int main(void)
{
    check_death("move empty", bsplib_death_run, NULL, "bspram: bsp_move(payload=0x", 1, 20);
    check_death("move empty line", bsplib_death_run, NULL,
                "max_copy_size=8): the message queue is empty (check bsp_qsize or bsp_get_tag first) (superstep 1, pid 3)\n", 1, 20);
    return check_report("test_bsplib_err_move");
}
