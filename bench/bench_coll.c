/* Collectives benchmarks (coll/bsp_coll.h), figures in bench/RESULTS.md,
 * "Collectives".
 *
 *   bench_coll radix [p=8,16] [blocks=8,16,…,4096] [rounds=1] [ms=20] [reps=5]
 *     Bruck et al. 1997, "Efficient algorithms for all-to-all communications
 *     in multiport message-passing systems", §3.5 and Figures 4–6: the time
 *     of one alltoall (BSP_COLL_BRUCK, ports 1) for every radix r = 2..p, per
 *     block size, beside the measured C1/C2 (bsp_coll_last_cost) and the
 *     predicted C1, C2 and C1·l + C2·g (bsp_coll_predict); DIRECT (k = p − 1
 *     ports) and AUTO beside. Per p: the measured best radix and the
 *     selection's pick per block, where r = p (DIRECT with one port) starts
 *     to beat r = 2 (the break-even block), and g, l fitted to the sweep by
 *     least squares of the relative error of C1·l + C2·g, with the
 *     selection's pick under the fitted g, l. rounds=N measures the whole
 *     sweep N times, interleaved, and reports the median and range.
 *
 *   bench_coll ops [p=2,4] [ops=alltoall,allgather,broadcast,allreduce]
 *                  [sizes=8,64,512,4096,32768,262144] [algs=all] [ms=20] [reps=5] [verbose=0]
 *     Time per call of each operation, BSP_COLL_AUTO and every forced
 *     algorithm (algs= restricts the forced ones: a list of names, "auto"
 *     for AUTO, "none" for AUTO only), with the send buffers rewritten
 *     before every call; one line per (op, p, size): AUTO's time and the
 *     best forced algorithm's. Size is per peer: alltoall, allgather,
 *     scatter and gather blocks, the broadcast's buffer, the vector of
 *     allreduce, reduce and scan (size/8 words of sum:i64; scan inclusive);
 *     the rooted ones (broadcast, scatter, gather, reduce) at root 0. ops=
 *     takes any of bsp_coll_op_name()'s eight names (default: alltoall,
 *     allgather, broadcast, allreduce). bench/mpi_coll.c prints the same
 *     lines for Open MPI; bench/coll_vs_mpi.sh runs both and tabulates.
 *     verbose=1 also prints every forced algorithm's time ("cand,…" lines).
 *
 * Time per call: each process sums bsp_time() around its calls only (the
 * rewrite is outside); the figure is the slowest process's mean, the median
 * over `reps` repetitions of N calls, N such that a repetition takes about
 * `ms` milliseconds (from a calibration of 5 calls). Every
 * candidate's first call is checked against a sequential reference before
 * it is timed (a wrong result aborts the benchmark).
 */
#include <bsp.h>
#include <bsp_coll.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_pattern.h"
#include "combine/combine.h"

_Static_assert((int)BSP_COLL_BROADCAST == PATTERN_BROADCAST && (int)BSP_COLL_SCATTER == PATTERN_SCATTER &&
                   (int)BSP_COLL_GATHER == PATTERN_GATHER && (int)BSP_COLL_ALLGATHER == PATTERN_ALLGATHER &&
                   (int)BSP_COLL_ALLTOALL == PATTERN_ALLTOALL && (int)BSP_COLL_REDUCE == PATTERN_REDUCE &&
                   (int)BSP_COLL_ALLREDUCE == PATTERN_ALLREDUCE && (int)BSP_COLL_SCAN == PATTERN_SCAN,
               "bench/coll_pattern.h lists the operations in bsp_coll_op's order");

enum { MAXP = 64, MAXN = 32, MAXC = 80, MAXREPS = 31, MAXROUNDS = 9 };

/* ---- arguments: key=value ---- */

static unsigned plist[MAXN], np, blist[MAXN], nb, oplist[8], nops;
static int reps = 5, rounds = 1, verbose;
static double target_ms = 20;
static char algs[256] = "all";

