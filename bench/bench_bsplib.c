/* BSPlib benchmarks, figures in bench/RESULTS.md:
 *   1. empty bsp_sync at P = 2, beside `#pragma omp barrier` (2 threads) and
 *      a plain dissemination barrier written here (2 threads: the floor an
 *      empty sync can reach) in the same run;
 *   2. g for single-word puts at P = 2: each process puts h words to the
 *      other per superstep; g = slope of time against h;
 *   3. 1 MiB puts at P = 2 (each process one 1 MiB put to the other per
 *      superstep) vs memcpy of 1 MiB in the same run; the same with bsp_hpput
 *      (unbuffered: one copy, at the sync, from the sender's memory);
 *   4. empty bsp_sync oversubscribed, P = 4 and P = 64, beside libgomp's barrier
 *      (P = 4) and a round of 64 threads yielding their core once each (P = 64:
 *      the context switches any barrier needs);
 *   5. (only when asked for) a ring superstep — one 8-byte put per process —
 *      at P = 1024 and 4096 against the empty sync: delivery's scaling in P.
 *   6, 7. (only when asked for; untimed, for instruction counts by
 *      cachegrind, bench/put_instr.sh) `scale` supersteps of H single-word
 *      puts per process: at P = 2 to the other process (6), at P = 4 to the
 *      three others in turn, interleaved (7).
 * Each figure is the median of 7 repetitions.
 * Usage: bench_bsplib [iterations-scale [part]]   (scale default 1; part
 * 1..4 runs only that figure, for profiling; part 5 runs the scaling figure) */
#include <bsp.h>
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"

static unsigned P;
static int mode, scale = 1;
static double result; /* pid 0 writes it */

enum { REPS = 7, H = 1024, MIB = 1 << 20 };

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmpd);
    return v[n / 2];
}

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid(), other = (s + 1) % p;
    double t[REPS];
    if (mode == 0) { /* empty sync */
        const int n = (p > 4 ? 500 : 20000) * scale;
        for (int r = 0; r < REPS; r++) {
            bsp_sync();
            double t0 = bsp_time();
            for (int i = 0; i < n; i++)
                bsp_sync();
            t[r] = (bsp_time() - t0) / n;
        }
    } else if (mode == 1) { /* g: h single-word puts, h = H, vs h = 0 */
        double *dst = calloc(H, sizeof *dst), src[H];
        for (int i = 0; i < H; i++)
            src[i] = i;
        bsp_push_reg(dst, H * sizeof *dst);
        bsp_sync();
        const int n = 200 * scale;
        for (int r = 0; r < REPS; r++) {
            double t0 = bsp_time();
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < H; k++)
                    bsp_put(other, &src[k], dst, (size_t)k * sizeof *dst, sizeof *dst);
                bsp_sync();
            }
            double full = (bsp_time() - t0) / n;
            t0 = bsp_time();
            for (int i = 0; i < n; i++)
                bsp_sync();
            double empty = (bsp_time() - t0) / n;
            t[r] = (full - empty) / H;
        }
        bsp_pop_reg(dst);
        bsp_sync();
        free(dst);
    } else if (mode == 5) { /* for instruction counts: scale supersteps of H puts */
        double *dst = calloc(H, sizeof *dst), src[H];
        for (int i = 0; i < H; i++)
            src[i] = i;
        bsp_push_reg(dst, H * sizeof *dst);
        bsp_sync();
        for (int i = 0; i < scale; i++) {
            for (int k = 0; k < H; k++)
                bsp_put((s + 1 + (unsigned)k % (p - 1)) % p, &src[k], dst, (size_t)k * sizeof *dst, sizeof *dst);
            bsp_sync();
        }
        bsp_pop_reg(dst);
        bsp_sync();
        free(dst);
        for (int r = 0; r < REPS; r++)
            t[r] = 0; /* nothing timed */
    } else if (mode == 4) { /* ring: one 8-byte put per process, vs empty */
        double cell = 0, mine = s;
        bsp_push_reg(&cell, sizeof cell);
        bsp_sync();
        const int n = 3 * scale;
        for (int r = 0; r < REPS; r++) {
            double t0 = bsp_time();
            for (int i = 0; i < n; i++) {
                bsp_put(other, &mine, &cell, 0, sizeof mine);
                bsp_sync();
            }
            t[r] = (bsp_time() - t0) / n;
        }
        bsp_pop_reg(&cell);
        bsp_sync();
    } else { /* 1 MiB puts: bytes per second */
        char *dst = malloc(MIB), *src = malloc(MIB);
        memset(src, 1, MIB);
        memset(dst, 0, MIB);
        bsp_push_reg(dst, MIB);
        bsp_sync();
        const int n = 50 * scale;
        for (int r = 0; r < REPS; r++) {
            double t0 = bsp_time();
            for (int i = 0; i < n; i++) {
                if (mode == 3)
                    bsp_hpput(other, src, dst, 0, MIB);
                else
                    bsp_put(other, src, dst, 0, MIB);
                bsp_sync();
            }
            t[r] = (bsp_time() - t0) / n;
        }
        bsp_pop_reg(dst);
        bsp_sync();
        free(dst);
        free(src);
    }
    if (s == 0)
        result = median(t, REPS);
    bsp_end();
}

static double run(unsigned p, int m)
{
    P = p;
    mode = m;
    spmd();
    return result;
}

/* The floor of any barrier of P threads on fewer cores: every thread must be
 * switched in once per episode. Here each of P threads yields its core once
 * per round, with no synchronisation at all; the time of a round is what
 * those switches alone cost on this machine. */
