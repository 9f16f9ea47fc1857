/* The superstep barrier: dissemination when every thread has a core,
 * centralised with yielding when they do not (see barrier_internal.h). */
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <string.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/environment.h"
#include "base/error.h"
#include "router/barrier_internal.h"
#include "router/router.h"

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() atomic_signal_fence(memory_order_seq_cst)
#endif

/* How long to wait actively before sleeping. A futex wake-up costs several
 * microseconds; a core-to-core hand-off about 0.1 µs. With a core each, a
 * few thousand spins cover the usual skew between arrivals (4000 pauses are
 * about 100 µs on the AMD EPYC of bench/RESULTS.md, "Contention").
 * Oversubscribed, the threads we wait for need our core: a waiter yields it
 * (sched_yield hands it to a runnable thread of the team in well under a
 * microsecond, far cheaper than a futex round trip) a bounded number of times,
 * then sleeps.
 *
 * Dedicated, but on a loaded machine (other processes' busy threads beside
 * the team), the kernel may put the two threads of a barrier on one core
 * (a futex wake-up pulls the wakee to the waker's core). Spinning there
 * only delays the thread waited for, which cannot run until the spinner
 * stops: with two busy loops on 2 cores an empty bsp_sync at P = 2 took
 * about 100 µs — exactly SPIN_DEDICATED pauses, then a futex hand-off. So a
 * waiter first compares its core with the one its sender last waited on
 * (sched_getcpu: a few ns, from rseq); on the same core it does not spin but
 * yields, which hands the core to the sender (0.5–3 µs per sync measured,
 * against 15–19 µs sleeping at once), for at most YIELD_COLOCATED yields and
 * YIELD_COLOCATED_NS, then sleeps: if a third thread shares the core, a
 * yield may give it a whole timeslice (milliseconds), so yielding stops once
 * that happens, and the next SLEEP_COLOCATED_AFTER_LOSS co-located waits of
 * this thread sleep at once (a futex hand-off, 15–20 µs) instead: at most one
 * lost timeslice per that many waits.
 * Without co-location nothing changed: on different cores spinning delays
 * nobody, and yielding there was measured pathological (a yield hands the
 * core to a busy loop for a timeslice: 2.5–3.5 ms per sync). */
enum {
    SPIN_DEDICATED = 4000,
    YIELD_BASE = 16,
    YIELD_PER_THREAD = 2,
    YIELD_COLOCATED = 64,
    SLEEP_COLOCATED_AFTER_LOSS = 256
};
#define YIELD_COLOCATED_NS 50000L /* 50 µs */
#define FORCED_NS 100000000L /* a forced way of waiting, 100 ms at most per wait */

/* BSPRAM_WAIT (base/environment.h): a way of waiting forced for measuring
 * the choice (bench/contention.sh): spin, yield or sleep at once; 0: ours. */
enum { WAIT_OURS, WAIT_SPIN, WAIT_YIELD, WAIT_SLEEP };
static int forced = -1;
static pthread_once_t forced_once = PTHREAD_ONCE_INIT;

static void read_forced(void)
{
    const char *w = bspram__base_environment_read().wait;
    forced = !w                       ? WAIT_OURS
             : !strcmp(w, "spin")     ? WAIT_SPIN
             : !strcmp(w, "yield")    ? WAIT_YIELD
             : !strcmp(w, "sleep")    ? WAIT_SLEEP
                                      : WAIT_OURS;
}

static int forced_wait(void)
{
    pthread_once(&forced_once, read_forced);
    return forced;
}
#define SLEEP_SLICE_NS 1000000L /* 1 ms */

/* The process's CPUs are the affinity mask of a thread the library has not
 * bound to a place: a bound thread's own mask is its place (bsp/threads.h),
 * one core, and counting it made bsp_nprocs() 1 in a BSPlib process run on
 * a bound team thread. The last mask read off an unbound thread is kept for
 * the bound ones (a mutex: the set is 128 bytes, read at a team's start,
 * never per superstep). */
static pthread_mutex_t cpus_lock = PTHREAD_MUTEX_INITIALIZER;
static cpu_set_t cpus_seen;
static bool cpus_known;
static _Thread_local bool placed;

bool bspram__router_cpus(cpu_set_t *cpus)
{
    cpu_set_t now;
    bool fresh = !placed && sched_getaffinity(0, sizeof now, &now) == 0 && CPU_COUNT(&now) > 0;
    pthread_mutex_lock(&cpus_lock);
    if (fresh) {
        cpus_seen = now;
        cpus_known = true;
    }
    bool known = cpus_known;
    if (known)
        *cpus = cpus_seen;
    pthread_mutex_unlock(&cpus_lock);
    return known;
}

void bspram__router_placed(bool on)
{
    if (on && !placed) {
        cpu_set_t before;
        bspram__router_cpus(&before); /* read while the mask is still the process's */
    }
    placed = on;
}

