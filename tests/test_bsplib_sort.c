/* Classic BSPlib program: sample sort by regular sampling (Shi & Schaeffer
 * 1992; Bisseling 2020, §1.8 exercise). Samples go to pid 0 by puts, the
 * splitters come back by gets, the keys travel by bsp_send and arrive by
 * bsp_move; each process compares its bucket with its stretch of qsort's
 * output of the same keys. */
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"

static unsigned P;
enum { N = 20000 };
static uint64_t keys[N], sorted_ref[N]; /* made by main before bsp_init */

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void spmd(void)
{
    bsp_begin(P);
    const unsigned p = bsp_nprocs(), s = bsp_pid();
    const size_t lo = (size_t)N * s / p, hi = (size_t)N * (s + 1) / p, nl = hi - lo;
    uint64_t *local = malloc((nl ? nl : 1) * sizeof *local);
    memcpy(local, keys + lo, nl * sizeof *local);
    qsort(local, nl, sizeof *local, cmp);

    uint64_t *samples = calloc((size_t)p * p, sizeof *samples); /* used on pid 0 */
    uint64_t *splitters = calloc(p, sizeof *splitters);
    size_t *counts = calloc(p, sizeof *counts);
    bsp_push_reg(samples, (size_t)p * p * sizeof *samples);
    bsp_push_reg(splitters, p * sizeof *splitters);
    bsp_push_reg(counts, p * sizeof *counts);
    bsp_sync();

    /* p regular samples of the local keys to pid 0 */
    uint64_t mysamples[64];
    for (unsigned i = 0; i < p; i++)
        mysamples[i] = nl ? local[i * nl / p] : UINT64_MAX;
    bsp_put(0, mysamples, samples, (size_t)s * p * sizeof *samples, p * sizeof *samples);
    bsp_sync();

    if (s == 0) {
        qsort(samples, (size_t)p * p, sizeof *samples, cmp);
        for (unsigned i = 1; i < p; i++)
            splitters[i - 1] = samples[(size_t)i * p];
        splitters[p - 1] = UINT64_MAX;
    }
    bsp_sync();
    uint64_t *split = malloc(p * sizeof *split);
    bsp_get(0, splitters, 0, split, p * sizeof *split);
    bsp_sync();

    /* bucket t gets keys in (split[t-1], split[t]] */
    size_t start = 0;
    for (unsigned t = 0; t < p; t++) {
        size_t end = start;
        while (end < nl && (t == p - 1 || local[end] <= split[t]))
            end++;
        bsp_send(t, NULL, local + start, (end - start) * sizeof *local);
        start = end;
    }
    bsp_sync();

    bsp_nprocs_t packets;
    bsp_size_t bytes;
    bsp_qsize(&packets, &bytes);
    SPMD_CHECK(packets == p);
    uint64_t *bucket = malloc(bytes ? bytes : 1);
    size_t nb = 0;
    for (unsigned i = 0; i < packets; i++) {
        bsp_size_t len;
        bsp_get_tag(&len, NULL);
        bsp_move(bucket + nb, len);
        nb += len / sizeof *bucket;
    }
    qsort(bucket, nb, sizeof *bucket, cmp);
    for (unsigned t = s + 1; t < p; t++)
        bsp_put(t, &nb, counts, s * sizeof nb, sizeof nb);
    bsp_sync();
    size_t offset = 0;
    for (unsigned t = 0; t < s; t++)
        offset += counts[t];
    /* The buckets tile the output: each is its stretch of the sorted keys,
     * and the last one ends at N. */
    SPMD_CHECK(offset + nb <= N);
    if (offset + nb <= N)
        SPMD_CHECK(memcmp(sorted_ref + offset, bucket, nb * sizeof *bucket) == 0);
    if (s == p - 1)
        SPMD_CHECK(offset + nb == N);
    bsp_pop_reg(counts);
    bsp_pop_reg(splitters);
    bsp_pop_reg(samples);
    bsp_sync();
    free(bucket), free(split), free(counts), free(splitters), free(samples), free(local);
    bsp_end();
}

int main(int argc, char **argv)
{
    uint64_t x = 42;
    for (size_t i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        keys[i] = x % 100000; /* duplicates on purpose */
    }
    memcpy(sorted_ref, keys, sizeof keys);
    qsort(sorted_ref, N, sizeof *sorted_ref, cmp);
    bsp_init(spmd, argc, argv);
    for (size_t k = 0; k < BSPLIB_TEST_NPS; k++) {
        P = bsplib_test_ps[k];
        spmd();
        CHECK_SPMD("sample sort");
    }
    return check_report("test_bsplib_sort");
}