static unsigned parse_list(const char *s, unsigned *out)
{
    unsigned n = 0;
    while (*s && n < MAXN) {
        char *end;
        out[n++] = (unsigned)strtoul(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (end == s && *s)
            break;
    }
    return n;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_coll radix [p=8,16] [blocks=…] [rounds=1] [ms=20] [reps=5]\n"
                    "       bench_coll ops [p=2,4] [ops=alltoall,…] [sizes=…] [algs=all] "
                    "[ms=20] [reps=5]\n"
                    "       ops: broadcast scatter gather allgather alltoall reduce allreduce "
                    "scan\n");
    exit(2);
}

/* ---- what one call is ---- */

typedef struct cand {
    bsp_coll_algorithm alg;
    unsigned radix, ports;
} cand;

typedef struct ctx {
    bsp_coll_op op;
    unsigned p, s;
    size_t b;
    unsigned char *send, *recv;
    bsp_coll_options opt;
    int autosel;
    unsigned sum; /* bspram_op_builtin(SUM, I64) */
} ctx;

static void call(ctx *c)
{
    const bsp_coll_options *o = c->autosel ? NULL : &c->opt;
    switch (c->op) {
    case BSP_COLL_ALLTOALL:
        bsp_coll_alltoall(NULL, c->send, c->recv, c->b, o);
        break;
    case BSP_COLL_ALLGATHER:
        bsp_coll_allgather(NULL, c->send, c->recv, c->b, o);
        break;
    case BSP_COLL_BROADCAST:
        bsp_coll_broadcast(NULL, c->recv, c->b, 0, o);
        break;
    case BSP_COLL_ALLREDUCE:
        bsp_coll_allreduce(NULL, c->send, c->recv, c->b / 8, c->sum, o);
        break;
    case BSP_COLL_SCATTER:
        bsp_coll_scatter(NULL, c->send, c->recv, c->b, 0, o);
        break;
    case BSP_COLL_GATHER:
        bsp_coll_gather(NULL, c->send, c->recv, c->b, 0, o);
        break;
    case BSP_COLL_REDUCE:
        bsp_coll_reduce(NULL, c->send, c->recv, c->b / 8, c->sum, 0, o);
        break;
    case BSP_COLL_SCAN:
        bsp_coll_scan(NULL, c->send, c->recv, c->b / 8, c->sum, o);
        break;
    default:
        abort();
    }
}

/* The send buffer's size in bytes. */
static size_t send_bytes(const ctx *c)
{
    switch (c->op) {
    case BSP_COLL_ALLTOALL:
        return c->p * c->b;
    case BSP_COLL_BROADCAST:
        return c->s == 0 ? c->b : 0; /* the root's buf */
    case BSP_COLL_SCATTER:
        return c->s == 0 ? c->p * c->b : 0; /* only the root's send is read */
    default:
        return c->b;
    }
}

/* Rewrite the send buffers before call i, as a program would. */
static void rewrite(ctx *c, unsigned i)
{
    if (pattern_on_words((int)c->op)) {
        int64_t *w = (int64_t *)c->send;
        for (size_t k = 0; k < c->b / 8; k++)
            w[k] = (int64_t)(i + k + c->s);
    } else if (c->op == BSP_COLL_BROADCAST) {
        if (c->s == 0)
            memset(c->recv, (int)(i & 255), c->b);
    } else {
        memset(c->send, (int)(i & 255), send_bytes(c));
    }
}

static void fill_check(ctx *c)
{
    pattern_fill((int)c->op, c->s, c->p, c->b, c->send, c->recv);
}

static int check(const ctx *c)
{
    return pattern_check((int)c->op, c->s, c->p, c->b, c->recv);
}

/* "bruck/r2/k1", "auto=direct/k3": the algorithm as it runs (defaults
 * resolved; the radix only for alltoall's Bruck). */
