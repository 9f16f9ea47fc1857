/* bench_coll's "ops" measurements with MPI, for the comparison in
 * bench/RESULTS.md, "Collectives" (bench/coll_vs_mpi.sh runs both):
 *
 *   mpirun -np P mpi_coll [ops=alltoall,allgather,broadcast,allreduce]
 *                         [sizes=8,64,512,4096,32768,262144] [ms=20] [reps=5]
 *
 * MPI_Alltoall, MPI_Allgather, MPI_Scatter and MPI_Gather of `size` bytes
 * per peer (MPI_BYTE), MPI_Bcast of `size` bytes, MPI_Allreduce, MPI_Reduce
 * and MPI_Scan of size/8 int64 words with MPI_SUM, the rooted ones at rank 0,
 * on MPI_COMM_WORLD, with the library's own choice of algorithm. ops= takes
 * bsp_coll_op_name()'s names (scatter, gather, reduce and scan besides the
 * default four). As in bench_coll: the send buffers are rewritten before every
 * call (outside the timed part), each process sums MPI_Wtime() around its
 * calls, the figure is the slowest process's mean (MPI_Allreduce, MAX), the
 * median over `reps` repetitions of N calls (N for about `ms` milliseconds
 * per repetition, calibrated as in bench_coll), a barrier before every
 * repetition, and the first call is
 * checked against the same reference. Output lines:
 *   coll,openmpi,<op>,<p>,<size>,<us>,default,<us>,default
 * (the columns of bench_coll's AUTO and best forced algorithm). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_pattern.h"

enum { MAXN = 32, MAXREPS = 31 };
enum {
    BROADCAST = PATTERN_BROADCAST, SCATTER = PATTERN_SCATTER, GATHER = PATTERN_GATHER,
    ALLGATHER = PATTERN_ALLGATHER, ALLTOALL = PATTERN_ALLTOALL, REDUCE = PATTERN_REDUCE,
    ALLREDUCE = PATTERN_ALLREDUCE, SCAN = PATTERN_SCAN, NOPS = PATTERN_OPS
};
static const char *const NAMES[NOPS] = {"broadcast", "scatter", "gather",    "allgather",
                                        "alltoall",  "reduce",  "allreduce", "scan"};

static int reps = 5;
static double target_ms = 20;

typedef struct ctx {
    int op;
    unsigned p, s;
    size_t b;
    unsigned char *send, *recv;
} ctx;

static void call(ctx *c)
{
    int n = (int)c->b;
    switch (c->op) {
    case ALLTOALL:
        MPI_Alltoall(c->send, n, MPI_BYTE, c->recv, n, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case ALLGATHER:
        MPI_Allgather(c->send, n, MPI_BYTE, c->recv, n, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case BROADCAST:
        MPI_Bcast(c->recv, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case ALLREDUCE:
        MPI_Allreduce(c->send, c->recv, n / 8, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        break;
    case SCATTER:
        MPI_Scatter(c->send, n, MPI_BYTE, c->recv, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case GATHER:
        MPI_Gather(c->send, n, MPI_BYTE, c->recv, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case REDUCE:
        MPI_Reduce(c->send, c->recv, n / 8, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    default:
        MPI_Scan(c->send, c->recv, n / 8, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        break;
    }
}


static void rewrite(ctx *c, unsigned i)
{
    if (pattern_on_words(c->op)) {
        int64_t *w = (int64_t *)c->send;
        for (size_t k = 0; k < c->b / 8; k++)
            w[k] = (int64_t)(i + k + c->s);
    } else if (c->op == BROADCAST) {
        if (c->s == 0)
            memset(c->recv, (int)(i & 255), c->b);
    } else if (c->op == SCATTER) {
        if (c->s == 0) /* only the root's send is read */
            memset(c->send, (int)(i & 255), c->p * c->b);
    } else {
        memset(c->send, (int)(i & 255), c->op == ALLTOALL ? c->p * c->b : c->b);
    }
}

static void fill_check(ctx *c)
{
    pattern_fill(c->op, c->s, c->p, c->b, c->send, c->recv);
}

