/* The cycle model of the simple router (combine/cycles.h), calibrated.
 *
 * A lone (q, r)-pattern is a bipartite multigraph of largest degree
 * D = max(q, r); König: it can be delivered in D cycles, and no schedule
 * does better. The greedy order must give a valid schedule (every message
 * once; no component sends or receives twice in a cycle) of between D and
 * q + r − 1 cycles, exactly D where every conflict is at one component
 * (a matching: 1; a hot spot or a broadcast of n messages: n). Its overhead
 * over D on random patterns is printed (the calibration, docs/combining.md).
 *
 * On a batch: one phase is the same pattern for both algorithms (async =
 * sync), its cycles are at least the router's charge for the same batch
 * (the engine's records: the optimum) and at most q + r − 1; the phases'
 * cycles add up to the total; the same inputs give the same cycles.
 *
 * The same for the S*PRAM (a component receives only a lone transmission):
 * a valid schedule of at least max(q, r) cycles, a matching in one cycle,
 * and every message through in the end (back-off resolves a hot spot). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "combine/combine.h"
#include "combine/cycles.h"
#include "combine/experiment.h"
#include "hash/random.h"

/* Deliver msgs[0..n) on p components; check the schedule and the bounds;
 * return cycles / D. want_exact: the cycles must be D. */
static int sstar; /* the S*PRAM instead of the simple router */

static double pattern(uint64_t p, bspram__cycle_msg *msgs, size_t n, int want_exact)
{
    uint64_t *out = calloc(p, sizeof *out), *in = calloc(p, sizeof *in), q = 0, r = 0;
    for (size_t j = 0; j < n; j++) {
        msgs[j].index = (uint32_t)j;
        out[msgs[j].src]++;
        in[msgs[j].dst]++;
    }
    for (uint64_t c = 0; c < p; c++) {
        q = out[c] > q ? out[c] : q;
        r = in[c] > r ? in[c] : r;
    }
    bspram__cycle_msg *copy = malloc(n * sizeof *copy);
    if (n) /* msgs may be NULL for n = 0 */
        memcpy(copy, msgs, n * sizeof *copy);
    uint64_t *cyc = calloc(n, sizeof *cyc);
    uint64_t cycles = bspram__combine_cycles_pattern(p, copy, n, cyc, sstar, 5);
    uint64_t D = q > r ? q : r;
    CHECK(cycles >= D);
    if (!sstar) /* greedy: a message waits only while its ends are busy */
        CHECK(n == 0 || cycles <= q + r - 1);
    if (want_exact && (!sstar || D <= 1)) /* S*PRAM: collisions cost cycles, but a matching goes at once */
        CHECK_EQ_U64(cycles, D);
    /* Valid: every message in a cycle 1..cycles, and per cycle one send and
     * one receipt per component at most. */
    uint64_t *sent = calloc(p * (cycles + 1), 1), last = 0;
    unsigned char *s = (unsigned char *)sent, *rcv = calloc(p * (cycles + 1), 1);
    int bad = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t t = cyc[j];
        if (t < 1 || t > cycles) {
            bad = 1;
            continue;
        }
        last = t > last ? t : last;
        bad |= s[t * p + msgs[j].src]++ != 0;
        bad |= rcv[t * p + msgs[j].dst]++ != 0;
    }
    CHECK(!bad);
    CHECK_EQ_U64(last, cycles);
    free(sent);
    free(rcv);
    free(cyc);
    free(copy);
    free(out);
    free(in);
    return D ? (double)cycles / (double)D : 1;
}

static bspram__cycle_msg msg(uint64_t src, uint64_t dst, uint64_t seed, uint64_t j)
{
    return (bspram__cycle_msg){.src = (uint32_t)src, .dst = (uint32_t)dst, .prio = bspram_random2(seed, j, 7),
                               .key = j};
}

/* D random permutations: a D-regular bipartite multigraph. */
static double regular(uint64_t p, uint64_t D, uint64_t seed)
{
    bspram__cycle_msg *m = malloc(p * D * sizeof *m);
    uint64_t *perm = malloc(p * sizeof *perm);
    for (uint64_t k = 0; k < D; k++) {
        for (uint64_t c = 0; c < p; c++)
            perm[c] = c;
        for (uint64_t c = p - 1; c > 0; c--) {
            uint64_t j = bspram_random_below(c + 1, seed, k, c, 0), x = perm[c];
            perm[c] = perm[j];
            perm[j] = x;
        }
        for (uint64_t c = 0; c < p; c++)
            m[k * p + c] = msg(c, perm[c], seed, k * p + c);
    }
    double f = pattern(p, m, p * D, D == 1);
    free(m);
    free(perm);
    return f;
}

