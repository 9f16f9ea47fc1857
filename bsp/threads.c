/* The threads that run a team (threads.h): a pool of POSIX threads, each
 * waiting for its next lane on a futex word of its own. */
#include "bsp/threads.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/environment.h"
#include "base/error.h"
#include "router/barrier_internal.h" /* the barrier's wait: bspram__router_cores, its looks */

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() atomic_signal_fence(memory_order_seq_cst)
#endif

/* One pool thread. The master of a team writes the lane's job, then bumps
 * `job` (release); the thread runs it and counts itself out of the team's
 * `done`. Only the thread touches `cpus_now`. */
typedef struct worker {
    _Alignas(64) atomic_uint job;   /* jobs handed out so far; the thread's futex */
    atomic_uint sleeping;           /* the thread is (about to be) in futex_wait */
    /* the job, written before `job` is bumped */
    void (*fn)(unsigned lane, void *arg);
    void *arg;
    unsigned lane;
    unsigned looks;                 /* active looks before sleeping, this team's */
    struct team_done *done;
    const cpu_set_t *cpus;          /* the lane's place; NULL: the pool's mask */
    /* the thread's own */
    _Alignas(64) int bound;         /* cpus_now is not the pool's mask */
    cpu_set_t cpus_now;
    pthread_t tid;
} worker;

/* A team's count of lanes still running, on which its master waits. One per
 * master thread, never freed (a pool thread may look at it after the master
 * left: its count is its last write). */
typedef struct team_done {
    _Alignas(64) atomic_uint left;
    atomic_uint sleeping;
    struct team_done *next;         /* every one, reachable (not a leak) */
} team_done;