static double yield_round_us(int threads)
{
    double t[REPS];
    const int n = 500 * scale;
    for (int r = 0; r < REPS; r++) {
        double t0 = bspram__clock();
#pragma omp parallel num_threads(threads)
        for (int i = 0; i < n; i++)
            sched_yield();
        t[r] = (bspram__clock() - t0) / n;
    }
    return median(t, REPS) * 1e6;
}

static double omp_barrier_us(int threads)
{
    double t[REPS];
    const int n = 20000 * scale;
    for (int r = 0; r < REPS; r++) {
        double t0 = 0, t1 = 0;
#pragma omp parallel num_threads(threads)
        {
#pragma omp barrier
#pragma omp master
            t0 = bspram__clock();
            for (int i = 0; i < n; i++) {
#pragma omp barrier
            }
#pragma omp master
            t1 = bspram__clock();
        }
        t[r] = (t1 - t0) / n;
    }
    return median(t, REPS) * 1e6;
}

/* The reference for figure 1: a dissemination barrier with nothing else
 * (Hensgen, Finkel and Manber 1988), spinning only. In round k thread i
 * stores the episode number in the flag of thread (i + 2^k) mod n and waits
 * for its own; flags alternate by episode parity (a sender is at most one
 * episode ahead), so equality is an exact test. Each receiver's flags are on
 * a cache line of its own. */
enum { REF_ROUNDS = 8 };
typedef struct ref_inbox {
    _Alignas(64) atomic_uint flag[REF_ROUNDS][2];
} ref_inbox;

static void ref_barrier(ref_inbox *in, unsigned n, unsigned id, unsigned e)
{
    for (unsigned k = 0, d = 1; d < n; k++, d <<= 1) {
        atomic_store_explicit(&in[(id + d) % n].flag[k][e & 1], e, memory_order_release);
        while (atomic_load_explicit(&in[id].flag[k][e & 1], memory_order_acquire) != e)
            __builtin_ia32_pause();
    }
}

static double ref_barrier_us(unsigned threads)
{
    ref_inbox *in = aligned_alloc(64, threads * sizeof *in);
    for (unsigned i = 0; i < threads; i++)
        for (int k = 0; k < REF_ROUNDS; k++)
            for (int par = 0; par < 2; par++)
                atomic_init(&in[i].flag[k][par], 0);
    double t[REPS];
    const int n = 20000 * scale;
#pragma omp parallel num_threads(threads)
    {
        unsigned id = (unsigned)omp_get_thread_num(), e = 0;
        for (int r = 0; r < REPS; r++) {
            ref_barrier(in, threads, id, ++e);
            double t0 = bspram__clock();
            for (int i = 0; i < n; i++)
                ref_barrier(in, threads, id, ++e);
            if (id == 0)
                t[r] = (bspram__clock() - t0) / n;
        }
    }
    free(in);
    return median(t, REPS) * 1e6;
}

static double memcpy_gbs(void)
{
    char *a = malloc(MIB), *b = malloc(MIB);
    memset(a, 1, MIB);
    memset(b, 0, MIB);
    double t[REPS];
    const int n = 50 * scale;
    for (int r = 0; r < REPS; r++) {
        double t0 = bspram__clock();
        for (int i = 0; i < n; i++) {
            memcpy(b, a, MIB);
            __asm__ __volatile__("" : : "r"(b) : "memory");
        }
        t[r] = (bspram__clock() - t0) / n;
    }
    free(a);
    free(b);
    return MIB / median(t, REPS) / 1e9;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        scale = atoi(argv[1]) > 0 ? atoi(argv[1]) : 1;
    const int part = argc > 2 ? atoi(argv[2]) : 0;
    bsp_init(spmd, argc, argv);
    printf("cores: %u\n", bsp_nprocs());
    if (!part || part == 1) {
        double omp2 = omp_barrier_us(2), ref2 = ref_barrier_us(2);
        double sync2 = run(2, 0) * 1e6;
        printf("empty sync P=2:           %8.3f us   (omp barrier, 2 threads: %.3f us; "
               "dissemination barrier: %.3f us, sync %.2fx)\n", sync2, omp2, ref2, sync2 / ref2);
    }
    if (!part || part == 2)
        printf("g, single-word puts P=2:  %8.2f ns per put (8-byte word)\n", run(2, 1) * 1e9);
    if (!part || part == 3) {
        double put = MIB / run(2, 2) / 1e9, hp = MIB / run(2, 3) / 1e9, mc = memcpy_gbs();
        printf("1 MiB puts P=2:           %8.2f GB/s per process  (memcpy: %.2f GB/s, %.0f%%)\n",
               put, mc, 100 * put / mc);
        printf("1 MiB hpputs P=2:         %8.2f GB/s per process  (memcpy: %.2f GB/s, %.0f%%)\n",
               hp, mc, 100 * hp / mc);
    }
    if (!part || part == 4) {
        double omp4 = omp_barrier_us(4);
        printf("empty sync P=4:           %8.3f us   (omp barrier, 4 threads: %.3f us)\n",
               run(4, 0) * 1e6, omp4);
        double floor64 = yield_round_us(64);
        printf("empty sync P=64:          %8.3f us   (64 threads yielding once each: %.3f us)\n",
               run(64, 0) * 1e6, floor64);
    }
    if (part == 5) { /* scale: delivery must not cost O(P^2) */
        for (unsigned q = 1024; q <= 4096; q *= 4)
            printf("ring superstep P=%u:    %9.1f us   (empty sync: %.1f us)\n", q,
                   run(q, 4) * 1e6, run(q, 0) * 1e6);
    }
    if (part == 6 || part == 7) /* untimed: for cachegrind (bench/put_instr.sh) */
        run(part == 6 ? 2 : 4, 5);
    return 0;
}
