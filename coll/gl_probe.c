/* The collectives' own probe of g and l, run once per machine, P and
 * library version (gl.c caches the result), the textbook way — Bisseling,
 * "Parallel Scientific Computation" (2nd ed., 2020), §1.6, program
 * bspbench, as `bspram probe` does (tools/cmd_probe.c): time supersteps of
 * h-relations for a few h, take the median of 5 repetitions of each (a
 * descheduled thread must not tilt the fit), and fit t(h) = l + g·h by
 * least squares.
 *
 * What differs from `bspram probe` is the message: a collective's round
 * carries blocks, not single words, so each process sends one message of
 * 8 + b bytes to the next process (a put of b bytes with its destination
 * word, bsp.h), b = 0 (no message: l alone), 4, 16 and 64 KiB — the g a
 * collective's long blocks pay — and the receiver copies the b bytes out,
 * as a put lands.
 *
 * Apart from the program. The probe runs on a router of its own, made for
 * it on the section's transport with the section's processes as its lanes
 * and destroyed after: its 10 + 4·5·(1 + 8) + 1 = 191 supersteps are in
 * that router's log, never in the program's records, its trace or its
 * superstep count, and the superstep in progress (puts, BSMP messages) is
 * left as it was — so a program's first run, which measures, records the
 * same supersteps as every later run, which reads the cache. Some 10–20 ms
 * on a loaded 2-core machine.
 *
 * Under what load. A figure measured while other work kept the cores busy
 * is that work's, not the machine's (an l of milliseconds where a quiet
 * superstep takes a microsecond), so pid 0 also measures the share of the
 * cores that other processes used meanwhile: the cores' busy time from
 * /proc/stat less the program's own CPU time, over the probe and at least
 * LOAD_WINDOW_NS (/proc/stat counts in clock ticks, 10 ms: a shorter window
 * would read noise), and the 1-minute load average; gl.c decides what to do
 * with a loaded figure. pid 0's g, l and load reach every process in the last
 * round, so every process selects with the same figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/error.h"
#include "coll/coll_internal.h"
#include "router/router.h"

enum { SIZES = 4, REPS = 5, ROUNDS = 8, WARM = 10 };
static const size_t size_of[SIZES] = {0, 4096, 16384, 65536};
static const char LABEL[] = "bsp_coll_probe";

#define LOAD_WINDOW_NS 100000000L /* 100 ms: ten clock ticks per core */

/* ---- the load ---- */

/* The cores' busy and total time so far, in clock ticks (the "cpu" line of
 * /proc/stat; idle and iowait are not busy): 0, or −1 where there is no
 * such file (not Linux). */
static int cores_ticks(double *busy, double *total)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return -1;
    unsigned long long v[8] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    if (n < 4)
        return -1;
    double t = 0;
    for (int i = 0; i < 8; i++)
        t += (double)v[i];
    *total = t;
    *busy = t - (double)v[3] - (double)v[4]; /* less idle and iowait */
    return 0;
}

static double process_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double loadavg_1min(void)
{
    double a = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &a) != 1)
            a = -1;
        fclose(f);
    }
    return a;
}

/* A host's name as a word: MPI ranks on pid 0's host count as the program,
 * not as other work. */