static const char *label(const ctx *c, char *buf, size_t len)
{
    size_t b = pattern_on_words((int)c->op) ? c->b / 8 * 8 : c->b;
    bsp_coll_choice ch = c->autosel ? bsp_coll_select(c->op, c->p, b, 0, -1, -1)
                                    : bsp_coll_predict(c->op, c->p, b, &c->opt);
    char r[16] = "";
    if (c->op == BSP_COLL_ALLTOALL && ch.algorithm == BSP_COLL_BRUCK)
        snprintf(r, sizeof r, "/r%u", ch.radix);
    snprintf(buf, len, "%s%s%s/k%u", c->autosel ? "auto=" : "",
             bsp_coll_algorithm_name(ch.algorithm), r, ch.ports ? ch.ports : 1);
    return buf;
}

/* ---- timing ---- */

static _Thread_local double *times; /* [MAXP + 1], registered: pid 0 gathers */

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The slowest process's mean seconds per call: every process gets it. */
static double gather_max(double mine)
{
    bsp_put(0, &mine, times, bsp_pid() * sizeof(double), sizeof(double));
    bsp_sync();
    double m = 0;
    if (bsp_pid() == 0)
        for (unsigned q = 0; q < bsp_nprocs(); q++)
            m = times[q] > m ? times[q] : m;
    for (unsigned q = 1; bsp_pid() == 0 && q < bsp_nprocs(); q++)
        bsp_put(q, &m, times, MAXP * sizeof(double), sizeof(double));
    bsp_sync();
    return bsp_pid() == 0 ? m : times[MAXP];
}

/* Calls per repetition: enough for target_ms milliseconds, from the mean
 * of a few calls (the same N on every process). */
static unsigned calls_for(double mean_s)
{
    double n = target_ms * 1e-3 / (mean_s > 1e-9 ? mean_s : 1e-9);
    n = n < 5 ? 5 : n > 200000 ? 200000 : n;
    return (unsigned)n;
}

/* Check one call, then the median over reps of the slowest process's mean
 * seconds per call (every process returns it). */
static double measure(ctx *c, bsp_coll_cost *cost, int nreps)
{
    fill_check(c);
    call(c);
    int bad = check(c);
    if (cost)
        *cost = bsp_coll_last_cost();
    if (bad) {
        char l[64];
        fprintf(stderr, "bench_coll: %s p=%u size=%zu %s: wrong result on pid %u\n",
                bsp_coll_op_name(c->op), c->p, c->b, label(c, l, sizeof l), c->s);
        bsp_abort("wrong result");
    }
    double t[MAXREPS];
    unsigned n = 5;
    for (int r = -1; r < nreps; r++) { /* r = −1: calibration */
        double acc = 0;
        for (unsigned i = 0; i < n; i++) {
            rewrite(c, i);
            double t0 = bsp_time();
            call(c);
            acc += bsp_time() - t0;
        }
        double mean = gather_max(acc / n);
        if (r < 0)
            n = calls_for(mean);
        else
            t[r] = mean;
    }
    qsort(t, (size_t)nreps, sizeof *t, cmpd);
    return t[nreps / 2];
}

/* ---- the forced candidates of an operation ---- */

static int wanted(bsp_coll_algorithm a)
{
    if (strcmp(algs, "all") == 0)
        return 1;
    const char *name = bsp_coll_algorithm_name(a);
    size_t len = strlen(name);
    for (const char *s = algs; (s = strstr(s, name)) != NULL; s += len)
        if ((s == algs || s[-1] == ',') && (s[len] == ',' || s[len] == '\0'))
            return 1;
    return 0;
}

