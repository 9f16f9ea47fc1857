/* bspram — the barrier that ends every superstep (internal: the shared-memory
 * transport's allreduce).
 *
 * Two algorithms, chosen by the team's size against the cores:
 *
 *   dedicated (n ≤ cores): a dissemination barrier (Hensgen, Finkel and
 *     Manber 1988): in round k = 0..⌈log2 n⌉−1 thread i signals thread
 *     (i + 2^k) mod n and waits for thread (i − 2^k) mod n. Each signal is a
 *     store to a flag the receiver alone reads, so n = 2 costs one flag swap
 *     (≈ one core-to-core latency) instead of the three cache-line transfers
 *     of a counter barrier. A waiter spins briefly, then sleeps on a futex;
 *     but one whose sender last waited on the same core (a loaded machine)
 *     yields that core instead of spinning, then sleeps.
 *   oversubscribed (n > cores): a centralised sense-reversing barrier (one
 *     atomic counter, one generation word). Waiters yield their core to the
 *     threads that still have to arrive, a bounded number of times in
 *     proportion to n, then sleep on a futex. Dissemination would need every
 *     thread scheduled ⌈log2 n⌉ times per episode; this needs it once.
 *
 * Nothing waits actively without bound. The wait itself (bspram__router_await,
 * below) also serves the MPI transport's reduction among the ranks of one
 * node (mpi_node.h), on flags shared between processes.
 *
 * Each arrival also contributes a 32-bit tag; every thread leaves with the OR
 * of all tags of that episode (dissemination computes it on the way: OR is
 * idempotent). The router uses it to skip empty exchanges; the BSPlib layer
 * to detect a process that reached bsp_end while the others were in bsp_sync.
 *
 * Memory model: every write a thread made before arriving happens-before every
 * read any thread makes after leaving (release on signal, acquire on wait).
 */
#ifndef BSPRAM_ROUTER_BARRIER_INTERNAL_H
#define BSPRAM_ROUTER_BARRIER_INTERNAL_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BSPRAM_BARRIER_ROUNDS 32

/* One signal of the dissemination barrier: the sender's tag OR and the
 * episode it belongs to, in one cache line's reach. */
typedef struct bspram_barrier_flag {
    atomic_uint episode;
    atomic_uint tag;
} bspram_barrier_flag;

/* What a waiter shows the threads (or processes) that signal it: whether
 * it sleeps, so that they wake it, and the core it last waited on, so that a
 * waiter on the same core yields it instead of spinning (barrier.c). The
 * owner alone writes it, and only when it sleeps or changes core; signallers
 * read it after each signal, so it has a cache line of its own. */
typedef struct bspram_waiter {
    _Alignas(64) atomic_uint sleeping; /* the owner is (about to be) in futex_wait */
    atomic_uint cpu;                   /* the core the owner last waited on (UINT_MAX: none
                                          yet); written only when it changes */
    unsigned sleep_colocated;          /* yielding waits left that sleep at once (a yield
                                          lost the core to a third thread or process) */
} bspram_waiter;

/* The flags one thread receives in the dissemination barrier, by round and
 * episode parity (a sender can be at most one episode ahead), then its
 * waiter, then its episode count on a line of its own. */
typedef struct bspram_barrier_inbox {
    _Alignas(64) bspram_barrier_flag flag[BSPRAM_BARRIER_ROUNDS][2];
    bspram_waiter waiter;
    _Alignas(64) unsigned episodes;    /* episodes the owner has started */
} bspram_barrier_inbox;

typedef struct bspram_barrier {
    /* centralised (oversubscribed) */
    _Alignas(64) atomic_uint count;      /* arrivals in the current episode */
    atomic_uint tags[2];                 /* OR of tags, by episode parity */
    _Alignas(64) atomic_uint generation; /* bumped by the last arrival */
    atomic_uint sleepers;                /* threads blocked in futex_wait */
    /* dissemination (dedicated) */
    bspram_barrier_inbox *inbox;         /* [n], NULL when centralised */
    unsigned rounds;
    unsigned n;                          /* team size */
    unsigned spin;                       /* active waits before sleeping */
} bspram_barrier;

/* Prepare a barrier for a team of n ≥ 1 threads; bspram__router_barrier_destroy
 * frees it. */
void bspram__router_barrier_init(bspram_barrier *b, unsigned n);
/* The same with the algorithm chosen by the caller (tests: dissemination
 * among more threads than cores, which works, only slower). */
void bspram__router_barrier_init_as(bspram_barrier *b, unsigned n, bool dissemination);
void bspram__router_barrier_destroy(bspram_barrier *b);

/* Thread `id` ∈ [0, n) waits until all n threads have arrived; returns the OR
 * of their tags. Each thread must always use the same id. */
unsigned bspram__router_barrier_wait(bspram_barrier *b, unsigned id, unsigned tag);

/* The same, calling work(arg) once while waiting: when no other thread waits
 * for this one any more in this episode (its last signal sent, or its count
 * added), before it waits for the others. Work that would otherwise follow
 * the barrier, and needs nothing from this episode, so leaves the critical
 * path when the others arrive later or the signals are in flight. */
unsigned bspram__router_barrier_wait_doing(bspram_barrier *b, unsigned id, unsigned tag,
                                   void (*work)(void *), void *arg);

/* How a waiter waits (bspram__router_await): BSPRAM_AWAIT_YIELD yields its
 * core between looks (more threads than cores) instead of spinning;
 * BSPRAM_AWAIT_SHARED: the flag is in memory shared between processes, so
 * the futexes are not private. */
enum { BSPRAM_AWAIT_YIELD = 1, BSPRAM_AWAIT_SHARED = 2 };

void bspram__router_waiter_init(bspram_waiter *w);

/* The looks before sleeping of a team of n: spins with a core each
 * (dedicated), else yields in proportion to n. */
unsigned bspram__router_await_looks(unsigned n, bool dedicated);

/* Waits until *flag == e, the signal of the owner of `from` (NULL: unknown):
 * `spin` looks first (spinning, or yielding with BSPRAM_AWAIT_YIELD; on the
 * core `from` last waited on it yields at once), then sleeps on the flag,
 * never longer than a millisecond between looks. Yielding stops after 50 µs
 * (a busy process took the core for a timeslice), and the waiter's next
 * 256 yielding waits sleep at once. Acquire: what the
 * signaller wrote before its release store of e is visible after. */
void bspram__router_await(atomic_uint *flag, unsigned e, bspram_waiter *me, const bspram_waiter *from,
                          unsigned spin, int how);

/* After a release store to *flag: if the owner of `to` sleeps, wakes the
 * sleepers on that flag (a sleeper on another flag sleeps on). A relaxed
 * look without a fence, so a sleeper that went to sleep in the same
 * instant is missed and sleeps out its millisecond (barrier.c). */
void bspram__router_wake(atomic_uint *flag, const bspram_waiter *to, int how);

/* Number of cores available to this process (its affinity mask, as
 * bspram__router_cpus), ≥ 1. */
unsigned bspram__router_cores(void);

/* The CPUs this process may use: the calling thread's affinity mask unless
 * the library bound it to a place (then the mask last read off a thread it
 * had not bound). False if none could be read. */
bool bspram__router_cpus(cpu_set_t *cpus);

/* Tell the router that the calling thread is about to be bound to a place
 * (on) or was given back the process's mask (off): call before binding. */
void bspram__router_placed(bool on);

#ifdef __cplusplus
}
#endif
#endif
