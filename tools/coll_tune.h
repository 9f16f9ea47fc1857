/* bspram coll --tune: every algorithm of each collective timed on this
 * machine, per message size, the fastest kept (tools/coll_tune.c), and the
 * choices written in another library's selection format
 * (tools/coll_export.c). */
#ifndef BSPRAM_TOOLS_COLL_TUNE_H
#define BSPRAM_TOOLS_COLL_TUNE_H

#include <stddef.h>
#include <stdio.h>

#include <bsp_coll.h>

#define COLL_TUNE_MAX_SIZES 16
#define COLL_TUNE_ALGS (BSP_COLL_RABENSEIFNER + 1) /* bsp_coll_algorithm's values */

/* One operation at one block size: the algorithms tried, fastest first. */
typedef struct coll_tune_row {
    bsp_coll_op op;
    size_t block;                     /* bytes per block (reductions: the operand) */
    unsigned n_algs;
    bsp_coll_algorithm alg[COLL_TUNE_ALGS];
    double seconds[COLL_TUNE_ALGS]; /* median per call over the rounds */
    double predicted_ns[COLL_TUNE_ALGS];
    bsp_coll_algorithm selected;      /* bsp_coll_select's pick (g and l of the probe) */
} coll_tune_row;

/* Time every algorithm of ops[0..n_ops) at every size on p BSPlib processes,
 * `rounds` rounds alternating the algorithms, about `reps` calls per window
 * (fewer for large blocks); rows[n_ops * n_sizes], op-major. Ties within 3 %
 * go to the lower predicted cost (C1·l + C2·g), then to fewer rounds. */
void coll_tune_run(unsigned p, const bsp_coll_op *ops, size_t n_ops, const size_t *sizes,
                   size_t n_sizes, unsigned rounds, unsigned reps, coll_tune_row *rows);

/* The choices as Open MPI's coll/tuned dynamic rules ("ompi-rules") or
 * MPICH's collective-selection JSON ("mpich-json"), for p processes;
 * 0, or -1 with errno set by the failing write. */
int coll_export(FILE *f, const char *format, unsigned p, const coll_tune_row *rows, size_t n_ops,
                size_t n_sizes);

#endif