static unsigned candidates(bsp_coll_op op, unsigned p, cand *out)
{
    unsigned n = 0;
#define ADD(a, r, k)                                   \
    do {                                               \
        if (wanted(a))                                 \
            out[n++] = (cand){(a), (r), (k)};          \
    } while (0)
    switch (op) {
    case BSP_COLL_ALLTOALL:
        for (unsigned r = 2; r <= p; r++)
            ADD(BSP_COLL_BRUCK, r, 1);
        ADD(BSP_COLL_DIRECT, 0, 0); /* k = p − 1 */
        break;
    case BSP_COLL_ALLGATHER:
        ADD(BSP_COLL_BRUCK, 0, 1);
        if (p > 2)
            ADD(BSP_COLL_BRUCK, 0, p - 1);
        ADD(BSP_COLL_RING, 0, 1);
        ADD(BSP_COLL_DIRECT, 0, 0);
        break;
    case BSP_COLL_BROADCAST:
        ADD(BSP_COLL_BINOMIAL, 0, 1);
        if (p > 2)
            ADD(BSP_COLL_BINOMIAL, 0, p - 1);
        ADD(BSP_COLL_SCATTER_ALLGATHER, 0, 1);
        ADD(BSP_COLL_DIRECT, 0, 0);
        break;
    case BSP_COLL_ALLREDUCE:
        ADD(BSP_COLL_DOUBLING, 0, 1);
        ADD(BSP_COLL_DISSEMINATION, 0, 1);
        if (p > 2)
            ADD(BSP_COLL_DISSEMINATION, 0, p - 1);
        ADD(BSP_COLL_RABENSEIFNER, 0, 1); /* AUTO's pick for large vectors */
        break;
    /* The rooted operations and scan: their binomial, Rabenseifner and
     * scan-dissemination schedules take one port only (coll/calls.c's
     * table), so DIRECT alone gets k = p − 1; DIRECT with one port is left
     * out, as for broadcast and allgather: it has BINOMIAL's (or
     * DISSEMINATION's) C2 or more in p − 1 ≥ ⌈log2 p⌉ rounds. */
    case BSP_COLL_SCATTER:
    case BSP_COLL_GATHER:
        ADD(BSP_COLL_BINOMIAL, 0, 1);
        ADD(BSP_COLL_DIRECT, 0, 0);
        break;
    case BSP_COLL_REDUCE:
        ADD(BSP_COLL_BINOMIAL, 0, 1);
        ADD(BSP_COLL_RABENSEIFNER, 0, 1);
        ADD(BSP_COLL_DIRECT, 0, 0);
        break;
    case BSP_COLL_SCAN:
        ADD(BSP_COLL_DISSEMINATION, 0, 1);
        ADD(BSP_COLL_BINOMIAL, 0, 1);
        ADD(BSP_COLL_DIRECT, 0, 0);
        break;
    default:
        break;
    }
#undef ADD
    return n;
}

/* ---- the two modes ---- */

static int mode; /* 0 radix, 1 ops */
static unsigned P;

static void alloc_bufs(ctx *c, size_t max_b)
{
    size_t bytes = (size_t)c->p * max_b + 64;
    c->send = malloc(bytes);
    c->recv = malloc(bytes);
    if (!c->send || !c->recv)
        bsp_abort("out of memory");
    memset(c->send, 0, bytes);
    memset(c->recv, 0, bytes);
}

