/* Exercise 7 (docs/course/07_merge.md), a WRONG solution: too many steps.
 *
 * The sequential merge on one VP: each step it compares the heads of A and
 * B (its registers point at them) and writes the smaller to C. Exclusive
 * and O(n) work, but n steps where the exercise asks O(log n).
 * fails: steps
 *
 *   merge_steps N    (2 ≤ N ≤ 2^22, even) exit 0 if C is right (it is) */
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

static bspram_pram_array X, C;

/* Step k: VP 0 with reg[0] = next of A, reg[1] = next of B. */
static void take(bspram_vp *vp, void *arg)
{
    const uint64_t k = *(const uint64_t *)arg, n = bspram_vp_n(vp), m = n / 2;
    if (bspram_vp_id(vp) != 0)
        return;
    uint64_t *reg = bspram_vp_registers(vp);
    const int a_left = reg[0] < m, b_left = reg[1] < m;
    const uint64_t a = a_left ? bspram_vp_get(vp, X, reg[0]) : 0, b = b_left ? bspram_vp_get(vp, X, m + reg[1]) : 0;
    if (a_left && (!b_left || a < b)) {
        bspram_vp_write(vp, C, k, a);
        reg[0]++;
    } else {
        bspram_vp_write(vp, C, k, b);
        reg[1]++;
    }
}

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 2 || n > (UINT64_C(1) << 22) || n % 2) {
        fprintf(stderr, "usage: merge_steps N, 2 <= N <= 2^22, N even\n");
        return 2;
    }
    const uint64_t m = n / 2;
    uint64_t *x = malloc(n * sizeof *x), *c = malloc(n * sizeof *c);
    if (!x || !c)
        return 1;
    for (uint64_t k = 0; k < n; k++)
        x[k] = 3 * k + 1;
    for (uint64_t k = n; k > 1; k--) {
        uint64_t j = input(7, k, 0, k), t = x[k - 1];
        x[k - 1] = x[j];
        x[j] = t;
    }
    qsort(x, m, sizeof *x, by_value);
    qsort(x + m, m, sizeof *x, by_value);
    bspram_pram_config cf = bspram_pram_config_default(n, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&cf);
    X = bspram_pram_alloc(P, "X", n);
    C = bspram_pram_alloc(P, "C", n);
    bspram_pram_load(P, X, x, n);
    for (uint64_t k = 0; k < n; k++)
        bspram_pram_for_all(P, take, &k);
    bspram_pram_store(P, C, c, n);
    bspram_pram_destroy(P);
    qsort(x, n, sizeof *x, by_value);
    for (uint64_t k = 0; k < n; k++)
        if (c[k] != x[k]) {
            fprintf(stderr, "merge_steps: C[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", k, c[k], x[k]);
            free(x);
            free(c);
            return 1;
        }
    free(x);
    free(c);
    return 0;
}
