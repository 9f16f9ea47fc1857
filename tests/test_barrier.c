/* The superstep barrier: nobody leaves before everyone arrived, the tag OR
 * reaches everyone, and the sleeping path (a late thread, after the others
 * spun out and went to sleep) neither hangs nor loses a wake-up; work done
 * while waiting holds nobody else up; for the dissemination barrier
 * (n ≤ cores) and the centralised one (n > cores). */
#include <omp.h>
#include <stdatomic.h>
#include <time.h>

#include "router/barrier_internal.h"
#include "check.h"
#include "router/router.h"

static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static void run(unsigned n, unsigned episodes)
{
    bspram_barrier b;
    bspram__router_barrier_init(&b, n);
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
            unsigned all = bspram__router_barrier_wait(&b, id, tag);
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
            bspram__router_barrier_wait(&b, id, 0);
        }
    }
    CHECK_EQ_U64(atomic_load(&early), 0);
    CHECK_EQ_U64(atomic_load(&wrong_or), 0);
    bspram__router_barrier_destroy(&b);
}

/* bspram__router_barrier_wait_doing: the work runs once per episode, inside the
 * call, and when no other thread waits for its caller any more — so while
 * thread 0 works, every other thread can leave the barrier. Thread 0's work
 * waits (up to 2 s) for all of them to have left; a barrier that made them
 * wait for it would time out here. */
typedef struct doing {
    atomic_uint left;     /* threads that returned from this episode's barrier */
    unsigned n, episode;  /* written by thread 0 only */
    unsigned calls;       /* written by thread 0 only */
    atomic_int stuck;
} doing;

static void work(void *arg)
{
    doing *d = arg;
    d->calls++;
    unsigned want = (d->n - 1) * (d->episode + 1);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (atomic_load(&d->left) < want) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 2000000000L) {
            atomic_store(&d->stuck, 1);
            return;
        }
        nap_us(10);
    }
}

static void run_doing(unsigned n, unsigned episodes, bool dissemination)
{
    bspram_barrier b;
    bspram__router_barrier_init_as(&b, n, dissemination);
    doing d = {.n = n};
    atomic_int wrong_or = 0;
#pragma omp parallel num_threads((int)n)
    {
        unsigned id = (unsigned)omp_get_thread_num();
        for (unsigned e = 0; e < episodes; e++) {
            if (id == 0)
                d.episode = e;
            unsigned all = bspram__router_barrier_wait_doing(&b, id, 1u << (id % 28), id == 0 ? work : NULL, &d);
            unsigned want = 0;
            for (unsigned i = 0; i < n; i++)
                want |= 1u << (i % 28);
            if (all != want)
                atomic_fetch_add(&wrong_or, 1);
            if (id != 0)
                atomic_fetch_add(&d.left, 1);
            bspram__router_barrier_wait(&b, id, 0); /* thread 0's next episode number waits for all */
        }
    }
    CHECK_EQ_U64(d.calls, episodes);
    CHECK_EQ_U64(atomic_load(&d.stuck), 0);
    CHECK_EQ_U64(atomic_load(&wrong_or), 0);
    bspram__router_barrier_destroy(&b);
}

int main(void)
{
    static const unsigned ns[] = {1, 2, 3, 8, 33};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        run(ns[i], 64);
        run_doing(ns[i], 16, false);
        run_doing(ns[i], 16, true);
    }
    return check_report("test_barrier");
}