static struct {
    pthread_mutex_t lock;
    worker **w;     /* [n] */
    unsigned char *busy;
    unsigned n, cap;
    cpu_set_t mask; /* the process's CPUs (bspram__router_cpus), a new thread's and an unbound one's */
    int have_mask;
    team_done *dones;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local team_done *my_done;

static void futex_wait(atomic_uint *addr, unsigned expected)
{
    syscall(SYS_futex, (unsigned *)addr, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake(atomic_uint *addr)
{
    syscall(SYS_futex, (unsigned *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Wait until *word != seen: `looks` active looks, then asleep. The sleeper
 * announces itself (seq_cst) before its last look, the signaller looks at
 * the announcement (seq_cst) after its store: one of the two sees the
 * other, so no wake-up is missed and a sleeper needs no timeout. */
static unsigned wait_change(atomic_uint *word, unsigned seen, atomic_uint *sleeping, unsigned looks)
{
    unsigned v;
    for (unsigned i = 0; i < looks; i++) {
        if ((v = atomic_load_explicit(word, memory_order_acquire)) != seen)
            return v;
        cpu_relax();
    }
    for (;;) {
        atomic_store_explicit(sleeping, 1, memory_order_seq_cst);
        if ((v = atomic_load_explicit(word, memory_order_seq_cst)) != seen)
            break;
        futex_wait(word, seen);
    }
    atomic_store_explicit(sleeping, 0, memory_order_relaxed);
    return v;
}

static void place(worker *w)
{
    const cpu_set_t *want = w->cpus;
    if (want) {
        if (w->bound && CPU_EQUAL(&w->cpus_now, want))
            return;
        bspram__router_placed(true);
        if (sched_setaffinity(0, sizeof *want, want) == 0) {
            w->cpus_now = *want;
            w->bound = 1;
        }
    } else if (w->bound) {
        if (pool.have_mask)
            sched_setaffinity(0, sizeof pool.mask, &pool.mask);
        bspram__router_placed(false);
        w->bound = 0;
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    unsigned seen = 0, looks = 0;
    for (;;) {
        seen = wait_change(&w->job, seen, &w->sleeping, looks);
        place(w);
        looks = w->looks;
        team_done *d = w->done;
        w->fn(w->lane, w->arg);
        if (atomic_fetch_sub_explicit(&d->left, 1, memory_order_seq_cst) == 1 &&
            atomic_load_explicit(&d->sleeping, memory_order_seq_cst))
            futex_wake(&d->left);
    }
    return NULL;
}

/* OMP_STACKSIZE as OpenMP reads it: a number with an optional unit B, K, M
 * or G (K if none); 0 if unset or not such a number. */
static size_t stack_size(void)
{
    const char *s = bspram__base_environment_read().omp_stacksize;
    if (!s)
        return 0;
    while (*s == ' ' || *s == '\t')
        s++;
    unsigned long long v = 0;
    if (*s < '0' || *s > '9')
        return 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (1ULL << 40))
            return 0;
        v = v * 10 + (unsigned)(*s - '0');
    }
    while (*s == ' ' || *s == '\t')
        s++;
    unsigned shift = 10;
    switch (*s) {
    case 'b': case 'B': shift = 0; s++; break;
    case 'k': case 'K': shift = 10; s++; break;
    case 'm': case 'M': shift = 20; s++; break;
    case 'g': case 'G': shift = 30; s++; break;
    default: break;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s || v == 0 || v > (SIZE_MAX >> shift) >> 1)
        return 0;
    return (size_t)v << shift;
}

/* The pool's threads [0, want), started as needed (under the lock): 0, or
 * the error of the first thread that could not start (*index: which). */
static int grow(unsigned want, unsigned *index)
{
    if (want <= pool.n)
        return 0;
    if (want > pool.cap) {
        unsigned cap = pool.cap ? pool.cap : 16;
        while (cap < want)
            cap *= 2;
        worker **w = realloc(pool.w, sizeof *w * cap);
        if (w)
            pool.w = w;
        unsigned char *b = w ? realloc(pool.busy, cap) : NULL;
        if (b)
            pool.busy = b;
        if (!w || !b)
            return *index = pool.n, ENOMEM;
        pool.cap = cap;
    }
    if (!pool.have_mask)
        pool.have_mask = bspram__router_cpus(&pool.mask);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (pool.have_mask) /* not the mask of a creator bound to its place */
        pthread_attr_setaffinity_np(&attr, sizeof pool.mask, &pool.mask);
    size_t stack = stack_size();
    if (stack)
        pthread_attr_setstacksize(&attr, stack < 65536 ? 65536 : stack);
    int err = 0;
    while (pool.n < want) {
        worker *w = aligned_alloc(64, (sizeof *w + 63) / 64 * 64);
        if (!w) {
            err = ENOMEM;
            break;
        }
        memset(w, 0, sizeof *w);
        atomic_init(&w->job, 0);
        atomic_init(&w->sleeping, 0);
        if ((err = pthread_create(&w->tid, &attr, worker_main, w)) != 0) {
            free(w);
            break;
        }
        pool.w[pool.n] = w;
        pool.busy[pool.n++] = 0;
    }
    pthread_attr_destroy(&attr);
    *index = pool.n;
    return err;
}

static team_done *done_of_this_thread(void)
{
    if (!my_done) {
        team_done *d = aligned_alloc(64, (sizeof *d + 63) / 64 * 64);
        if (!d)
            bspram__base_fatal("out of memory for a team's threads");
        memset(d, 0, sizeof *d);
        pthread_mutex_lock(&pool.lock);
        d->next = pool.dones;
        pool.dones = d;
        pthread_mutex_unlock(&pool.lock);
        my_done = d;
    }
    return my_done;
}

bool bspram__bsp_threads_bind(const cpu_set_t *cpus, cpu_set_t *saved)
{
    if (!cpus || sched_getaffinity(0, sizeof *saved, saved) != 0)
        return false;
    if (CPU_EQUAL(saved, cpus))
        return false;
    bspram__router_placed(true);
    if (sched_setaffinity(0, sizeof *cpus, cpus) == 0)
        return true;
    bspram__router_placed(false);
    return false;
}

void bspram__bsp_threads_unbind(const cpu_set_t *saved)
{
    sched_setaffinity(0, sizeof *saved, saved);
    bspram__router_placed(false);
}

void bspram__bsp_threads_run(unsigned n, void (*fn)(unsigned lane, void *arg), void *arg,
                             const bspram_placement *pl, const char *call)
{
    if (n <= 1) {
        fn(0, arg);
        return;
    }
    team_done *d = done_of_this_thread();
    /* The lowest free threads: one team after another meets the same ones. */
    enum { STACK_TEAM = 64 };
    worker *stack_mine[STACK_TEAM], **mine = stack_mine;
    unsigned stack_idx[STACK_TEAM], *idx = stack_idx;
    if (n - 1 > STACK_TEAM) {
        mine = malloc(sizeof *mine * (n - 1));
        idx = malloc(sizeof *idx * (n - 1));
        if (!mine || !idx)
            bspram__base_fatal("%s: out of memory for a team of %u threads", call, n);
    }
    pthread_mutex_lock(&pool.lock);
    unsigned got = 0, i = 0;
    while (got < n - 1) {
        if (i == pool.n) {
            unsigned at;
            int err = grow(pool.n + (n - 1 - got), &at);
            if (err) {
                pthread_mutex_unlock(&pool.lock);
                bspram__base_fatal("%s: could not start %u threads (%s after %u); lower the number "
                                   "of threads, or raise the limits on threads and memory (ulimit -u, "
                                   "ulimit -v) or lower OMP_STACKSIZE", call, n, strerror(err), at + 1);
            }
        }
        if (!pool.busy[i]) {
            pool.busy[i] = 1;
            idx[got] = i;
            mine[got++] = pool.w[i];
        }
        i++;
    }
    pthread_mutex_unlock(&pool.lock);

    /* Active looks while every lane has a core (as the barrier's), else none. */
    const unsigned looks = n <= bspram__router_cores() ? bspram__router_await_looks(n, true) : 0;
    atomic_store_explicit(&d->left, n - 1, memory_order_relaxed);
    for (unsigned k = 0; k < n - 1; k++) {
        worker *w = mine[k];
        w->fn = fn;
        w->arg = arg;
        w->lane = k + 1;
        w->looks = looks;
        w->done = d;
        w->cpus = bspram__bsp_placement_of(pl, k + 1);
        atomic_fetch_add_explicit(&w->job, 1, memory_order_seq_cst);
        if (atomic_load_explicit(&w->sleeping, memory_order_seq_cst))
            futex_wake(&w->job);
    }
    /* Lane 0 runs where the calling thread is, with its own mask: moving it
     * to its place and back at every team would cost two migrations a
     * team, and on a loaded machine a wait behind the process running on
     * the place's core (a small PRAM run, a team per step, took 2-6 times
     * as long); the kernel puts it on the core its team left free. */
    fn(0, arg);
    unsigned left;
    while ((left = atomic_load_explicit(&d->left, memory_order_acquire)) != 0)
        wait_change(&d->left, left, &d->sleeping, looks);

    pthread_mutex_lock(&pool.lock);
    for (unsigned k = 0; k < n - 1; k++)
        pool.busy[idx[k]] = 0;
    pthread_mutex_unlock(&pool.lock);
    if (mine != stack_mine) {
        free(mine);
        free(idx);
    }
}

/* A child of fork has the calling thread alone: its pool starts afresh (the
 * parent's threads' memory is left as it is). */
static void forget_pool(void)
{
    pthread_mutex_init(&pool.lock, NULL);
    pool.w = NULL;
    pool.busy = NULL;
    pool.n = pool.cap = 0;
    my_done = NULL;
    pool.dones = NULL;
}

__attribute__((constructor)) static void threads_init(void) { pthread_atfork(NULL, NULL, forget_pool); }