static uint64_t host_word(void)
{
    char name[256] = "";
    gethostname(name, sizeof name - 1);
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (const char *c = name; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211u;
    return h;
}

typedef struct load_clock {
    double wall, own, busy, total; /* at the start */
    int ticks;                     /* /proc/stat read */
} load_clock;

static void load_start(load_clock *c, int lead)
{
    c->wall = bspram__clock();
    c->own = process_seconds();
    c->ticks = lead && cores_ticks(&c->busy, &c->total) == 0;
}

/* The rank's lead waits out the window (its other processes wait in the
 * next exchange, sleeping after their spins): a tick is 10 ms. */
static void load_window(const load_clock *c)
{
    double left = LOAD_WINDOW_NS * 1e-9 - (bspram__clock() - c->wall);
    if (left > 0) {
        struct timespec ts = {0, (long)(left * 1e9)};
        nanosleep(&ts, NULL);
    }
}

/* The share of the cores that other processes kept busy since the start:
 * (busy − the program's CPU time) / total, in [0, 1]; −1 if unknown. */
static double load_share(const load_clock *c, double own_seconds)
{
    double busy, total;
    if (!c->ticks || cores_ticks(&busy, &total) != 0 || total <= c->total)
        return -1;
    const double tick = 1.0 / (double)sysconf(_SC_CLK_TCK);
    double others = (busy - c->busy) * tick - own_seconds;
    double share = others / ((total - c->total) * tick);
    return share < 0 ? 0 : share > 1 ? 1 : share;
}

/* ---- the rounds ---- */

typedef struct probe {
    bspram_router *r;
    unsigned lane, n, next;
} probe;

static void make_router(bsplib_proc *lead, void *buf, void *arg)
{
    (void)arg;
    bspram_router *r = bspram__router_create(lead->p, lead->p);
    unsigned lo, hi;
    bspram__router_local_lanes(r, &lo, &hi);
    if (lo != lead->world->lo || hi != lead->world->hi)
        bspram__bsp_bsplib_fatal(lead, "%s: its router gives this rank processes [%u, %u), the "
                                 "section [%u, %u) (internal error)", LABEL, lo, hi,
                                 lead->world->lo, lead->world->hi);
    bspram__router_set_label(r, LABEL);
    memcpy(buf, &r, sizeof r);
}

/* One superstep: a message of 8 + b bytes to the next process (none for
 * b = 0), landed by the receiver. */
static void round_trip(probe *pr, const unsigned char *out, unsigned char *in, size_t b)
{
    if (b) {
        unsigned char *d = bspram__router_post(pr->r, pr->lane, pr->lane, pr->next, 8 + b, LABEL);
        uint64_t word = (uint64_t)(uintptr_t)in; /* the put's destination word */
        memcpy(d, &word, 8);
        memcpy(d + 8, out, b);
    }
    bspram__router_exchange(pr->r, pr->lane, 0);
    const bspram_message *m;
    size_t k = bspram__router_inbox(pr->r, pr->lane, pr->lane, &m);
    for (size_t i = 0; i < k; i++)
        memcpy(in, (const unsigned char *)m[i].data + 8, (size_t)m[i].len - 8);
}

void bspram__coll_gl_probe(bsplib_proc *me, double *g, double *l, coll_gl_load *load)
{
    probe pr = {NULL, me->pid, me->p, (me->pid + 1) % me->p};
    bspram__bsp_bsplib_publish(me, &pr.r, sizeof pr.r, make_router, NULL);
    const int lead = me->pid == me->world->lo; /* keeps its MPI rank's CPU time */
    unsigned char *out = bspram__coll_scratch(me, 0, size_of[SIZES - 1]);
    unsigned char *in = bspram__coll_scratch(me, 1, size_of[SIZES - 1]);
    memset(out, (int)me->pid, size_of[SIZES - 1]);

    round_trip(&pr, out, in, 0); /* all start together */
    load_clock clock;
    load_start(&clock, me->pid == 0);
    for (unsigned w = 0; w < WARM; w++) /* threads settle, buffers grow */
        round_trip(&pr, out, in, size_of[SIZES - 1]);
    double t[SIZES];
    for (unsigned k = 0; k < SIZES; k++) {
        double reps[REPS];
        for (unsigned rep = 0; rep < REPS; rep++) {
            round_trip(&pr, out, in, 0);
            const double t0 = bspram__clock();
            for (unsigned r = 0; r < ROUNDS; r++)
                round_trip(&pr, out, in, size_of[k]);
            reps[rep] = (bspram__clock() - t0) / ROUNDS;
        }
        for (unsigned a = 1; a < REPS; a++) /* insertion sort of 5 */
            for (unsigned x = a; x > 0 && reps[x] < reps[x - 1]; x--) {
                double y = reps[x];
                reps[x] = reps[x - 1];
                reps[x - 1] = y;
            }
        t[k] = reps[REPS / 2] * 1e9;
    }

    /* The program's CPU time over the window: each MPI rank's lead brings
     * its process's (all its threads'), with its host, to pid 0. */
    double own = 0;
    if (lead) {
        load_window(&clock);
        own = process_seconds() - clock.own;
    }
    if (bsplib_world_spread(me->world)) {
        if (lead && me->pid != 0) {
            unsigned char *d = bspram__router_post(pr.r, pr.lane, pr.lane, 0, 16, LABEL);
            uint64_t w[2] = {host_word(), 0};
            memcpy(&w[1], &own, sizeof own);
            memcpy(d, w, sizeof w);
        }
        bspram__router_exchange(pr.r, pr.lane, 0);
        const bspram_message *m;
        size_t k = me->pid == 0 ? bspram__router_inbox(pr.r, pr.lane, pr.lane, &m) : 0;
        for (size_t i = 0; i < k; i++) {
            uint64_t w[2];
            double o;
            memcpy(w, m[i].data, sizeof w);
            memcpy(&o, &w[1], sizeof o);
            if (w[0] == host_word())
                own += o;
        }
    }

    /* Least squares t = l + g·h over the four points, h in bytes. */
    double sh = 0, st = 0, shh = 0, sht = 0;
    for (unsigned k = 0; k < SIZES; k++) {
        const double h = size_of[k] ? (double)size_of[k] + 8 : 0;
        sh += h, st += t[k], shh += h * h, sht += h * t[k];
    }
    double gg = (SIZES * sht - sh * st) / (SIZES * shh - sh * sh);
    double ll = (st - gg * sh) / SIZES;
    /* A noisy fit may go below zero; neither figure can. */
    if (!(gg > 0))
        gg = 0.001;
    if (!(ll > 0))
        ll = t[0] > 0 ? t[0] : 1;
    /* Rounded as the cache keeps them (gl_cache.c, %.6g), so that the run
     * that measures and the runs that read the cache choose alike. */
    double fig[4] = {gg, ll, load_share(&clock, own), loadavg_1min()};
    char text[128];
    snprintf(text, sizeof text, "%.6g %.6g %.3g %.3g", fig[0], fig[1], fig[2], fig[3]);
    if (sscanf(text, "%lg %lg %lg %lg", &fig[0], &fig[1], &fig[2], &fig[3]) != 4)
        fig[0] = gg, fig[1] = ll;

    /* pid 0's figures to every process, in the last superstep. */
    if (me->pid == 0)
        for (unsigned q = 1; q < pr.n; q++)
            memcpy(bspram__router_post(pr.r, pr.lane, pr.lane, q, sizeof fig, LABEL), fig, sizeof fig);
    bspram__router_exchange(pr.r, pr.lane, 0);
    if (me->pid != 0) {
        const bspram_message *m;
        if (bspram__router_inbox(pr.r, pr.lane, pr.lane, &m) != 1 || m->len != sizeof fig)
            bspram__bsp_bsplib_fatal(me, "%s: the figures did not arrive (internal error)", LABEL);
        memcpy(fig, m->data, sizeof fig);
    }
    bspram__router_leave(pr.r, pr.lane);
    /* Nobody is in the router any more once everybody is past this barrier. */
    bspram__bsp_bsplib_barrier(me, 0);
    if (lead)
        bspram__router_destroy(pr.r);
    *g = fig[0];
    *l = fig[1];
    load->busy = fig[2];
    load->loadavg = fig[3];
}
