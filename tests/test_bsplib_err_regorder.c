/* Error: registrations pushed in different numbers or orders by different
 * processes, and pops that remove different slots — detected at the sync
 * (never silently mismatched). */
#include <bsp.h>
#include <stdint.h>

#include "bsplib_death.h"


static void spmd(void)
{
    bsp_begin(4);
    const unsigned s = bsp_pid();
    uint64_t a = 0, b = 0;
    if (which == 0) {                 /* pid 1 pushes one more */
        bsp_push_reg(&a, 8);
        if (s == 1)
            bsp_push_reg(&b, 8);
    } else if (which == 1) {          /* pid 2 pops where the others push */
        bsp_push_reg(&a, 8);
        bsp_sync();
        if (s == 2)
            bsp_pop_reg(&a);
        else
            bsp_push_reg(&b, 8);
    } else {                          /* pid 3 pops the other slot */
        bsp_push_reg(&a, 8);
        bsp_push_reg(&b, 8);
        bsp_sync();
        bsp_pop_reg(s == 3 ? &a : &b);
    }
    bsp_sync();
    bsp_end();
}

int main(void)
{
    int k[3] = {0, 1, 2};
    check_death("numbers", bsplib_death_run, &k[0],
                "bspram: bsp_sync(): registrations differ between processes in superstep 0: pid 0 called bsp_push_reg/bsp_pop_reg 1 times, pid 1 2 times", 1, 20);
    check_death("order", bsplib_death_run, &k[1], "superstep 1: call 1 is bsp_push_reg(0x", 1, 20);
    check_death("order line", bsplib_death_run, &k[1], ", 8) on pid 0 but bsp_pop_reg(0x", 1, 20);
    check_death("pops", bsplib_death_run, &k[2], "superstep 1: pop 1 removes registration 2 on pid 0 but 1 on pid 3", 1, 20);
    return check_report("test_bsplib_err_regorder");
}
