/* bspram coll --tune: every algorithm of each collective timed on this
 * machine, per message size, the fastest kept (tools/coll_tune.c), and the
 * choices written in another library's selection format
 * (tools/coll_export.c). */
#ifndef BSPRAM_TOOLS_COLL_TUNE_H
#define BSPRAM_TOOLS_COLL_TUNE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <bsp_coll.h>

#define COLL_TUNE_MAX_SIZES 16
#define COLL_TUNE_ALGS (BSP_COLL_RABENSEIFNER + 1) /* bsp_coll_algorithm's values */

/* Two algorithms whose times are within this fraction of the fastest are a
 * tie (docs/collectives.md): closer than a shared machine's noise between
 * two tunes. */
#define COLL_TUNE_TIE 0.05

/* One operation at one block size: the algorithms tried, the choice first,
 * then the others tied with the fastest (n_tied in all, the choice among
 * them), then the rest by time. */
typedef struct coll_tune_row {
    bsp_coll_op op;
    size_t block;                     /* bytes per block (reductions: the operand) */
    unsigned n_algs, n_tied;
    bsp_coll_algorithm alg[COLL_TUNE_ALGS];
    double seconds[COLL_TUNE_ALGS];   /* the least time per call over the rounds */
    uint64_t c1[COLL_TUNE_ALGS], h[COLL_TUNE_ALGS]; /* predicted rounds and Σ h (bsp_coll_predict) */
    bsp_coll_algorithm selected;      /* bsp_coll_select's pick (g and l of the probe) */
} coll_tune_row;

/* Time every algorithm of ops[0..n_ops) at every size on p BSPlib processes,
 * `rounds` rounds alternating the algorithms, about `reps` calls per window
 * (fewer for large blocks); rows[n_ops * n_sizes], op-major, ordered by
 * coll_tune_pick. */
void coll_tune_run(unsigned p, const bsp_coll_op *ops, size_t n_ops, const size_t *sizes,
                   size_t n_sizes, unsigned rounds, unsigned reps, coll_tune_row *rows);

/* Order one row from its measured windows (tools/coll_tune_pick.c):
 * times[a * rounds + r] is algorithm row->alg[a]'s time per call in round r.
 * Each algorithm's figure is its least window over the rounds: a shared
 * machine's load only ever adds time, and the least is the figure a burst
 * of it disturbs least (the median moved with three disturbed rounds of
 * five). The algorithms within COLL_TUNE_TIE of the fastest are tied; the
 * choice among them is fixed, not measured: fewest predicted rounds (C1),
 * then least predicted Σ h, then bsp_coll_algorithm's order. So two tunes
 * agree wherever their ties agree, whichever of the tied was faster. */
void coll_tune_pick(coll_tune_row *row, const double *times, unsigned rounds);

/* The one algorithm of an operation for every size, where a library keys
 * its rule by something other than the message (Open MPI's scan: datatype
 * size × communicator size): the one with the least geometric mean over the
 * sizes of its time over the choice's, ties in bsp_coll_algorithm's order.
 * rows: the operation's n_sizes rows. */
bsp_coll_algorithm coll_tune_one_for_all(const coll_tune_row *rows, size_t n_sizes);

/* The choices as Open MPI's coll/tuned dynamic rules ("ompi-rules") or
 * MPICH's collective-selection JSON ("mpich-json"), for p processes;
 * 0, or -1 with errno set by the failing write. */
int coll_export(FILE *f, const char *format, unsigned p, const coll_tune_row *rows, size_t n_ops,
                size_t n_sizes);

#endif
