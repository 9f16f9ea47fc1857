/* Measure and pick: the payload exchange of one superstep in plain Open MPI,
 * three ways, on the same ranks and patterns (bench/RESULTS.md, "Over MPI").
 *   alltoallv  MPI_Alltoall of the byte counts, then MPI_Alltoallv of the
 *              bytes: what router/mpi_transport.c does (per lane index);
 *   nbx        the non-blocking consensus of Hoefler, Siebert & Lumsdaine
 *              (PPoPP 2010): MPI_Issend to each destination that has bytes,
 *              MPI_Iprobe/MPI_Recv of whatever arrives, MPI_Ibarrier once
 *              the sends are matched; no counts exchanged, no O(N) step;
 *   rma        MPI_Put into a window of fixed slots, one per source, between
 *              two MPI_Win_fence (a count word leads each slot). Its best
 *              case: a router would not know a slot's size without a count
 *              exchange, which adds an MPI_Alltoall;
 *   pull       that exchange: MPI_Alltoall of (count, offset) pairs, then
 *              each receiver MPI_Gets its bytes from the senders' send
 *              buffers (a window) between two MPI_Win_fence.
 * Patterns: "dense" (every rank sends to every rank, itself included) and
 * "sparse" (to the next rank only), B bytes per message. Rank 0 prints the
 * median over 7 rounds of the slowest rank's time per exchange.
 * usage: mpirun -np N mpi_exchange [bytes (24)] [iterations (1000)]
 * output: exchange,<N>,<pattern>,<bytes>,<alltoallv us>,<nbx us>,<rma us>,<pull us> */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REPS = 7, TAG = 7 };

static int n, r;
static size_t B;
static int sparse;
static char *sbuf, *rbuf, *win_mem;
static int *sc, *sd, *rc, *rd;
static MPI_Request *req;
static MPI_Win win, swin;
static char *swin_mem;

static int sends_to(int t) { return sparse ? t == (r + 1) % n : 1; }

static void exchange_alltoallv(void)
{
    uint64_t c[64], got[64];
    for (int t = 0; t < n; t++)
        c[t] = sends_to(t) ? B : 0;
    MPI_Alltoall(c, 1, MPI_UINT64_T, got, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    int so = 0, ro = 0;
    for (int t = 0; t < n; t++) {
        sc[t] = (int)c[t], sd[t] = so, so += sc[t];
        rc[t] = (int)got[t], rd[t] = ro, ro += rc[t];
    }
    MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
}

static void exchange_nbx(void)
{
    /* A rank may start the next exchange while another still probes in this
     * one (both have passed the barrier): tags alternate by exchange. */
    static int round;
    const int tag = TAG + (round++ & 1);
    int k = 0;
    for (int t = 0; t < n; t++)
        if (sends_to(t))
            MPI_Issend(sbuf + (size_t)t * B, (int)B, MPI_BYTE, t, tag, MPI_COMM_WORLD, &req[k++]);
    MPI_Request barrier = MPI_REQUEST_NULL;
    int done = 0, in_barrier = 0;
    size_t off = 0;
    while (!done) {
        int flag;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            int count;
            MPI_Get_count(&st, MPI_BYTE, &count);
            MPI_Recv(rbuf + off, count, MPI_BYTE, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            off += (size_t)count;
        }
        if (in_barrier) {
            MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
        } else {
            int sent;
            MPI_Testall(k, req, &sent, MPI_STATUSES_IGNORE);
            if (sent) {
                MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
                in_barrier = 1;
            }
        }
    }
}

static void exchange_rma(void)
{
    const size_t slot = 8 + B;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    for (int t = 0; t < n; t++)
        if (sends_to(t)) {
            /* the count word and the bytes, contiguous in the send buffer */
            MPI_Put(sbuf + (size_t)t * slot, (int)slot, MPI_BYTE, t, (MPI_Aint)((size_t)r * slot),
                    (int)slot, MPI_BYTE, win);
        }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
}

static void exchange_pull(void)
{
    uint64_t c[2 * 64], got[2 * 64];
    for (int t = 0; t < n; t++) {
        c[2 * t] = sends_to(t) ? B : 0;
        c[2 * t + 1] = (uint64_t)t * B; /* where t's bytes sit in my send buffer */
    }
    MPI_Alltoall(c, 2, MPI_UINT64_T, got, 2, MPI_UINT64_T, MPI_COMM_WORLD);
    MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOPUT, swin);
    size_t off = 0;
    for (int t = 0; t < n; t++)
        if (got[2 * t]) {
            MPI_Get(rbuf + off, (int)got[2 * t], MPI_BYTE, t, (MPI_Aint)got[2 * t + 1], (int)got[2 * t],
                    MPI_BYTE, swin);
            off += got[2 * t];
        }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, swin);
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double per_exchange(void (*fn)(void), int iters)
{
    double t[REPS];
    for (int k = 0; k < REPS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++)
            fn();
        double mine = (MPI_Wtime() - t0) / iters, slowest;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        t[k] = slowest;
    }
    qsort(t, REPS, sizeof *t, cmpd);
    return t[REPS / 2];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    long bytes = argc > 1 ? atol(argv[1]) : 24;
    int iters = argc > 2 ? atoi(argv[2]) : 1000;
    if (n > 64 || bytes < 8 || bytes > (1 << 24) || iters < 1) {
        if (r == 0)
            fprintf(stderr, "usage: mpirun -np N (N <= 64) mpi_exchange [bytes in 8..2^24] [iterations >= 1]\n");
        MPI_Finalize();
        return 2;
    }
    B = (size_t)bytes;
    const size_t slot = 8 + B;
    sbuf = calloc((size_t)n, slot);
    rbuf = calloc((size_t)n, slot);
    sc = malloc(n * sizeof *sc), sd = malloc(n * sizeof *sd);
    rc = malloc(n * sizeof *rc), rd = malloc(n * sizeof *rd);
    req = malloc(n * sizeof *req);
    for (int t = 0; t < n; t++)
        memcpy(sbuf + (size_t)t * slot, &B, sizeof B);
    MPI_Win_allocate((MPI_Aint)((size_t)n * slot), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win_mem, &win);
    MPI_Win_allocate((MPI_Aint)((size_t)n * B), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &swin_mem, &swin);
    for (sparse = 0; sparse <= 1; sparse++) {
        double a = per_exchange(exchange_alltoallv, iters);
        double x = per_exchange(exchange_nbx, iters);
        double w = per_exchange(exchange_rma, iters);
        double g = per_exchange(exchange_pull, iters);
        if (r == 0)
            printf("exchange,%d,%s,%zu,%.3f,%.3f,%.3f,%.3f\n", n, sparse ? "sparse" : "dense", B,
                   a * 1e6, x * 1e6, w * 1e6, g * 1e6);
    }
    MPI_Win_free(&swin);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
