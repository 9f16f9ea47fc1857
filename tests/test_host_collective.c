/* The machine's host collectives and team verbs (bsp/machine_internal.h):
 * what a rank holds (spread, block, lanes) and how the ranks share it (sum,
 * or, concat, share_owned, share_parts, team gather). On one process every
 * verb is the identity; the same program runs on 1 to 4 MPI ranks
 * (test_host_collective_mpi<N>), where machines of at least as many
 * components as ranks are spread and take every verb's spread path, and
 * smaller ones run whole on every rank. Each rank fills only what its own
 * components own, with garbage elsewhere, and checks that it ends up with
 * everyone's. */
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "check.h"
#include "bsp/machine_internal.h"

static uint64_t value(uint64_t i) { return i * 0x9e3779b97f4a7c15u + 1; }
static uint64_t garbage(uint64_t i) { return 0xdead0000u + bspram_rank() * 977 + i; }

/* word i's owner: a spread-out component, none for every fifth word */
typedef struct owners {
    uint64_t p;
} owners;

static uint64_t word_owner(uint64_t i, const void *arg)
{
    const owners *o = arg;
    return i % 5 == 0 ? BSPRAM__BSP_EVERY_RANK : (i * 7 + 3) % o->p;
}

static bool not_third(uint64_t i, const void *arg)
{
    (void)arg;
    return i % 3 != 0;
}

/* What the ranks bring: blocks and lanes in rank order tile [0, p) and
 * [0, T), and concat gives every rank's bytes (counts differ, some 0). */
static void check_layout(bspram_machine *m, uint64_t p, int threads)
{
    const unsigned ranks = bspram_ranks(), rank = bspram_rank();
    const bool spread = bspram__bsp_machine_spread(m);
    CHECK(spread == (ranks > 1 && p >= ranks));
    uint64_t first, end;
    unsigned lo, hi;
    bspram__bsp_machine_block(m, &first, &end);
    bspram__bsp_machine_lanes(m, &lo, &hi);
    CHECK(lo < hi && first <= end);
    if (!spread)
        CHECK(first == 0 && end == p && lo == 0 && hi == (unsigned)bspram_machine_threads(m));
    else /* raised to a lane per rank at least */
        CHECK(bspram_machine_threads(m) >= (int)ranks && bspram_machine_threads(m) >= threads);
    uint64_t mine[4] = {first, end, lo, hi};
    size_t total;
    uint64_t *all = bspram__bsp_machine_concat(m, mine, sizeof mine, &total);
    const unsigned r = spread ? ranks : 1;
    CHECK_EQ_U64(total, r * sizeof mine);
    if (total == r * sizeof mine) {
        CHECK(all[0] == 0 && all[4 * (r - 1) + 1] == p);
        CHECK(all[2] == 0 && all[4 * (r - 1) + 3] == (uint64_t)bspram_machine_threads(m));
        for (unsigned k = 1; k < r; k++)
            CHECK(all[4 * k] == all[4 * k - 3] && all[4 * k + 2] == all[4 * k - 1]);
    }
    free(all);
    /* rank k brings k % 3 words k·10 + j */
    const unsigned own = spread ? rank % 3 : 0;
    uint64_t words[2] = {rank * 10, rank * 10 + 1};
    all = bspram__bsp_machine_concat(m, own ? words : NULL, own * sizeof *words, &total);
    size_t at = 0;
    for (unsigned k = 0; k < r; k++)
        for (unsigned j = 0; j < (spread ? k % 3 : 0); j++, at++)
            CHECK(at * 8 < total && all[at] == k * 10 + j);
    CHECK_EQ_U64(total, at * 8);
    free(all);
}

static void check_merges(bspram_machine *m)
{
    const bool spread = bspram__bsp_machine_spread(m);
    const uint64_t r = spread ? bspram_ranks() : 1, rank = bspram_rank();
    uint64_t w[3] = {1, rank + 1, UINT64_MAX};
    bspram__bsp_machine_sum(m, w, 3);
    CHECK_EQ_U64(w[0], r);
    CHECK_EQ_U64(w[1], spread ? r * (r + 1) / 2 : rank + 1);
    CHECK_EQ_U64(w[2], UINT64_MAX * r); /* mod 2^64 */
    uint64_t o[2] = {UINT64_C(1) << rank, 6};
    bspram__bsp_machine_or(m, o, 2);
    CHECK_EQ_U64(o[0], spread ? (UINT64_C(1) << r) - 1 : UINT64_C(1) << rank);
    CHECK_EQ_U64(o[1], 6);
    bspram__bsp_machine_sum(m, NULL, 0); /* nothing: NULL is fine */
}

static void check_share_owned(bspram_machine *m, uint64_t p)
{
    uint64_t first, end;
    bspram__bsp_machine_block(m, &first, &end);
    owners o = {p};
    enum { N = 203 };
    uint64_t words[N];
    for (uint64_t i = 0; i < N; i++) {
        uint64_t c = word_owner(i, &o);
        words[i] = c == BSPRAM__BSP_EVERY_RANK || (c >= first && c < end) ? value(i) : garbage(i);
    }
    bspram__bsp_machine_share_owned(m, words, N, word_owner, &o);
    for (uint64_t i = 0; i < N; i++)
        CHECK_EQ_U64(words[i], value(i));
}