unsigned bspram__router_cores(void)
{
    cpu_set_t set;
    if (bspram__router_cpus(&set))
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

void bspram__router_barrier_init(bspram_barrier *b, unsigned n)
{
    bspram__router_barrier_init_as(b, n, n > 1 && n <= bspram__router_cores());
}

void bspram__router_barrier_init_as(bspram_barrier *b, unsigned n, bool dissemination)
{
    atomic_init(&b->count, 0);
    atomic_init(&b->tags[0], 0);
    atomic_init(&b->tags[1], 0);
    atomic_init(&b->generation, 0);
    atomic_init(&b->sleepers, 0);
    b->n = n ? n : 1;
    b->inbox = NULL;
    b->rounds = 0;
    if (b->n > 1 && dissemination) {
        while ((1u << b->rounds) < b->n)
            b->rounds++;
        b->inbox = aligned_alloc(64, sizeof *b->inbox * b->n);
        if (!b->inbox)
            bspram__base_fatal("a barrier of %u threads: out of memory", n);
        for (unsigned i = 0; i < b->n; i++) {
            for (unsigned k = 0; k < BSPRAM_BARRIER_ROUNDS; k++)
                for (int par = 0; par < 2; par++) {
                    atomic_init(&b->inbox[i].flag[k][par].episode, 0);
                    atomic_init(&b->inbox[i].flag[k][par].tag, 0);
                }
            bspram__router_waiter_init(&b->inbox[i].waiter);
            b->inbox[i].episodes = 0;
        }
    }
    b->spin = bspram__router_await_looks(b->n, b->inbox != NULL);
}

unsigned bspram__router_await_looks(unsigned n, bool dedicated)
{
    return dedicated ? SPIN_DEDICATED : YIELD_BASE + YIELD_PER_THREAD * n;
}

void bspram__router_barrier_destroy(bspram_barrier *b)
{
    free(b->inbox);
    b->inbox = NULL;
}

static int futex_op(int op, int how)
{
    return how & BSPRAM_AWAIT_SHARED ? op : op | FUTEX_PRIVATE_FLAG;
}

static void futex_wait(atomic_uint *addr, unsigned expected)
{
    syscall(SYS_futex, (unsigned *)addr, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *addr, int n)
{
    syscall(SYS_futex, (unsigned *)addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

static long elapsed_ns(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

void bspram__router_waiter_init(bspram_waiter *w)
{
    atomic_init(&w->sleeping, 0);
    atomic_init(&w->cpu, UINT_MAX);
    w->sleep_colocated = 0;
}

/* See the constants. The `cpu` words are hints, relaxed: a stale one costs
 * at most the spin or the yields, never correctness, which rests on the flag
 * alone. */
/* A forced way of waiting (BSPRAM_WAIT): spin or yield for up to
 * FORCED_NS, or not at all; then asleep. Returns whether the flag came. */
static bool wait_forced(atomic_uint *flag, unsigned e, int mode)
{
    if (mode == WAIT_SLEEP)
        return false;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 1;; i++) {
        if (mode == WAIT_SPIN)
            cpu_relax();
        else
            sched_yield();
        if (atomic_load_explicit(flag, memory_order_acquire) == e)
            return true;
        if ((mode == WAIT_YIELD || !(i & 1023)) && elapsed_ns(&t0) > FORCED_NS)
            return false;
    }
}

void bspram__router_await(atomic_uint *flag, unsigned e, bspram_waiter *me, const bspram_waiter *from,
                          unsigned spin, int how)
{
    const int mode = forced_wait();
    if (mode != WAIT_OURS) {
        if (wait_forced(flag, e, mode))
            return;
        spin = 0;
        how &= ~BSPRAM_AWAIT_YIELD;
        from = NULL;
    }
    int c = sched_getcpu();
    unsigned cpu = c < 0 ? UINT_MAX - 1 : (unsigned)c;
    if (atomic_load_explicit(&me->cpu, memory_order_relaxed) != cpu)
        atomic_store_explicit(&me->cpu, cpu, memory_order_relaxed);
    const bool colocated = c >= 0 && from && atomic_load_explicit(&from->cpu, memory_order_relaxed) == cpu;
    if (colocated || (how & BSPRAM_AWAIT_YIELD)) {
        /* Yielding, which loses a timeslice to a busy process beside us:
         * sleep at once for a while after that happened. */
        if (me->sleep_colocated) {
            me->sleep_colocated--;
        } else {
            struct timespec t0;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (unsigned y = 0; y < (colocated ? YIELD_COLOCATED : spin); y++) {
                sched_yield();
                if (atomic_load_explicit(flag, memory_order_acquire) == e)
                    return;
                if (elapsed_ns(&t0) > YIELD_COLOCATED_NS) {
                    me->sleep_colocated = SLEEP_COLOCATED_AFTER_LOSS;
                    break;
                }
            }
        }
    } else {
        for (unsigned i = 0; i < spin; i++) {
            cpu_relax();
            if (atomic_load_explicit(flag, memory_order_acquire) == e)
                return;
        }
    }
    atomic_store_explicit(&me->sleeping, 1, memory_order_seq_cst);
    unsigned seen;
    const struct timespec slice = {0, SLEEP_SLICE_NS};
    while ((seen = atomic_load_explicit(flag, memory_order_acquire)) != e)
        syscall(SYS_futex, (unsigned *)flag, futex_op(FUTEX_WAIT, how), seen, &slice, NULL, 0);
    atomic_store_explicit(&me->sleeping, 0, memory_order_relaxed);
}

void bspram__router_wake(atomic_uint *flag, const bspram_waiter *to, int how)
{
    if (atomic_load_explicit(&to->sleeping, memory_order_relaxed))
        syscall(SYS_futex, (unsigned *)flag, futex_op(FUTEX_WAKE, how), INT_MAX, NULL, NULL, 0);
}

/* Dissemination: episode numbers start at 1; flags of parity e&1 are written
 * in episodes e and e+2 only, and a sender reaches episode e+2 only after
 * this thread has left episode e, so equality is an exact test.
 *
 * Sleeping. A signal is a release store followed by a plain look at the
 * receiver's `sleeping` word — no fence, which would make the sender wait
 * for its store to reach the receiver (a quarter of the barrier's time at
 * n = 2). Without the fence the look may miss a receiver that went to sleep
 * in the same instant; so a sleeper never sleeps longer than SLEEP_SLICE_NS
 * at a time before it looks at its flag again. A missed wake-up thus costs at
 * most one slice, only to a thread that had already waited out its spins. */
static unsigned dissemination(bspram_barrier *b, unsigned id, unsigned tag, void (*work)(void *),
                              void *arg)
{
    bspram_barrier_inbox *me = &b->inbox[id];
    unsigned e = ++me->episodes, par = e & 1u, acc = tag;
    for (unsigned k = 0; k < b->rounds; k++) {
        bspram_barrier_inbox *to = &b->inbox[(id + (1u << k)) % b->n];
        bspram_barrier_flag *out = &to->flag[k][par];
        atomic_store_explicit(&out->tag, acc, memory_order_relaxed);
        atomic_store_explicit(&out->episode, e, memory_order_release);
        bspram__router_wake(&out->episode, &to->waiter, 0);
        if (k + 1 == b->rounds && work) /* our last signal is sent, nobody waits for us */
            work(arg);

        atomic_uint *flag = &me->flag[k][par].episode;
        if (atomic_load_explicit(flag, memory_order_acquire) != e)
            bspram__router_await(flag, e, &me->waiter, &b->inbox[(id + b->n - (1u << k) % b->n) % b->n].waiter,
                                 b->spin, 0);
        acc |= atomic_load_explicit(&me->flag[k][par].tag, memory_order_relaxed);
    }
    return acc;
}

static unsigned centralised(bspram_barrier *b, unsigned tag, void (*work)(void *), void *arg)
{
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
            futex_wake(&b->generation, INT_MAX);
        if (work)
            work(arg);
    } else {
        if (work)
            work(arg);
        unsigned spins = 0;
        const int mode = forced_wait();
        if (mode != WAIT_OURS && atomic_load_explicit(&b->generation, memory_order_acquire) == gen) {
            wait_forced(&b->generation, gen + 1, mode);
            spins = b->spin;
        }
        while (atomic_load_explicit(&b->generation, memory_order_acquire) == gen) {
            if (++spins < b->spin) {
                sched_yield();
                continue;
            }
            /* seq_cst on both sides orders our sleepers increment against the
             * releaser's generation bump: either it sees us and wakes us, or
             * we see the new generation and do not sleep. */
            atomic_fetch_add_explicit(&b->sleepers, 1, memory_order_seq_cst);
            while (atomic_load_explicit(&b->generation, memory_order_seq_cst) == gen)
                futex_wait(&b->generation, gen);
            atomic_fetch_sub_explicit(&b->sleepers, 1, memory_order_relaxed);
        }
    }
    return atomic_load_explicit(&b->tags[parity], memory_order_relaxed);
}

unsigned bspram__router_barrier_wait(bspram_barrier *b, unsigned id, unsigned tag)
{
    return bspram__router_barrier_wait_doing(b, id, tag, NULL, NULL);
}

unsigned bspram__router_barrier_wait_doing(bspram_barrier *b, unsigned id, unsigned tag,
                                   void (*work)(void *), void *arg)
{
    if (b->n == 1) {
        if (work)
            work(arg);
        return tag;
    }
    return b->inbox ? dissemination(b, id, tag, work, arg) : centralised(b, tag, work, arg);
}
