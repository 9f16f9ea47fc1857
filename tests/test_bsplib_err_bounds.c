/* Error: put or get outside a registration, or to an address that is not
 * registered (including one whose registration has not taken effect yet). */
#include <bsp.h>
#include <stdint.h>

#include "bsplib_death.h"


static void spmd(void)
{
    bsp_begin(3);
    uint64_t x[2] = {0, 0}, y = 0;
    /* pid 1 registers one word only */
    bsp_push_reg(x, bsp_pid() == 1 ? sizeof x[0] : sizeof x);
    bsp_sync();
    if (bsp_pid() == 0) {
        switch (which) {
        case 0: bsp_put(1, &y, x, 8, 8); break;        /* past pid 1's 8 bytes */
        case 1: bsp_put(1, &y, &y, 0, 8); break;       /* y never registered */
        case 2: bsp_get(1, x, 4, &y, 8); break;        /* straddles the end */
        case 3: bsp_get(2, &y, 0, &y, 8); break;       /* y never registered */
        case 4: bsp_push_reg(&y, 8); bsp_put(2, x, &y, 0, 8); break; /* not yet */
        case 5: bsp_hpput(2, x, x, 17, 0); break;      /* offset past the end */
        }
    }
    bsp_sync();
    bsp_end();
}

int main(void)
{
    int k[6] = {0, 1, 2, 3, 4, 5};
    check_death("put past end", bsplib_death_run, &k[0],
                "offset=8, nbytes=8): bytes [8, 16) outside the registration, which has 8 bytes on pid 1 (superstep 1, pid 0)\n", 1, 20);
    check_death("put unregistered", bsplib_death_run, &k[1],
                "nbytes=8): dst is not a registered address (bsp_push_reg, then bsp_sync) (superstep 1, pid 0)\n", 1, 20);
    check_death("get straddles", bsplib_death_run, &k[2],
                "bsp_get(pid=1, src=", 1, 20);
    check_death("get straddles line", bsplib_death_run, &k[2],
                "offset=4, nbytes=8): bytes [4, 12) outside the registration, which has 8 bytes on pid 1 (superstep 1, pid 0)\n", 1, 20);
    check_death("get unregistered", bsplib_death_run, &k[3], "src is not a registered address", 1, 20);
    check_death("put before the sync", bsplib_death_run, &k[4], "bsp_put(pid=2, src=", 1, 20);
    check_death("put before the sync line", bsplib_death_run, &k[4], "dst is not a registered address", 1, 20);
    check_death("hpput offset", bsplib_death_run, &k[5], "bsp_hpput(pid=2, src=", 1, 20);
    check_death("hpput offset line", bsplib_death_run, &k[5], "offset=17, nbytes=0): bytes [17, 17) outside the registration, which has 16 bytes on pid 2", 1, 20);
    return check_report("test_bsplib_err_bounds");
}