/* Parts of one 12-byte element per component; then parts of 0 to 3 words
 * per component, of which only the words not divisible by 3 are shared. */
static void check_share_parts(bspram_machine *m, uint64_t p)
{
    uint64_t first, end;
    bspram__bsp_machine_block(m, &first, &end);
    unsigned char (*el)[12] = malloc(p * sizeof *el);
    for (uint64_t c = 0; c < p; c++) {
        uint64_t v = c >= first && c < end ? value(c) : garbage(c);
        memcpy(el[c], &v, 8);
        memset(el[c] + 8, (int)(v & 0xff), 4);
    }
    bspram__bsp_machine_share_parts(m, el, sizeof *el, NULL, NULL, NULL);
    for (uint64_t c = 0; c < p; c++) {
        uint64_t v;
        memcpy(&v, el[c], 8);
        CHECK_EQ_U64(v, value(c));
        CHECK(el[c][11] == (unsigned char)(value(c) & 0xff));
    }
    free(el);

    uint64_t *at = malloc((p + 1) * sizeof *at);
    at[0] = 0;
    for (uint64_t c = 0; c < p; c++)
        at[c + 1] = at[c] + c % 4;
    uint64_t *w = malloc((at[p] + 1) * sizeof *w);
    const uint64_t lo = at[first], hi = at[end];
    for (uint64_t i = 0; i < at[p]; i++)
        w[i] = i >= lo && i < hi ? value(i) : garbage(i);
    bspram__bsp_machine_share_parts(m, w, sizeof *w, at, not_third, NULL);
    for (uint64_t i = 0; i < at[p]; i++)
        CHECK_EQ_U64(w[i], (i >= lo && i < hi) || not_third(i, NULL) ? value(i) : garbage(i));
    free(w);
    free(at);
}

/* Inside a team: gather, posted, records, and a host collective by the
 * leading lane between two barriers. */
typedef struct team_case {
    uint64_t *all; /* [T] */
    _Atomic int posted_before, posted_after, not_posted;
} team_case;

static bool send_one(bspram_component *self, void *arg)
{
    (void)arg;
    bspram_send(self, (bspram_pid(self) + 1) % bspram_nprocs(self), NULL, 0);
    return false;
}

static void team_lane(bspram_team *t, void *arg)
{
    team_case *tc = arg;
    bspram_machine *m = bspram__bsp_team_machine(t);
    const unsigned lane = bspram__bsp_team_lane(t);
    const bool lead = bspram__bsp_team_leads(t);
    uint64_t mine = lane * 10 + 1;
    bspram__bsp_team_gather(t, &mine, sizeof mine, lead ? tc->all : NULL);
    if (lead)
        for (int l = 0; l < bspram_machine_threads(m); l++)
            CHECK_EQ_U64(tc->all[l], (uint64_t)l * 10 + 1);

    if (bspram__bsp_team_posted(t))
        tc->posted_before++;
    size_t n0 = lead ? bspram__bsp_team_records(t) : 0;
    bspram__bsp_team_each(t, send_one, NULL);
    /* a lane posts iff its block is not empty */
    if (bspram__bsp_team_posted(t) != (bspram__bsp_team_first(t) < bspram__bsp_team_end(t)))
        tc->not_posted++;
    bspram__bsp_team_exchange(t, 0);
    if (bspram__bsp_team_posted(t))
        tc->posted_after++;
    if (lead)
        CHECK_EQ_U64(bspram__bsp_team_records(t), n0 + 1);

    bspram__bsp_team_barrier(t);
    if (lead) {
        uint64_t one = 1;
        bspram__bsp_machine_sum(m, &one, 1);
        CHECK_EQ_U64(one, bspram__bsp_machine_spread(m) ? bspram_ranks() : 1);
    }
    bspram__bsp_team_barrier(t);
}

static void check_team(bspram_machine *m)
{
    team_case tc = {.all = calloc((size_t)bspram_machine_threads(m), sizeof *tc.all)};
    bspram__bsp_machine_team(m, team_lane, &tc);
    CHECK(tc.posted_before == 0 && tc.posted_after == 0 && tc.not_posted == 0);
    free(tc.all);
}

int main(void)
{
    static const uint64_t ps[] = {1, 2, 5, 13};
    static const int ts[] = {1, 3};
    for (size_t i = 0; i < sizeof ps / sizeof *ps; i++)
        for (size_t j = 0; j < sizeof ts / sizeof *ts; j++) {
            bspram_config cfg = bspram_config_default(ps[i]);
            cfg.threads = ts[j];
            bspram_machine *m = bspram_machine_create(&cfg);
            check_layout(m, ps[i], ts[j]);
            check_merges(m);
            check_share_owned(m, ps[i]);
            check_share_parts(m, ps[i]);
            check_team(m);
            bspram_machine_destroy(m);
        }
    return check_report("test_host_collective");
}
