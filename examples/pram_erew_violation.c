/* An EREW violation on purpose: a broadcast written for the CREW PRAM, run
 * on an EREW PRAM in report mode, beside the EREW broadcast by doubling.
 *
 * Algorithm: broadcasting one value to n cells (JáJá 1992, "An Introduction
 * to Parallel Algorithms", ch. 1, the PRAM models: a broadcast is one step
 * with concurrent reads, ceil(log2 n) steps without them). Model: EREW, in
 * report mode (config.report): a violation is recorded and the run goes on
 * under the CRCW-arbitrary rule instead of ending the program. Time: 1 step
 * for the naive broadcast, 1 + ceil(log2 n) for the doubling one; n VPs.
 *
 *   naive (step 1)       for all i < n in parallel:  X[i] ← B[0]          — n reads of B[0]
 *   doubling (step 2)    VP 0:  Y[0] ← B[0]
 *   (steps 3 ..)         for s = 1, 2, 4, …  for all i < s, i + s < n in parallel:
 *                            Y[i + s] ← Y[i]                                — exclusive
 *
 * Both are written VP by VP (bspram_pram_step). The program prints
 * bspram_pram_report: one violation, in step 1, naming cell B[0] and the
 * two least VPs that read it (0 and 1); the doubling broadcast adds none.
 * It checks that the report says exactly that, that both broadcasts
 * delivered the value, and exits 0 — a PRAM program written for CREW is
 * caught on EREW by the step, cell and VPs of its first concurrent read.
 *
 *   pram_erew_violation [n] [seed] [p] [threads]      (n ≥ 2)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* open_memstream */
#endif
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pram/example.h"

typedef struct {
    bspram_pram_array B, X, Y;
    uint64_t s; /* the doubling's span */
} broadcast;

/* naive: every VP reads B[0] ... */
static void naive_read(bspram_vp *vp, void *arg)
{
    const broadcast *a = arg;
    bspram_vp_read(vp, a->B, 0);
}

/* ... and writes it to its own cell. */
static void naive_write(bspram_vp *vp, void *arg)
{
    const broadcast *a = arg;
    bspram_vp_write(vp, a->X, bspram_vp_id(vp), bspram_vp_value(vp, 0));
}

/* doubling, first step: VP 0 alone copies B[0] to Y[0]. */
static void first_read(bspram_vp *vp, void *arg)
{
    const broadcast *a = arg;
    if (bspram_vp_id(vp) == 0)
        bspram_vp_read(vp, a->B, 0);
}

static void first_write(bspram_vp *vp, void *arg)
{
    const broadcast *a = arg;
    if (bspram_vp_id(vp) == 0)
        bspram_vp_write(vp, a->Y, 0, bspram_vp_value(vp, 0));
}

/* doubling: VP i < s copies Y[i] to Y[i + s] — each cell read once, written once. */
static void double_read(bspram_vp *vp, void *arg)
{
    const broadcast *a = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i < a->s && i + a->s < bspram_vp_n(vp))
        bspram_vp_read(vp, a->Y, i);
}

static void double_write(bspram_vp *vp, void *arg)
{
    const broadcast *a = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i < a->s && i + a->s < bspram_vp_n(vp))
        bspram_vp_write(vp, a->Y, i + a->s, bspram_vp_value(vp, 0));
}

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n, value = pram_example_random(prm->seed, 0, 0, UINT64_MAX);

    double t0 = pram_example_clock();
    /* report mode; ADAPTIVE: the naive broadcast's n reads of B[0] would
     * all go to one owner in one phase (charge 8865 at n = 2^16 against 1082) */
    bspram_pram *P = pram_example_create(prm, n, 0, true, PRAM_EXAMPLE_ADAPTIVE, res);
    broadcast a = {bspram_pram_alloc(P, "B", 1), bspram_pram_alloc(P, "X", n), bspram_pram_alloc(P, "Y", n), 0};
    bspram_pram_load(P, a.B, &value, 1);
    double t1 = pram_example_clock();

    bspram_pram_step(P, naive_read, naive_write, &a);     /* step 1: the violation */
    bspram_pram_step(P, first_read, first_write, &a);     /* step 2 */
    for (a.s = 1; a.s < n; a.s *= 2)                      /* steps 3 .. */
        bspram_pram_step(P, double_read, double_write, &a);

    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    uint64_t *x = pram_example_words(n, "X"), *y = pram_example_words(n, "Y");
    bspram_pram_store(P, a.X, x, n);
    bspram_pram_store(P, a.Y, y, n);

    /* The report, as text: kept for the caller to print, and checked. */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    uint64_t reported = f ? bspram_pram_report(P, f) : 0;
    if (f)
        fclose(f);
    res->report = text;
    size_t ntrace;
    const bspram_pram_step_record *trace = bspram_pram_trace(P, &ntrace);
    uint64_t in_step1 = ntrace ? trace[0].violations : 0, later = 0;
    for (size_t j = 1; j < ntrace; j++)
        later += trace[j].violations;
    pram_example_finish(P, res);

    /* The sequential reference: every cell holds the value. */
    t0 = pram_example_clock();
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
        wrong += (x[i] != value) + (y[i] != value);
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 2 * n + 1; /* the value read once, written to the n cells of X and of Y */

    /* The report names the step, the line of the read, the cell and the two
     * least VPs, on one line (as in fatal mode: "EREW violation in step 1 at
     * pram_erew_violation.c:44: VPs 0 and 1 both read cell B[0]"). */
    int names = 0;
    for (const char *line = text; line && *line && !names;) {
        const char *eol = strchr(line, '\n');
        size_t ll = eol ? (size_t)(eol - line) : strlen(line);
        char one[512];
        snprintf(one, sizeof one, "%.*s", (int)(ll < sizeof one - 1 ? ll : sizeof one - 1), line);
        names = strstr(one, "EREW violation in step 1 at pram_erew_violation.c:44:") &&
                strstr(one, "VPs 0 and 1") && strstr(one, "read") && strstr(one, "B[0]");
        line = eol ? eol + 1 : NULL;
    }
    res->verified = wrong == 0 && reported == 1 && res->stats.violations == 1 && in_step1 == 1 &&
                    later == 0 && names;
    if (res->verified)
        snprintf(res->detail, sizeof res->detail, "1 violation reported as expected (step 1, B[0], VPs 0 and 1)");
    else
        snprintf(res->detail, sizeof res->detail,
                 "%" PRIu64 " violations (%" PRIu64 " in step 1, %" PRIu64 " later), %" PRIu64
                 " wrong cells; report names step 1, B[0], VPs 0 and 1: %s",
                 reported, in_step1, later, wrong, names ? "yes" : "no");
    free(x);
    free(y);
}

const pram_example pram_example_erew_violation = {
    .name = "erew_violation",
    .title = "a CREW broadcast run on EREW in report mode: the violation report, then the EREW doubling",
    .n_means = "cells to broadcast to",
    .models = PRAM_MODEL_BIT(BSPRAM_EREW),
    .model = BSPRAM_EREW,
    .min_n = 2,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_erew_violation); }
#endif
