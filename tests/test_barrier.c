/* The superstep barrier: nobody leaves before everyone arrived, the tag OR
 * reaches everyone, and the sleeping path (a late thread, after the others
 * spun out and went to sleep) neither hangs nor loses a wake-up; for the
 * dissemination barrier (n ≤ cores) and the centralised one (n > cores). */
#include <omp.h>
#include <stdatomic.h>
#include <time.h>

#include "router/barrier_internal.h"
#include "check.h"

static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static void run(unsigned n, unsigned episodes)
{
    bspram_barrier b;
    bspram_barrier_init(&b, n);
    atomic_uint arrived = 0;
    atomic_int early = 0, wrong_or = 0;
#pragma omp parallel num_threads((int)n)
    {
        unsigned id = (unsigned)omp_get_thread_num();
        for (unsigned e = 0; e < episodes; e++) {
            /* Every 8th episode one thread is late by 3 ms: the others
             * exhaust their spins and sleep. */
            if (e % 8 == 7 && id == e % n)
                nap_us(3000);
            atomic_fetch_add(&arrived, 1);
            unsigned tag = (e % 3 == 0) ? 1u << (id % 28) : 0u;
            unsigned all = bspram_barrier_wait(&b, id, tag);
            if (atomic_load(&arrived) < n * (e + 1))
                atomic_fetch_add(&early, 1);
            unsigned want = 0;
            if (e % 3 == 0)
                for (unsigned i = 0; i < n; i++)
                    want |= 1u << (i % 28);
            if (all != want)
                atomic_fetch_add(&wrong_or, 1);
            /* A second barrier keeps the next episode's arrivals from
             * racing with this episode's check. */
            bspram_barrier_wait(&b, id, 0);
        }
    }
    CHECK_EQ_U64(atomic_load(&early), 0);
    CHECK_EQ_U64(atomic_load(&wrong_or), 0);
    bspram_barrier_destroy(&b);
}

int main(void)
{
    static const unsigned ns[] = {1, 2, 3, 8, 33};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        run(ns[i], 64);
    return check_report("test_barrier");
}
