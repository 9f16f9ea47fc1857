/* bspram — the barrier that ends every superstep.
 *
 * A centralised sense-reversing barrier (one atomic counter and a generation
 * word) that spins briefly and then sleeps on a futex. When the team is larger
 * than the number of cores (oversubscription) the spin is cut short, so a
 * waiting thread gives its core to the threads that still have to arrive; this
 * is what keeps P = 64 on 2 cores fast (no unbounded spinning, ever).
 *
 * Each arrival also contributes a 32-bit tag; every thread leaves with the OR
 * of all tags of that episode. The router uses it to skip empty exchanges in
 * one barrier; the BSPlib layer uses it to detect a process that reached
 * bsp_end while the others were in bsp_sync.
 *
 * Memory model: every write a thread made before arriving happens-before every
 * read any thread makes after leaving (release on arrival, acquire on leave).
 */
#ifndef BSPRAM_ROUTER_BARRIER_H
#define BSPRAM_ROUTER_BARRIER_H

#include <stdatomic.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bspram_barrier {
    _Alignas(64) atomic_uint count;      /* arrivals in the current episode */
    atomic_uint tags[2];                 /* OR of tags, by episode parity */
    _Alignas(64) atomic_uint generation; /* bumped by the last arrival */
    atomic_uint sleepers;                /* threads blocked in futex_wait */
    unsigned n;                          /* team size */
    unsigned spin;                       /* spins before sleeping */
} bspram_barrier;

/* Prepare a barrier for a team of n ≥ 1 threads. */
void bspram_barrier_init(bspram_barrier *b, unsigned n);

/* Wait until all n threads have arrived; return the OR of their tags. */
unsigned bspram_barrier_wait(bspram_barrier *b, unsigned tag);

/* Number of cores available to this process (sched_getaffinity), ≥ 1. */
unsigned bspram_cores(void);

#ifdef __cplusplus
}
#endif
#endif
