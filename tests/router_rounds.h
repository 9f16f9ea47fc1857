/* The router tests' rounds: supersteps of a test's posts, each followed by
 * the exchange and a check of every inbox, then the superstep records
 * against the sequential reference (router_records.h). A test gives its
 * posts, its check of one inbox and its records' actions. */
#ifndef BSPRAM_TESTS_ROUTER_ROUNDS_H
#define BSPRAM_TESTS_ROUTER_ROUNDS_H

#include <omp.h>

#include "check.h"
#include "router_records.h"
#include "router/router_internal.h"

/* Lane `lane`'s posts of superstep s. */
typedef void router_post_fn(bspram_router *r, unsigned lane, uint64_t p, uint64_t s, uint64_t seed);
/* 1 if dst's inbox of superstep s is wrong; runs_whole: the transport
 * builds runs itself (each run posted is one run of the inbox). */
typedef int router_check_fn(bspram_router *r, unsigned lane, uint64_t p, uint64_t s, uint64_t dst, uint64_t seed,
                            int runs_whole);

/* `supersteps` supersteps on p components and `lanes` lanes; windows_from
 * ≠ 0 sets the bytes from which a lane posts through its windows. */
static inline void router_rounds(uint64_t p, unsigned lanes, uint64_t supersteps, uint64_t seed,
                                 uint64_t windows_from, router_post_fn *post_all, router_check_fn *check_inbox,
                                 unsigned actions, router_action_fn *counted)
{
    bspram_router *r = bspram__router_create(p, lanes);
    if (windows_from)
        r->windows_from = windows_from;
    const int runs_whole = r->transport->build_runs != NULL;
    int wrong = 0;
#pragma omp parallel num_threads((int)lanes) reduction(+ : wrong)
    {
        unsigned lane = (unsigned)omp_get_thread_num();
        uint64_t first = bspram__router_lane_first(r, lane), end = bspram__router_lane_first(r, lane + 1);
        for (uint64_t s = 0; s < supersteps; s++) {
            post_all(r, lane, p, s, seed);
            bspram__router_exchange(r, lane, 0);
            for (uint64_t d = first; d < end; d++)
                wrong += check_inbox(r, lane, p, s, d, seed, runs_whole);
        }
        bspram__router_leave(r, lane);
    }
    CHECK_EQ_U64(wrong, 0);
    const bspram_log *log = bspram__router_log(r);
    CHECK_EQ_U64(log->n, supersteps);
    check_router_records(log, p, supersteps, actions, seed, counted);
    bspram__router_destroy(r);
}

#endif
