/* A large PRAM: n = 2^22 VPs on p = 4096 components (slack 1024), one CREW
 * step — a gather of a permutation's cells and a scatter through another
 * permutation — verified cell by cell, with its cost from the records. A
 * permutation meets no combining, so the AUTO basis is told degree 1 and
 * runs one phase.
 * `test_pram_big L` runs n = 2^L instead (2^24 works: about 6 GB). Under
 * AddressSanitizer the default is 2^20, which it runs in the time 2^22 takes
 * without it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "pram/pram.h"

#if defined(__SANITIZE_ADDRESS__)
#define DEFAULT_LOG2 20
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define DEFAULT_LOG2 20
#endif
#endif
#ifndef DEFAULT_LOG2
#define DEFAULT_LOG2 22
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : DEFAULT_LOG2;
    if (lg < 4 || lg > 32) {
        fprintf(stderr, "usage: test_pram_big [log2 n in 4..32]\n");
        return 2;
    }
    const uint64_t n = UINT64_C(1) << lg;
    /* odd multipliers: i ↦ a·i + b mod 2^lg is a permutation */
    const uint64_t mask = n - 1, a1 = 0x9E3779B97F4A7C15 | 1, a2 = 0xC2B2AE3D27D4EB4F | 1;
    double t0 = now();
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CREW);
    c.combine.degree_hint = 1; /* permutations: one phase (Valiant 1992, Table 2) */
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_array A = bspram_pram_alloc(P, "A", n), B = bspram_pram_alloc(P, "B", n);
    uint64_t *v = malloc(n * sizeof *v), *cells = malloc(n * sizeof *cells), *out = malloc(n * sizeof *out);
    if (!v || !cells || !out) {
        fprintf(stderr, "test_pram_big: out of memory\n");
        return 1;
    }
    for (uint64_t i = 0; i < n; i++)
        v[i] = i ^ 0x5555;
    bspram_pram_load(P, A, v, n);
    for (uint64_t i = 0; i < n; i++)
        cells[i] = bspram_pram_cell(P, A, (a1 * i + 7) & mask);
    double t1 = now();
    bspram_pram_gather(P, 1, cells, out);
    double t2 = now();
    int bad = 0;
    for (uint64_t i = 0; i < n; i++)
        bad += out[i] != (((a1 * i + 7) & mask) ^ 0x5555);
    CHECK_EQ_U64(bad, 0);
    for (uint64_t i = 0; i < n; i++) {
        cells[i] = bspram_pram_cell(P, B, (a2 * i + 3) & mask);
        out[i] += i; /* the value VP i writes */
    }
    double t3 = now();
    bspram_pram_scatter(P, 1, cells, out);
    double t4 = now();
    bspram_pram_store(P, B, v, n);
    bad = 0;
    for (uint64_t i = 0; i < n; i++)
        bad += v[(a2 * i + 3) & mask] != out[i];
    CHECK_EQ_U64(bad, 0);
    bspram_pram_stats s = bspram_pram_stats_of(P);
    CHECK_EQ_U64(s.steps, 1);
    CHECK_EQ_U64(s.work, 2 * n);
    CHECK(s.supersteps > 0 && s.charge >= n / 4096);
    printf("n = 2^%d, p = %" PRIu64 ", T = %d: setup %.2f s, gather %.2f s, scatter %.2f s; "
           "%" PRIu64 " supersteps, charge %" PRIu64 ", slowdown %.2f\n",
           lg, bspram_pram_p(P), c.threads, t1 - t0, t2 - t1, t4 - t3, s.supersteps, s.charge, s.slowdown);
    free(v);
    free(cells);
    free(out);
    bspram_pram_destroy(P);
    return check_report("test_pram_big");
}
