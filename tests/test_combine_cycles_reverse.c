/* The reverse flow on the cycle model (combine/cycles.h): a READ's answer
 * travels back along its combining tree (Valiant §2), one message per
 * forward message, on the simple router and on the S*PRAM.
 *
 * Expected values by hand, not from the model:
 *   - a hot spot of p − 1 reads (every component but the owner) on one
 *     phase: p − 1 messages into the owner, one per cycle, and p − 1
 *     answers out of it, one per cycle: bulk-synchronously 2(p − 1);
 *     asynchronously the owner answers each read from the cycle after it
 *     arrives, one per cycle, so the last answer arrives in cycle p. The
 *     same batch as a reduction: p − 1 either way.
 *   - one key read once by those components, on any basis: every forward
 *     phase has q = 1 (each holder sends its one key once), an in-star
 *     forest, which the greedy order delivers in exactly its largest
 *     in-degree, the optimum; the answers of a phase are the transposed
 *     out-star forest, delivered in the same number of cycles. So
 *     bulk-synchronously the answers cost exactly what the forward phases
 *     did (not the reduction's cycles: the key's species is in the draws
 *     of the spreading offsets, so a read and a reduction spread apart).
 *   - §4's pattern as reads, one phase: at least the router's charge of the
 *     engine's batch of the same reads (forward and reverse supersteps, each
 *     charged the optimum max(q, r)) and at most twice q + r − 1.
 * On the S*PRAM only what holds for any schedule: the answers add at least
 * their optimum (p out of the owner; one per phase), and every answer is
 * delivered (the model ends). Every answer crosses the 2m edges of its
 * path, so asynchronously too a read takes at least 2m cycles. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "combine/combine.h"
#include "combine/cycles.h"
#include "combine/experiment.h"

/* Cycles of one request per component but `skip` (first[c] = its place),
 * of kind, on basis; *forward receives the forward phases' sum (sync). */
static uint64_t cycles(const bspram_space *s, const bspram_basis *B, bspram_request *req, uint64_t p,
                       uint64_t skip, uint8_t kind, bool async, bool sstar, uint64_t *forward)
{
    uint64_t *first = malloc((p + 1) * sizeof *first);
    for (uint64_t c = 0; c <= p; c++)
        first[c] = c - (c > skip);
    for (uint64_t c = 0; c + 1 < p; c++)
        req[c].kind = kind;
    uint64_t per[BSPRAM_MAX_PHASES + 2] = {0};
    uint64_t n = bspram__combine_cycles_batch(s, B, req, first, 3, async, sstar, per);
    *forward = 0;
    for (unsigned i = 1; i <= B->m; i++)
        *forward += per[i];
    free(first);
    return n;
}

/* Every component but the owner H reads (or adds into) one cell: H's own
 * request would be a message to itself, which takes one of H's sending
 * cycles at a time the greedy order decides — left out, the counts are
 * exact by hand. */