/* Radix sweep at P processes: results printed by pid 0. */
static void radix_sweep(void)
{
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    size_t max_b = 0;
    for (unsigned i = 0; i < nb; i++)
        max_b = blist[i] > max_b ? blist[i] : max_b;
    ctx c = {.op = BSP_COLL_ALLTOALL, .p = p, .s = s};
    alloc_bufs(&c, max_b);
    /* per block: time[r] for r = 2..p, [p+1] direct k=p−1, [p+2] auto;
     * per round tr, then t the median over the rounds */
    static double t[MAXN][MAXP + 3], tr[MAXROUNDS][MAXN][MAXP + 3];
    static bsp_coll_cost m[MAXN][MAXP + 3];
    static bsp_coll_choice pr[MAXN][MAXP + 3];
    /* The rounds interleave: every cell is measured once per round, so slow
     * spells of a shared machine spread over all of them. */
    for (int round = 0; round < rounds; round++)
        for (unsigned ib = 0; ib < nb; ib++) {
            c.b = blist[ib];
            for (unsigned r = 2; r <= p + 2; r++) {
                c.autosel = r == p + 2;
                c.opt = r <= p ? (bsp_coll_options){.algorithm = BSP_COLL_BRUCK, .radix = r,
                                                    .ports = 1}
                               : (bsp_coll_options){.algorithm = BSP_COLL_DIRECT};
                bsp_coll_cost cost;
                double tm = measure(&c, &cost, reps);
                if (s == 0) { /* the processes are threads: pid 0 keeps the figures */
                    tr[round][ib][r] = tm;
                    m[ib][r] = cost;
                    pr[ib][r] = bsp_coll_predict(BSP_COLL_ALLTOALL, p, c.b,
                                                 c.autosel ? NULL : &c.opt);
                }
            }
        }
    if (s == 0) {
        printf("# radix sweep, p = %u: alltoall, BSP_COLL_BRUCK with ports 1; us per call "
               "(slowest process; median over %d rounds of the median of %d repetitions, "
               "and the rounds' range)\n", p, rounds, reps);
        printf("# radix,p,block,r,us,us_min,us_max,c1,c2,pred_c1,pred_c2,pred_ns\n");
        for (unsigned ib = 0; ib < nb; ib++) {
            c.b = blist[ib];
            for (unsigned r = 2; r <= p + 2; r++) {
                double v[MAXROUNDS];
                for (int round = 0; round < rounds; round++)
                    v[round] = tr[round][ib][r];
                qsort(v, (size_t)rounds, sizeof *v, cmpd);
                t[ib][r] = v[rounds / 2];
                c.autosel = r == p + 2;
                c.opt = r <= p ? (bsp_coll_options){.algorithm = BSP_COLL_BRUCK, .radix = r,
                                                    .ports = 1}
                               : (bsp_coll_options){.algorithm = BSP_COLL_DIRECT};
                char l[64];
                printf("radix,%u,%zu,%s,%.2f,%.2f,%.2f,%" PRIu64 ",%" PRIu64 ",%" PRIu64
                       ",%" PRIu64 ",%.0f\n",
                       p, c.b, r <= p ? (snprintf(l, sizeof l, "%u", r), l) : label(&c, l, sizeof l),
                       t[ib][r] * 1e6, v[0] * 1e6, v[rounds - 1] * 1e6, m[ib][r].c1, m[ib][r].c2,
                       pr[ib][r].c1, pr[ib][r].c2, pr[ib][r].cost_ns);
            }
        }
    }
    if (s == 0) {
        /* g and l fitted to the Bruck rows: min Σ ((l·C1 + g·C2)/t − 1)². */
        double a11 = 0, a12 = 0, a22 = 0, y1 = 0, y2 = 0;
        for (unsigned ib = 0; ib < nb; ib++)
            for (unsigned r = 2; r <= p; r++) {
                double x1 = (double)m[ib][r].c1 / (t[ib][r] * 1e9);
                double x2 = (double)m[ib][r].c2 / (t[ib][r] * 1e9);
                a11 += x1 * x1, a12 += x1 * x2, a22 += x2 * x2, y1 += x1, y2 += x2;
            }
        double det = a11 * a22 - a12 * a12;
        double l = det != 0 ? (y1 * a22 - y2 * a12) / det : 0;
        double g = det != 0 ? (a11 * y2 - a12 * y1) / det : 0;
        printf("# fit,p,l_ns,g_ns_per_byte (relative least squares over the Bruck rows)\n");
        printf("fit,%u,%.0f,%.3f\n", p, l, g);
        printf("# summary,p,block,best_r,best_us,r2_us,rp_us,rp/r2,direct_us,auto_us,"
               "select(defaults or probe),select(fitted g l)\n");
        int cross = -1;
        for (unsigned ib = 0; ib < nb; ib++) {
            unsigned best = 2;
            for (unsigned r = 3; r <= p; r++)
                if (t[ib][r] < t[ib][best])
                    best = r;
            bsp_coll_choice sd = bsp_coll_select(BSP_COLL_ALLTOALL, p, blist[ib], 1, -1, -1);
            bsp_coll_choice sf = bsp_coll_select(BSP_COLL_ALLTOALL, p, blist[ib], 1, g, l);
            double ratio = t[ib][p] / t[ib][2];
            if (cross < 0 && ratio < 1)
                cross = (int)ib;
            printf("summary,%u,%u,%u,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%s/r%u/k%u,%s/r%u/k%u\n", p,
                   blist[ib], best, t[ib][best] * 1e6, t[ib][2] * 1e6, t[ib][p] * 1e6, ratio,
                   t[ib][p + 1] * 1e6, t[ib][p + 2] * 1e6, bsp_coll_algorithm_name(sd.algorithm),
                   sd.radix, sd.ports, bsp_coll_algorithm_name(sf.algorithm), sf.radix, sf.ports);
        }
        /* The model's break-even between r = 2 and r = p (ports 1): C1 and
         * C2 are linear in b, C2 = b·S, so l·ΔC1 = g·b·ΔS. */
        bsp_coll_options o2 = {.algorithm = BSP_COLL_BRUCK, .radix = 2, .ports = 1};
        bsp_coll_options on = {.algorithm = BSP_COLL_BRUCK, .radix = p, .ports = 1};
        bsp_coll_choice c2 = bsp_coll_predict(BSP_COLL_ALLTOALL, p, 1, &o2);
        bsp_coll_choice cn = bsp_coll_predict(BSP_COLL_ALLTOALL, p, 1, &on);
        double dc1 = (double)cn.c1 - (double)c2.c1, ds = (double)c2.c2 - (double)cn.c2;
        printf("# breakeven,p,measured (r=p beats r=2 from block),model b* with fitted g l\n");
        if (cross < 0)
            printf("breakeven,%u,none up to %u,", p, blist[nb - 1]);
        else if (cross == 0)
            printf("breakeven,%u,at or below %u,", p, blist[0]);
        else
            printf("breakeven,%u,between %u and %u,", p, blist[cross - 1], blist[cross]);
        if (ds > 0 && g > 0)
            printf("%.0f\n", l * dc1 / (g * ds));
        else
            printf("none\n");
        fflush(stdout);
    }
    bsp_sync();
    free(c.send);
    free(c.recv);
}

