/* What an empty superstep's reduction costs in plain Open MPI, beside
 * MPI_Barrier (bench/RESULTS.md, "Over MPI", small supersteps): the nine
 * words of the MPI transport's reduction (a tag ORed, then sums and maxima)
 * by MPI_Allreduce with a user operation on a contiguous type of nine
 * MPI_UINT64_T (what the transport did), by MPI_Allreduce of nine words with
 * the builtin MPI_MAX and of one word with MPI_BOR (what a builtin operation
 * would cost), and by recursive doubling with MPI_Sendrecv (what it does now
 * on a power of two ranks). Each round runs a batch of N of each, one after
 * the other, every batch after a barrier; the figure is rank 0's median over
 * the rounds, and its ratio to MPI_Barrier's. The thread level is the
 * library's (MPI_THREAD_MULTIPLE).
 * usage: mpirun -np P mpi_reduce [iterations (2000)]
 * output: reduce,<P>,<way>,<us>,<ratio to MPI_Barrier> */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WORDS = 9, ROUNDS = 15, WAYS = 5 };
static const char *const NAMES[WAYS] = {"barrier", "allreduce-user-op", "allreduce-max", "allreduce-bor-1",
                                        "sendrecv-doubling"};

static void fold(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const uint64_t *a = in;
    uint64_t *b = inout;
    for (int k = 0; k < *len; k++, a += WORDS, b += WORDS) {
        b[0] |= a[0];
        for (int i = 1; i < WORDS; i++)
            b[i] = i < 5 ? b[i] + a[i] : (a[i] > b[i] ? a[i] : b[i]);
    }
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0, n = 1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    const long iters = argc > 1 && atol(argv[1]) > 0 ? atol(argv[1]) : 2000;
    MPI_Datatype words;
    MPI_Type_contiguous(WORDS, MPI_UINT64_T, &words);
    MPI_Type_commit(&words);
    MPI_Op op;
    MPI_Op_create(fold, 1, &op);
    uint64_t v[WORDS] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, out[WORDS], in[WORDS];
    double t[WAYS][ROUNDS];
    for (int r = 0; r < ROUNDS; r++)
        for (int w = 0; w < WAYS; w++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (long i = 0; i < iters; i++) {
                if (w == 0) {
                    MPI_Barrier(MPI_COMM_WORLD);
                } else if (w == 1) {
                    MPI_Allreduce(v, out, 1, words, op, MPI_COMM_WORLD);
                } else if (w == 2) {
                    MPI_Allreduce(v, out, WORDS, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
                } else if (w == 3) {
                    MPI_Allreduce(v, out, 1, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
                } else { /* a power of two ranks, as the transport */
                    memcpy(out, v, sizeof v);
                    for (int m = 1; m < n; m <<= 1) {
                        int one = 1;
                        MPI_Sendrecv(out, 1, words, rank ^ m, 0, in, 1, words, rank ^ m, 0, MPI_COMM_WORLD,
                                     MPI_STATUS_IGNORE);
                        fold(in, out, &one, &words);
                    }
                }
            }
            t[w][r] = (MPI_Wtime() - t0) / (double)iters * 1e6;
        }
    for (int w = 0; w < WAYS; w++)
        qsort(t[w], ROUNDS, sizeof(double), cmpd);
    if (rank == 0)
        for (int w = 0; w < WAYS; w++)
            if (w != WAYS - 1 || (n & (n - 1)) == 0)
                printf("reduce,%d,%s,%.3f,%.2f\n", n, NAMES[w], t[w][ROUNDS / 2], t[w][ROUNDS / 2] / t[0][ROUNDS / 2]);
    MPI_Op_free(&op);
    MPI_Type_free(&words);
    MPI_Finalize();
    return 0;
}
