/* Exercise 10 (docs/course/10_matvec.md): the product y = A x of an n × n
 * matrix and a vector on a CREW PRAM in O(log n) steps and O(n²) work. The
 * reference solution.
 *
 * n² VPs, VP (i, j) = i·n + j. Step 1: VP (i, j) multiplies A[i][j] by x_j
 * into T[i][j] — x_j is read by the n VPs of column j at once: CREW. Then
 * each row is summed by a balanced tree, all rows together: in the step of
 * stride s, VP (i, j) with j a multiple of 2s adds T[i][j + s] to T[i][j]
 * (exclusive). y_i = T[i][0]. Steps 1 + ⌈log2 n⌉, work Θ(n²).
 *
 *   matvec N     (1 ≤ N ≤ 2048; 64 without N) exit 0 if y = A x */
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

static bspram_pram_array A, X, T;

typedef struct stage {
    uint64_t n, s; /* s = 0: the products */
} stage;

static void step(bspram_vp *vp, void *arg)
{
    const stage *st = arg;
    const uint64_t v = bspram_vp_id(vp), i = v / st->n, j = v % st->n, s = st->s;
    if (s == 0)
        bspram_vp_write(vp, T, v, bspram_vp_get(vp, A, v) * bspram_vp_get(vp, X, j));
    else if (j % (2 * s) == 0 && j + s < st->n)
        bspram_vp_write(vp, T, v, bspram_vp_get(vp, T, v) + bspram_vp_get(vp, T, i * st->n + j + s));
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 64;
    if (n < 1 || n > 2048) {
        fprintf(stderr, "usage: matvec N, 1 <= N <= 2048\n");
        return 2;
    }
    uint64_t *a = malloc(n * n * sizeof *a), *x = malloc(n * sizeof *x), *t = malloc(n * n * sizeof *t);
    if (!a || !x || !t)
        return 1;
    for (uint64_t k = 0; k < n * n; k++)
        a[k] = input(10, k, 0, 100);
    for (uint64_t j = 0; j < n; j++)
        x[j] = input(10, j, 1, 100);

    bspram_pram_config c = bspram_pram_config_default(n * n, BSPRAM_CREW);
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", n * n);
    X = bspram_pram_alloc(P, "X", n);
    T = bspram_pram_alloc(P, "T", n * n);
    bspram_pram_load(P, A, a, n * n);
    bspram_pram_load(P, X, x, n);
    stage st = {n, 0};
    bspram_pram_for_all(P, step, &st);
    for (st.s = 1; st.s < n; st.s *= 2)
        bspram_pram_for_all(P, step, &st);
    bspram_pram_store(P, T, t, n * n);
    bspram_pram_destroy(P);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t y = 0;
        for (uint64_t j = 0; j < n; j++)
            y += a[i * n + j] * x[j];
        if (t[i * n] != y) {
            fprintf(stderr, "matvec: y[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, t[i * n], y);
            free(a);
            free(x);
            free(t);
            return 1;
        }
    }
    printf("matvec: n = %" PRIu64 ", y = A x\n", n);
    free(a);
    free(x);
    free(t);
    return 0;
}
