/* Death tests of BSPlib programs: each test file defines its SPMD function
 * `spmd` (which may read `which`, the case to run) and passes
 * bsplib_death_run to check_death with a pointer to the case (or NULL). */
#ifndef BSPRAM_TESTS_BSPLIB_DEATH_H
#define BSPRAM_TESTS_BSPLIB_DEATH_H

#include <bsp.h>

#include "check.h"

static int which;          /* the case the child runs */
static void spmd(void);    /* defined by the test */

static void bsplib_death_run(void *arg)
{
    if (arg)
        which = *(int *)arg;
    bsp_init(spmd, 0, NULL);
    spmd();
}

#endif
