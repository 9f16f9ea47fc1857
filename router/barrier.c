/* Spin-then-sleep sense-reversing barrier with a tag OR (see barrier.h). */
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "router/barrier.h"

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() atomic_signal_fence(memory_order_seq_cst)
#endif

/* Spins before sleeping. A futex wake-up costs a few microseconds; a core-to-
 * core hand-off about 0.1 µs, so when every thread has a core a few thousand
 * spins cover the usual skew between arrivals. When threads outnumber cores
 * the thread we wait for may need our core: spin only a little. */
enum { SPIN_DEDICATED = 20000, SPIN_OVERSUBSCRIBED = 64 };

unsigned bspram_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return (unsigned)n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

void bspram_barrier_init(bspram_barrier *b, unsigned n)
{
    atomic_init(&b->count, 0);
    atomic_init(&b->tags[0], 0);
    atomic_init(&b->tags[1], 0);
    atomic_init(&b->generation, 0);
    atomic_init(&b->sleepers, 0);
    b->n = n ? n : 1;
    b->spin = b->n <= bspram_cores() ? SPIN_DEDICATED : SPIN_OVERSUBSCRIBED;
}

static void futex_wait(atomic_uint *addr, unsigned expected)
{
    syscall(SYS_futex, (unsigned *)addr, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake_all(atomic_uint *addr)
{
    syscall(SYS_futex, (unsigned *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

unsigned bspram_barrier_wait(bspram_barrier *b, unsigned tag)
{
    if (b->n == 1)
        return tag;
    unsigned gen = atomic_load_explicit(&b->generation, memory_order_acquire);
    unsigned parity = gen & 1u;
    if (tag)
        atomic_fetch_or_explicit(&b->tags[parity], tag, memory_order_relaxed);
    if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) == b->n - 1) {
        /* Last arrival: reset for the next episode and release everyone. The
         * tags of the *next* parity were last read in the previous episode,
         * which every thread has left (they all arrived here). */
        atomic_store_explicit(&b->count, 0, memory_order_relaxed);
        atomic_store_explicit(&b->tags[parity ^ 1u], 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&b->generation, 1, memory_order_seq_cst);
        if (atomic_load_explicit(&b->sleepers, memory_order_seq_cst))
            futex_wake_all(&b->generation);
    } else {
        unsigned spins = 0;
        while (atomic_load_explicit(&b->generation, memory_order_acquire) == gen) {
            if (++spins < b->spin) {
                cpu_relax();
                continue;
            }
            /* seq_cst on both sides (here and in the releaser) orders our
             * sleepers increment against its generation bump: either it sees
             * us and wakes us, or we see the new generation and do not sleep. */
            atomic_fetch_add_explicit(&b->sleepers, 1, memory_order_seq_cst);
            while (atomic_load_explicit(&b->generation, memory_order_seq_cst) == gen)
                futex_wait(&b->generation, gen);
            atomic_fetch_sub_explicit(&b->sleepers, 1, memory_order_relaxed);
        }
    }
    return atomic_load_explicit(&b->tags[parity], memory_order_relaxed);
}
