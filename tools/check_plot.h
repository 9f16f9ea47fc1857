/* The picture of `bspram pram check --plot FILE.svg`: a panel per
 * quantity (steps, work, charge) with the measured points of the sweep and,
 * where a bound was given, the fitted c·f(n) + d, on log-log axes (where a
 * bound's growth is a slope); the title of a panel says whether the rule
 * found the growth within the bound. Written as SVG by hand: no program
 * beyond bspram is needed to make it. */
#ifndef BSPRAM_TOOLS_CHECK_PLOT_H
#define BSPRAM_TOOLS_CHECK_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "tools/growth.h"

typedef struct bspram_plot_panel {
    const char *quantity;   /* "steps" */
    const double *n, *y;    /* the sweep's sizes and values, k of each */
    size_t k;
    bool judged;            /* a bound was given and judged: bound, g */
    bspram_bound bound;
    bspram_growth g;
} bspram_plot_panel;

/* Write the panels side by side to path under `title`, as every file of
 * the command is written (base/output.h: a new file renamed over path once
 * whole; what was at path is never removed). 0, or −1 with errno. */
int bspram_check_plot(const char *path, const char *title, const bspram_plot_panel *panels, size_t count);

#endif