/* Every op, size and candidate at P processes. */
static void ops_run(void)
{
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    size_t max_b = 0;
    for (unsigned i = 0; i < nb; i++)
        max_b = blist[i] > max_b ? blist[i] : max_b;
    ctx c = {.p = p, .s = s, .sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_I64)};
    alloc_bufs(&c, max_b);
    for (unsigned io = 0; io < nops; io++) {
        c.op = (bsp_coll_op)oplist[io];
        cand cs[MAXC];
        unsigned nc = candidates(c.op, p, cs);
        for (unsigned ib = 0; ib < nb; ib++) {
            c.b = blist[ib];
            if (pattern_on_words((int)c.op) && c.b < 8)
                continue;
            double tauto = -1, tbest = -1;
            char lauto[64] = "-", lbest[64] = "-";
            /* A throwaway measurement first: the first one in a process ran
             * ~10 % (up to 2× on a busy machine) slower than the same
             * algorithm measured later, which would bias AUTO (measured
             * first) against the forced ones. */
            c.autosel = 1;
            (void)measure(&c, NULL, 1);
            if (wanted(BSP_COLL_AUTO) || strcmp(algs, "none") == 0) {
                c.autosel = 1;
                tauto = measure(&c, NULL, reps);
                label(&c, lauto, sizeof lauto);
            }
            c.autosel = 0;
            for (unsigned k = 0; k < nc; k++) {
                c.opt = (bsp_coll_options){.algorithm = cs[k].alg, .radix = cs[k].radix,
                                           .ports = cs[k].ports};
                double t = measure(&c, NULL, reps);
                if (verbose && s == 0) {
                    char l[64];
                    printf("cand,bspram,%s,%u,%zu,%s,%.3f\n", bsp_coll_op_name(c.op), p, c.b,
                           label(&c, l, sizeof l), t * 1e6);
                }
                if (tbest < 0 || t < tbest) {
                    tbest = t;
                    label(&c, lbest, sizeof lbest);
                }
            }
            if (s == 0) {
                char ta[32] = "-", tb[32] = "-";
                if (tauto >= 0)
                    snprintf(ta, sizeof ta, "%.3f", tauto * 1e6);
                if (tbest >= 0)
                    snprintf(tb, sizeof tb, "%.3f", tbest * 1e6);
                printf("coll,bspram,%s,%u,%zu,%s,%s,%s,%s\n", bsp_coll_op_name(c.op), p, c.b, ta,
                       lauto, tb, lbest);
                fflush(stdout);
            }
        }
    }
    bsp_sync();
    free(c.send);
    free(c.recv);
}