/* Valiant's degree-1 one-phase pattern: q per component, random owners. */
static double random_owners(uint64_t p, uint64_t q, uint64_t seed)
{
    bspram__cycle_msg *m = malloc(p * q * sizeof *m);
    for (uint64_t j = 0; j < p * q; j++)
        m[j] = msg(j % p, bspram_random_below(p, seed, j, 1, 2), seed, j);
    double f = pattern(p, m, p * q, 0);
    free(m);
    return f;
}

static void stars(uint64_t p)
{
    bspram__cycle_msg *m = malloc(p * sizeof *m);
    for (uint64_t c = 0; c < p; c++)
        m[c] = msg(c, 0, 5, c); /* a hot spot: all to component 0 */
    pattern(p, m, p, 1);
    for (uint64_t c = 0; c < p; c++)
        m[c] = msg(3 % p, c, 5, c); /* one component to all */
    pattern(p, m, p, 1);
    free(m);
}

/* The model on one batch of the §4 pattern (p, v, d) under basis text. */
static void batch(uint64_t p, uint64_t v, uint64_t d, const char *basis)
{
    bspram_config mc = bspram_config_default(p);
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(p, BSPRAM_HASH_XXH3, 17);
    uint32_t seg = bspram_segment_alloc(s, v / d, 8, BSPRAM_LAYOUT_HASHED);
    bspram_request *req = malloc(v * sizeof *req);
    uint64_t *first = malloc((p + 1) * sizeof *first);
    bspram_pattern_fill(s, seg, p, v, d, req, first);
    bspram_basis B;
    bspram_basis_require(&B, p, basis);
    uint64_t per[BSPRAM_MAX_PHASES + 2] = {0};
    uint64_t sync = bspram__combine_cycles_batch(s, &B, req, first, 9, false, sstar, per);
    uint64_t async = bspram__combine_cycles_batch(s, &B, req, first, 9, true, sstar, NULL);
    uint64_t sum = 0;
    for (unsigned i = 1; i <= B.m; i++)
        sum += per[i];
    CHECK_EQ_U64(sum, sync);
    CHECK_EQ_U64(bspram__combine_cycles_batch(s, &B, req, first, 9, true, sstar, NULL), async); /* a pure function */
    if (B.m == 1) {
        CHECK_EQ_U64(sync, async);
        /* The router's charge for the same batch is the optimum. */
        bspram_combine_options o = bspram_combine_defaults(p);
        o.basis = B;
        bspram_combiner *C = bspram_combiner_create(m, s, &o);
        bspram_combine_stats st;
        bspram_combine(C, req, first, NULL, &st);
        CHECK(sync >= st.charge);
        if (!sstar)
            CHECK(sync <= st.forward_q[1] + st.forward_r[1] - 1);
        bspram_combiner_destroy(C);
    }
    printf("%s: p = %" PRIu64 ", v = %" PRIu64 ", degree %" PRIu64 ", %s: sync %" PRIu64 " cycles, async %" PRIu64 "\n",
           sstar ? "S*PRAM" : "simple", p, v, d, basis, sync, async);
    free(req);
    free(first);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}

int main(void)
{
    static const uint64_t ps[] = {64, 512, 4096}, Ds[] = {1, 2, 8, 32};
    for (sstar = 0; sstar <= 1; sstar++) {
        const char *model = sstar ? "S*PRAM" : "simple router";
        for (size_t i = 0; i < 3; i++)
            for (size_t k = 0; k < 4; k++) {
                double f = 0;
                for (uint64_t seed = 1; seed <= 3; seed++)
                    f += regular(ps[i], Ds[k], seed);
                printf("%s, p = %" PRIu64 ", %" PRIu64 "-regular: cycles / optimum = %.3f\n", model, ps[i], Ds[k],
                       f / 3);
            }
        for (size_t i = 0; i < 3; i++) {
            double f = 0;
            for (uint64_t seed = 1; seed <= 3; seed++)
                f += random_owners(ps[i], 32, seed);
            printf("%s, p = %" PRIu64 ", 32 messages each to random owners: cycles / optimum = %.3f\n", model,
                   ps[i], f / 3);
            stars(ps[i]);
        }
        pattern(8, NULL, 0, 1); /* nothing: 0 cycles */
        batch(256, 256 * 32, 1, "256");
        batch(256, 256 * 32, 64, "256");
        batch(256, 256 * 32, 64, "16x16");
        batch(4096, 131072, 512, "32x8x4x4");
        batch(4096, 131072, 16, "1024x4");
    }
    return check_report("test_combine_cycles");
}
