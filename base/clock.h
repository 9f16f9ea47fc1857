/* bspram — the one clock: every time the library reports (the records'
 * seconds, bsp_time, the probe) is read from CLOCK_MONOTONIC, so figures
 * from different layers can be compared. Internal (not installed). */
#ifndef BSPRAM_BASE_CLOCK_H
#define BSPRAM_BASE_CLOCK_H

#include <time.h>

/* Seconds since an arbitrary fixed point in the past (monotonic). */
static inline double bspram__clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