static int check(const ctx *c)
{
    return pattern_check(c->op, c->s, c->p, c->b, c->recv);
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Calls per repetition: enough for target_ms milliseconds, from the mean
 * of a few calls (the same N on every process). */
static unsigned calls_for(double mean_s)
{
    double n = target_ms * 1e-3 / (mean_s > 1e-9 ? mean_s : 1e-9);
    n = n < 5 ? 5 : n > 200000 ? 200000 : n;
    return (unsigned)n;
}

/* The median over reps of the slowest process's mean seconds per call
 * (valid on rank 0). */
static double measure(ctx *c)
{
    fill_check(c);
    call(c);
    if (check(c)) {
        fprintf(stderr, "mpi_coll: %s p=%u size=%zu: wrong result on rank %u\n", NAMES[c->op],
                c->p, c->b, c->s);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double t[MAXREPS];
    unsigned n = 5;
    for (int r = -1; r < reps; r++) { /* r = −1: calibration */
        double acc = 0, mean, max = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (unsigned i = 0; i < n; i++) {
            rewrite(c, i);
            double t0 = MPI_Wtime();
            call(c);
            acc += MPI_Wtime() - t0;
        }
        mean = acc / n;
        MPI_Allreduce(&mean, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (r < 0)
            n = calls_for(max);
        else
            t[r] = max;
    }
    qsort(t, (size_t)reps, sizeof *t, cmpd);
    return t[reps / 2];
}

static unsigned parse_list(const char *s, unsigned *out)
{
    unsigned n = 0;
    while (*s && n < MAXN) {
        char *end;
        out[n++] = (unsigned)strtoul(s, &end, 10);
        if (end == s)
            break;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

static void usage(void)
{
    fprintf(stderr, "usage: mpirun -np P mpi_coll [ops=alltoall,allgather,broadcast,allreduce] "
                    "[sizes=…] [ms=20] [reps=5]\n"
                    "       ops: broadcast scatter gather allgather alltoall reduce allreduce "
                    "scan\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned sizes[MAXN], ns = parse_list("8,64,512,4096,32768,262144", sizes);
    int ops[NOPS] = {ALLTOALL, ALLGATHER, BROADCAST, ALLREDUCE}, nops = 4; /* the default four */
    for (int i = 1; i < argc; i++) {
        const char *v = strchr(argv[i], '=');
        if (!v)
            usage();
        v++;
        if (strncmp(argv[i], "sizes=", 6) == 0)
            ns = parse_list(v, sizes);
        else if (strncmp(argv[i], "algs=", 5) == 0 || strncmp(argv[i], "p=", 2) == 0)
            ; /* bench_coll's arguments: MPI picks its algorithms, mpirun sets p */
        else if (strncmp(argv[i], "ms=", 3) == 0)
            target_ms = atof(v) > 0 ? atof(v) : 20;
        else if (strncmp(argv[i], "reps=", 5) == 0)
            reps = atoi(v) > 0 && atoi(v) <= MAXREPS ? atoi(v) : 5;
        else if (strncmp(argv[i], "ops=", 4) == 0) {
            char buf[256];
            nops = 0;
            snprintf(buf, sizeof buf, "%s", v);
            for (char *t = strtok(buf, ","); t && nops < NOPS; t = strtok(NULL, ",")) {
                int op = -1;
                for (int k = 0; k < NOPS; k++)
                    if (strcmp(t, NAMES[k]) == 0)
                        op = k;
                if (op < 0)
                    usage();
                ops[nops++] = op;
            }
        } else
            usage();
    }
    size_t max_b = 0;
    for (unsigned i = 0; i < ns; i++)
        max_b = sizes[i] > max_b ? sizes[i] : max_b;
    ctx c = {.p = (unsigned)size, .s = (unsigned)rank};
    size_t bytes = (size_t)size * max_b + 64;
    c.send = calloc(bytes, 1);
    c.recv = calloc(bytes, 1);
    if (!c.send || !c.recv)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int io = 0; io < nops; io++) {
        c.op = ops[io];
        for (unsigned ib = 0; ib < ns; ib++) {
            c.b = sizes[ib];
            if (pattern_on_words(c.op) && c.b < 8)
                continue;
            double t = measure(&c);
            if (rank == 0) {
                printf("coll,openmpi,%s,%u,%zu,%.3f,default,%.3f,default\n", NAMES[c.op], c.p,
                       c.b, t * 1e6, t * 1e6);
                fflush(stdout);
            }
        }
    }
    free(c.send);
    free(c.recv);
    MPI_Finalize();
    return 0;
}