static void spmd(void)
{
    bsp_begin(P);
    times = calloc(MAXP + 1, sizeof *times);
    bsp_push_reg(times, (MAXP + 1) * sizeof *times);
    bsp_sync();
    for (int i = 0; i < 2000; i++) /* warm up: threads placed, caches and allocators filled */
        bsp_sync();
    if (mode == 0)
        radix_sweep();
    else
        ops_run();
    bsp_pop_reg(times);
    bsp_sync();
    free(times);
    bsp_end();
}

int main(int argc, char **argv)
{
    /* The options are read before bsp_init: over MPI (bench_coll_mpi) every
     * rank runs main that far, so every process has them. */
    if (argc < 2)
        usage();
    if (strcmp(argv[1], "radix") == 0) {
        mode = 0;
        np = parse_list("8,16", plist);
        nb = parse_list("8,16,32,64,128,256,512,1024,2048,4096", blist);
    } else if (strcmp(argv[1], "ops") == 0) {
        mode = 1;
        np = parse_list("2,4", plist);
        nb = parse_list("8,64,512,4096,32768,262144", blist);
    } else {
        usage();
    }
    nops = 0;
    for (int op = 0; op < 8; op++)
        if (op == BSP_COLL_ALLTOALL || op == BSP_COLL_ALLGATHER || op == BSP_COLL_BROADCAST ||
            op == BSP_COLL_ALLREDUCE)
            oplist[nops++] = (unsigned)op;
    for (int i = 2; i < argc; i++) {
        const char *v = strchr(argv[i], '=');
        if (!v)
            usage();
        v++;
        if (strncmp(argv[i], "p=", 2) == 0)
            np = parse_list(v, plist);
        else if (strncmp(argv[i], "blocks=", 7) == 0 || strncmp(argv[i], "sizes=", 6) == 0)
            nb = parse_list(v, blist);
        else if (strncmp(argv[i], "verbose=", 8) == 0)
            verbose = atoi(v);
        else if (strncmp(argv[i], "rounds=", 7) == 0)
            rounds = atoi(v) > 0 && atoi(v) <= MAXROUNDS ? atoi(v) : 1;
        else if (strncmp(argv[i], "ms=", 3) == 0)
            target_ms = atof(v) > 0 ? atof(v) : 20;
        else if (strncmp(argv[i], "reps=", 5) == 0)
            reps = atoi(v) > 0 && atoi(v) <= MAXREPS ? atoi(v) : 5;
        else if (strncmp(argv[i], "algs=", 5) == 0)
            snprintf(algs, sizeof algs, "%s", v);
        else if (strncmp(argv[i], "ops=", 4) == 0) {
            nops = 0;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            for (char *t = strtok(buf, ","); t && nops < 8; t = strtok(NULL, ",")) {
                int op = bsp_coll_op_parse(t);
                if (op < 0)
                    usage();
                oplist[nops++] = (unsigned)op;
            }
        } else
            usage();
    }
    bsp_init(spmd, argc, argv);
    for (unsigned i = 0; i < np; i++) {
        if (plist[i] < 1 || plist[i] > MAXP)
            usage();
        P = plist[i];
        spmd();
    }
    return 0;
}
