/* Broadcast on an EREW PRAM by doubling, written in the textbook style
 * (bspram_pram_for_all).
 *
 * Algorithm: the EREW broadcast (JáJá 1992, "An Introduction to Parallel
 * Algorithms", §1.3: a value read by every processor takes Θ(log n) steps
 * without concurrent reads). Model: EREW — in step s the VPs i < 2^s copy
 * B[i] to B[i + 2^s]: every cell is read by one VP and written by one.
 * Time: ceil(log2 n) steps after the one that writes B[0]; work O(n); n/2
 * VPs. (Every VP reading B[0] at once is one step on a CREW PRAM, and the
 * violation pram_erew_violation shows on an EREW one.)
 *
 *   step 0   B[0] ← x
 *   for s = 1, 2, 4, … < n:  for all i < s, i + s < n in parallel:  B[i + s] ← B[i]
 *
 * Every cell then holds x, checked against the value.
 *
 *   pram_broadcast [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

typedef struct doubling {
    bspram_pram_array B;
    uint64_t n, s; /* s = 0: the first write */
    uint64_t x;
} doubling;

static void copy(bspram_vp *vp, void *arg)
{
    const doubling *d = arg;
    const uint64_t i = bspram_vp_id(vp);
    if (d->s == 0) {
        if (i == 0)
            bspram_vp_write(vp, d->B, 0, d->x);
    } else if (i < d->s && i + d->s < d->n) {
        bspram_vp_write(vp, d->B, i + d->s, bspram_vp_get(vp, d->B, i));
    }
}

static uint64_t vps_of(uint64_t n) { return n < 2 ? 1 : pram_example_pow2(n) / 2; }

static void run(const pram_example_params *prm, pram_example_result *res)
{
    const uint64_t n = prm->n;
    uint64_t *y = pram_example_words(n, "output");
    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, vps_of(n), 0, false, 1, res); /* exclusive */
    doubling d = {bspram_pram_alloc(P, "B", n), n, 0, 1 + pram_example_random(prm->seed, 0, 0, 1000)};
    double t1 = pram_example_clock();
    bspram_pram_for_all(P, copy, &d);
    for (d.s = 1; d.s < n; d.s *= 2)
        bspram_pram_for_all(P, copy, &d);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, d.B, y, n);
    pram_example_finish(P, res);

    t0 = pram_example_clock();
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
        wrong += y[i] != d.x;
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = n; /* n cells written */
    res->verified = wrong == 0 && res->stats.steps == 1u + pram_example_log2(pram_example_pow2(n));
    snprintf(res->detail, sizeof res->detail, "%" PRIu64 " cells hold %" PRIu64 "%s; %" PRIu64
             " steps, 1 + ceil(log2 n) = %u", n - wrong, d.x, wrong ? " (some do not)" : "", res->stats.steps,
             1 + pram_example_log2(pram_example_pow2(n)));
    free(y);
}

const pram_example pram_example_broadcast = {
    .name = "broadcast",
    .title = "broadcast by doubling, EREW, textbook style: 1 + log n steps",
    .n_means = "cells",
    .models = PRAM_MODELS_EREW_UP,
    .model = BSPRAM_EREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .vps = vps_of,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_broadcast); }
#endif