static void hot_spot(uint64_t p, const char *basis, bool sstar)
{
    bspram_space *s = bspram_space_create(p, BSPRAM_HASH_XXH3, 5);
    uint32_t seg = bspram_segment_alloc(s, 1, 8, BSPRAM_LAYOUT_HASHED);
    bspram_request *req = calloc(p, sizeof *req);
    uint64_t address = bspram_address(s, seg, 0), H = bspram_owner(s, address);
    for (uint64_t c = 0; c + 1 < p; c++)
        req[c].address = address;
    bspram_basis B;
    bspram_basis_require(&B, p, basis);
    const bool one_phase = B.m == 1;
    const uint8_t sum = bspram_kind_reduce(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64));
    uint64_t f_red, f_read, f;
    uint64_t red_sync = cycles(s, &B, req, p, H, sum, false, sstar, &f_red);
    uint64_t red_async = cycles(s, &B, req, p, H, sum, true, sstar, &f);
    uint64_t read_sync = cycles(s, &B, req, p, H, BSPRAM_READ, false, sstar, &f_read);
    uint64_t read_async = cycles(s, &B, req, p, H, BSPRAM_READ, true, sstar, &f);
    printf("%s, p = %" PRIu64 ", basis %s, one key read by all but its owner: reduce %" PRIu64 " / %" PRIu64
           " cycles, read %" PRIu64 " (forward %" PRIu64 ") / %" PRIu64 " (sync / async)\n",
           sstar ? "S*PRAM" : "simple", p, basis, red_sync, red_async, read_sync, f_read, read_async);
    CHECK_EQ_U64(f_red, red_sync); /* a reduction has no answers */
    if (!sstar) {
        CHECK_EQ_U64(read_sync, 2 * f_read); /* stars both ways: each phase's answers as its messages */
        if (one_phase) {
            CHECK_EQ_U64(red_sync, p - 1);
            CHECK_EQ_U64(red_async, p - 1);
            CHECK_EQ_U64(read_sync, 2 * (p - 1));
            CHECK_EQ_U64(read_async, p);
        }
    } else /* the answers take at least their optimum: p − 1 out of the owner, or one per phase */
        CHECK(read_sync >= f_read + (one_phase ? p - 1 : B.m));
    CHECK(read_async >= 2 * B.m); /* every answer crosses 2m edges, one cycle each at least */
    free(req);
    bspram_segment_free(s, seg);
    bspram_space_destroy(s);
}

/* §4's pattern (p, v, d) as reads on one phase, against the engine's charge. */
static void pattern_reads(uint64_t p, uint64_t v, uint64_t d)
{
    bspram_config mc = bspram_config_default(p);
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(p, BSPRAM_HASH_XXH3, 17);
    uint32_t seg = bspram_segment_alloc(s, v / d, 8, BSPRAM_LAYOUT_HASHED);
    bspram_request *req = malloc(v * sizeof *req);
    uint64_t *first = malloc((p + 1) * sizeof *first);
    bspram_pattern_fill(s, seg, p, v, d, req, first);
    char one[24];
    snprintf(one, sizeof one, "%" PRIu64, p);
    bspram_basis B;
    bspram_basis_require(&B, p, one);
    uint64_t red = bspram__combine_cycles_batch(s, &B, req, first, 9, false, false, NULL);
    for (uint64_t j = 0; j < v; j++)
        req[j].kind = BSPRAM_READ;
    uint64_t read = bspram__combine_cycles_batch(s, &B, req, first, 9, false, false, NULL);
    uint64_t read_async = bspram__combine_cycles_batch(s, &B, req, first, 9, true, false, NULL);
    CHECK_EQ_U64(bspram__combine_cycles_batch(s, &B, req, first, 9, true, false, NULL), read_async); /* pure */
    bspram_combine_options o = bspram_combine_defaults(p);
    o.basis = B;
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    bspram_combine_stats st;
    uint64_t *results = malloc(v * sizeof *results);
    bspram_combine(C, req, first, results, &st);
    CHECK_EQ_U64(st.reverse_phases, 1);
    CHECK(st.reverse_total > 0);
    CHECK(read >= st.charge + st.reverse_total); /* forward and reverse, each at least its optimum */
    CHECK(read <= 2 * (st.forward_q[1] + st.forward_r[1] - 1));
    printf("simple, p = %" PRIu64 ", v = %" PRIu64 ", degree %" PRIu64 ", one phase: reduce %" PRIu64
           " cycles, read %" PRIu64 " (async %" PRIu64 "), the engine's read charge %" PRIu64 " + %" PRIu64 "\n",
           p, v, d, red, read, read_async, st.charge, st.reverse_total);
    bspram_combiner_destroy(C);
    free(results);
    free(req);
    free(first);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}

int main(void)
{
    for (int sstar = 0; sstar <= 1; sstar++) {
        hot_spot(64, "64", sstar);
        hot_spot(64, "8x8", sstar);
        hot_spot(256, "4x4x4x4", sstar);
    }
    pattern_reads(256, 256 * 32, 1);
    pattern_reads(256, 256 * 32, 16);
    return check_report("test_combine_cycles_reverse");
}
