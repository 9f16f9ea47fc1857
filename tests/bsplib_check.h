/* Helpers for the BSPlib tests: checks from inside BSP processes (threads),
 * and the process counts every classic program is run with. */
#ifndef BSPRAM_TESTS_BSPLIB_CHECK_H
#define BSPRAM_TESTS_BSPLIB_CHECK_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <bsp.h>

#include "check.h"

/* The process counts every classic program runs with: odd, even, and
 * oversubscribed (P = 64 on any machine). */
static const unsigned bsplib_test_ps[] = {1, 2, 3, 4, 8, 64};
#define BSPLIB_TEST_NPS (sizeof bsplib_test_ps / sizeof bsplib_test_ps[0])

/* CHECK's counters are plain ints of the main thread; processes count their
 * failures here, and the main thread checks the total after bsp_end. */
static atomic_int spmd_failures;

#define SPMD_CHECK(cond)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            atomic_fetch_add(&spmd_failures, 1);                                          \
            fprintf(stderr, "%s:%d: SPMD_CHECK failed on pid %u: %s\n", __FILE__, __LINE__, \
                    bsp_pid(), #cond);                                                    \
        }                                                                                 \
    } while (0)

/* After a section: one CHECK that no process failed; reset. */
#define CHECK_SPMD(what)                                                                  \
    do {                                                                                  \
        int f_ = atomic_exchange(&spmd_failures, 0);                                      \
        if (f_)                                                                           \
            fprintf(stderr, "%s: %d failed checks in the processes\n", (what), f_);       \
        CHECK(f_ == 0);                                                                   \
    } while (0)

/* Every process's word v, in pid order, on pid 0: a malloc'd array of
 * bsp_nprocs() words there (free it), NULL elsewhere. A BSPlib program
 * cannot read another process's variables (over MPI they live in another
 * address space), so the tests bring what pid 0 checks to it. Three
 * supersteps. */
static inline uint64_t *spmd_words_at_pid0(uint64_t v)
{
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    uint64_t *all = calloc(p, sizeof *all);
    bsp_push_reg(all, p * sizeof *all);
    bsp_sync();
    bsp_put(0, &v, all, s * sizeof v, sizeof v);
    bsp_sync();
    bsp_pop_reg(all);
    bsp_sync();
    if (s == 0)
        return all;
    free(all);
    return NULL;
}

/* Main's *var on every process: main sets it after bsp_init, so over MPI
 * only pid 0's copy has it; pid 0 reads it and sends it to the others (one
 * superstep). */
static inline int spmd_int_from_pid0(const int *var)
{
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    int v = s == 0 ? *var : 0;
    if (s == 0)
        for (unsigned t = 1; t < p; t++)
            bsp_send(t, NULL, &v, sizeof v);
    bsp_sync();
    if (s != 0)
        bsp_move(&v, sizeof v);
    return v;
}

/* The main of a classic-program test, shape (a): run spmd once for every P
 * of bsplib_test_ps (bsp_begin(*P) in the program: pid 0 reads main's P,
 * and BSPlib gives the others its value), check that no process of this
 * address space failed after each run, and report. */
static inline int bsplib_test_every_p(int argc, char **argv, void (*spmd)(void), unsigned *P,
                                      const char *what, const char *test_name)
{
    bsp_init(spmd, argc, argv);
    for (size_t k = 0; k < BSPLIB_TEST_NPS; k++) {
        *P = bsplib_test_ps[k];
        spmd();
        CHECK_SPMD(what);
    }
    return check_report(test_name);
}

#endif
