/* Errors of pops with NULL registrations, reported at the sync: the
 * processes that pass an address name different slots (a process passing
 * NULL does not count); a process passes NULL for a slot where it registered
 * memory; every process passes NULL but no registration is NULL everywhere. */
#include <bsp.h>
#include <stdint.h>

#include "bsplib_death.h"

static void spmd(void)
{
    bsp_begin(4);
    const unsigned s = bsp_pid();
    uint64_t a = 0, b = 0;
    if (which == 0) { /* pid 0 takes no part; pid 1 pops a, pids 2 and 3 pop b */
        bsp_push_reg(s ? &a : NULL, s ? sizeof a : 0);
        bsp_push_reg(s ? &b : NULL, s ? sizeof b : 0);
        bsp_sync();
        bsp_pop_reg(s == 0 ? NULL : s == 1 ? (void *)&a : (void *)&b);
    } else if (which == 1) { /* pid 2 passes NULL for its own a */
        bsp_push_reg(&a, sizeof a);
        bsp_sync();
        bsp_pop_reg(s == 2 ? NULL : &a);
    } else { /* NULL everywhere, but a has memory on every process */
        bsp_push_reg(&a, sizeof a);
        bsp_sync();
        bsp_pop_reg(NULL);
    }
    bsp_sync();
    bsp_end();
}

int main(void)
{
    int k[3] = {0, 1, 2};
    check_death("addresses disagree", bsplib_death_run, &k[0],
                "bspram: bsp_sync(): registrations differ between processes in superstep 1: pop 1 removes registration 1 on pid 1 but 2 on pid 2; pops must be in the same order everywhere\n", 1, 20);
    check_death("NULL for own memory", bsplib_death_run, &k[1],
                "bspram: bsp_sync(): pop 1 in superstep 1 is bsp_pop_reg(NULL) on pid 2, but the registration it removes (registration 1, named by pid 0's address 0x", 1, 20);
    check_death("NULL for own memory line", bsplib_death_run, &k[1],
                ") has memory on pid 2 (0x", 1, 20);
    check_death("NULL everywhere", bsplib_death_run, &k[2],
                "bspram: bsp_sync(): pop 1 in superstep 1 is bsp_pop_reg(NULL) on every process, but no live registration is NULL on every process\n", 1, 20);
    return check_report("test_bsplib_err_popnull");
}
