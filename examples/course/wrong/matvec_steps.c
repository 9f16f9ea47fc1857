/* Exercise 10 (docs/course/10_matvec.md), a WRONG solution: too many steps.
 *
 * One VP per row: in step j, VP i adds A[i][j]·x_j to its register (x_j
 * read by every VP at once: CREW), and writes y_i at the end. O(n²) work
 * on CREW, but n steps where the exercise asks O(log n): the n products of
 * a row are added one after the other.
 * fails: steps
 *
 *   matvec_steps N     (1 ≤ N ≤ 2048) exit 0 if y = A x (it is) */
#include <pram/pram.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* The input: a number in [0, bound) from (seed, i, stream), the same every
 * run (a splitmix64 finaliser of the three). */
static uint64_t input(uint64_t seed, uint64_t i, uint64_t stream, uint64_t bound)
{
    uint64_t x = seed * UINT64_C(0x9e3779b97f4a7c15) + stream * UINT64_C(0xd1b54a32d192ed03) + i;
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (x ^ (x >> 31)) % bound;
}

static bspram_pram_array A, X, Y;

static void row(bspram_vp *vp, void *arg)
{
    const uint64_t j = *(const uint64_t *)arg, i = bspram_vp_id(vp), n = bspram_vp_n(vp);
    uint64_t *acc = bspram_vp_registers(vp);
    acc[0] += bspram_vp_get(vp, A, i * n + j) * bspram_vp_get(vp, X, j);
    if (j + 1 == n)
        bspram_vp_write(vp, Y, i, acc[0]);
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 64;
    if (n < 1 || n > 2048) {
        fprintf(stderr, "usage: matvec_steps N, 1 <= N <= 2048\n");
        return 2;
    }
    uint64_t *a = malloc(n * n * sizeof *a), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (!a || !x || !y)
        return 1;
    for (uint64_t k = 0; k < n * n; k++)
        a[k] = input(10, k, 0, 100);
    for (uint64_t j = 0; j < n; j++)
        x[j] = input(10, j, 1, 100);
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CREW);
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", n * n);
    X = bspram_pram_alloc(P, "X", n);
    Y = bspram_pram_alloc(P, "Y", n);
    bspram_pram_load(P, A, a, n * n);
    bspram_pram_load(P, X, x, n);
    for (uint64_t j = 0; j < n; j++)
        bspram_pram_for_all(P, row, &j);
    bspram_pram_store(P, Y, y, n);
    bspram_pram_destroy(P);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t want = 0;
        for (uint64_t j = 0; j < n; j++)
            want += a[i * n + j] * x[j];
        if (y[i] != want) {
            fprintf(stderr, "matvec_steps: y[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, y[i], want);
            free(a);
            free(x);
            free(y);
            return 1;
        }
    }
    free(a);
    free(x);
    free(y);
    return 0;
}
