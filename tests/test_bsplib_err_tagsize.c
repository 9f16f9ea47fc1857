/* Error: processes setting different tag sizes in the same superstep
 * (messages would be misparsed), detected at the sync. */
#include <bsp.h>

#include "bsplib_death.h"

static void spmd(void)
{
    bsp_begin(3);
    bsp_size_t size = bsp_pid() == 2 ? 8 : 4;
    bsp_set_tagsize(&size);
    bsp_sync();
    bsp_end();
}

int main(void)
{
    check_death("tag sizes differ", bsplib_death_run, NULL,
                "bspram: bsp_set_tagsize: processes set different tag sizes in superstep 0: pid 0 has 4, pid 2 has 8; all must set the same\n", 1, 20);
    return check_report("test_bsplib_err_tagsize");
}
