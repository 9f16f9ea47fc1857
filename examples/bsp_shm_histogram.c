/* A histogram and a counting sort in shared memory, from a BSPlib program
 * (bsp_shm.h: concurrent reads, writes and fetch-and-adds, served at each
 * bsp_sync by multi-phase combining — Valiant 1992).
 *
 * Every process draws `per` samples, each falling into one of `bins` bins,
 * skewed so that low bins are hot spots (thousands of requests for one cell
 * in one superstep: combining merges them on the way).
 *   superstep 1  each sample fetch-and-adds 1 to its bin's counter; the
 *                answer is the sample's rank within its bin;
 *   superstep 2  every process reads the whole histogram (P·bins concurrent
 *                reads of `bins` cells) and checks it against a sequential
 *                count;
 *   superstep 3  each sample writes its id to position offset(bin) + rank of
 *                the output segment (a counting sort: every position is
 *                written exactly once);
 *   superstep 4  every process reads its block of the output and checks that
 *                each position holds a sample of the position's bin.
 * Exits with status 1 if anything differs from the sequential reference.
 * BSPRAM_TRACE=trace.csv shows the combining phases of each superstep.
 *
 *   bsp_shm_histogram [P] [samples per process] [bins]
 */
#include <bsp.h>
#include <bsp_shm.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned P = 4;
static uint64_t per = 1000, bins = 16;
static atomic_int failures;

/* The bin of global sample i: bins·u² for a uniform u (splitmix64). */
static uint64_t bin_of(uint64_t i)
{
    uint64_t z = i + UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z ^= z >> 31;
    double u = (double)(z >> 11) / 9007199254740992.0;
    return (uint64_t)((double)bins * u * u);
}

static void spmd(void)
{
    bsp_begin(P);
    const unsigned pid = bsp_pid(), np = bsp_nprocs();
    const uint64_t total = (uint64_t)np * per;
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    bsp_shm_t hist = bsp_shm_alloc(bins, 8, BSP_SHM_HASHED);
    bsp_shm_t out = bsp_shm_alloc(total, 8, BSP_SHM_BLOCK);
    uint64_t *rank = malloc(per * sizeof *rank), *count = malloc(bins * sizeof *count);
    uint64_t *expect = calloc(bins, sizeof *expect), *offset = malloc(bins * sizeof *offset);
    uint64_t *mine = malloc(per * sizeof *mine);
    bsp_sync(); /* the segments exist from here on */

    const uint64_t one = 1;
    for (uint64_t k = 0; k < per; k++)
        bsp_shm_fetch_op(hist, bin_of(pid * per + k), sum, &one, &rank[k]);
    bsp_sync(); /* ranks: 0, 1, 2, … within each bin */

    for (uint64_t b = 0; b < bins; b++)
        bsp_shm_read(hist, b, &count[b]);
    bsp_sync();
    int bad = 0;
    for (uint64_t i = 0; i < total; i++)
        expect[bin_of(i)]++;
    uint64_t at = 0;
    for (uint64_t b = 0; b < bins; b++) {
        bad += count[b] != expect[b];
        offset[b] = at;
        at += count[b];
    }
    for (uint64_t k = 0; k < per; k++) {
        uint64_t b = bin_of(pid * per + k), id = pid * per + k + 1; /* 0: empty */
        bad += rank[k] >= count[b];
        if (rank[k] < count[b] && offset[b] + rank[k] < total)
            bsp_shm_write(out, offset[b] + rank[k], BSP_SHM_PRIORITY, &id);
    }
    bsp_sync();

    for (uint64_t k = 0; k < per; k++)
        bsp_shm_read(out, pid * per + k, &mine[k]);
    bsp_sync();
    for (uint64_t k = 0, b = 0; k < per; k++) {
        uint64_t pos = pid * per + k;
        while (b + 1 < bins && offset[b + 1] <= pos)
            b++;
        bad += mine[k] == 0 || mine[k] > total || bin_of(mine[k] - 1) != b;
    }
    if (bad)
        atomic_fetch_add(&failures, bad);
    if (pid == 0)
        printf("%" PRIu64 " samples in %" PRIu64 " bins on %u processes: bin 0 holds %" PRIu64
               "; histogram and counting sort %s the sequential reference\n",
               total, bins, np, count[0], bad ? "DIFFER FROM" : "equal");
    bsp_shm_free(hist);
    bsp_shm_free(out);
    free(rank);
    free(count);
    free(expect);
    free(offset);
    free(mine);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        P = (unsigned)strtoul(argv[1], NULL, 10);
    if (argc > 2)
        per = strtoull(argv[2], NULL, 10);
    if (argc > 3)
        bins = strtoull(argv[3], NULL, 10);
    if (P == 0 || per == 0 || bins == 0) {
        fprintf(stderr, "usage: %s [P >= 1] [samples per process >= 1] [bins >= 1]\n", argv[0]);
        return 2;
    }
    bsp_init(spmd, argc, argv);
    spmd();
    int f = atomic_load(&failures);
    if (f)
        fprintf(stderr, "bsp_shm_histogram: %d differences from the sequential reference\n", f);
    return f ? 1 : 0;
}
