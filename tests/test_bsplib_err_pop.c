/* Error: popping an address that is not registered (reported at the sync,
 * naming the process that popped it). */
#include <bsp.h>
#include <stdint.h>

#include "bsplib_death.h"

static void spmd(void)
{
    bsp_begin(4);
    uint64_t x = 0, y = 0;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    bsp_pop_reg(bsp_pid() == 3 ? (void *)&y : (void *)&x);
    bsp_sync();
    bsp_end();
}

int main(void)
{
    check_death("pop unregistered", bsplib_death_run, NULL, "bspram: bsp_pop_reg(0x", 1, 20);
    check_death("pop unregistered line", bsplib_death_run, NULL, "): address not registered (superstep 1, pid 3)\n", 1, 20);
    return check_report("test_bsplib_err_pop");
}
