/* The ROUTE strategy: the programmer's own phases (combine.h, Valiant §5).
 * Reads, fetch-and-adds and reductions along a route of 3 phases (a
 * component's row, then the address's column, then the owner) give the
 * answers and cells of a sequential computation (the reverse flow runs back
 * along the route); the records show the route's destinations (phase 1 of
 * a row-structured batch is charged exactly its row load); one route phase
 * is the one-phase basis; the same for T = 1, 2, 3; bad options and a route
 * outside [0, p) are one line each. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "combine/combine.h"

enum { N = 16, P = N * N, CELLS = 40 };

static uint64_t row_then_column(unsigned phase, uint64_t address, uint64_t component, void *arg)
{
    const uint64_t *base = arg;
    uint64_t t = (address - *base) % N, i = component / N;
    return phase == 1 ? i * N + t : t * N + t;
}

static uint64_t off_the_machine(unsigned phase, uint64_t address, uint64_t component, void *arg)
{
    (void)phase, (void)address, (void)component, (void)arg;
    return P;
}

typedef struct outcome {
    uint64_t res[P * 3], mem[CELLS];
    bspram_combine_stats st;
} outcome;

/* Component c: fetch-add 1 into cell c mod CELLS, read cell (c+1) mod
 * CELLS, reduce c into cell (c+2) mod CELLS — one species per cell: fetch
 * on cells ≡ 0, read and reduce apart by taking cells below/above 20. */
static void run(int T, unsigned phases, bspram_route_fn route, outcome *o)
{
    bspram_config mc = bspram_config_default(P);
    mc.threads = T;
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(P, BSPRAM_HASH_XXH3, 5);
    uint32_t seg = bspram_segment_alloc(s, CELLS, 8, BSPRAM_LAYOUT_HASHED);
    uint64_t base = bspram_address(s, seg, 0);
    for (uint64_t a = 0; a < CELLS; a++)
        bspram_store(s, base + a, 100 * a);
    bspram_combine_options opt = bspram_combine_defaults(P);
    opt.strategy = BSPRAM_STRATEGY_ROUTE;
    opt.route = route;
    opt.route_arg = &base;
    opt.route_phases = phases;
    opt.seed = 2;
    bspram_combiner *C = bspram_combiner_create(m, s, &opt);
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    bspram_request req[P * 3];
    uint64_t first[P + 1];
    for (uint64_t c = 0; c < P; c++) {
        first[c] = 3 * c;
        req[3 * c] = (bspram_request){.address = base + c % 10, .value = 1, .kind = bspram_kind_fetch(sum)};
        req[3 * c + 1] = (bspram_request){.address = base + 10 + c % 10, .kind = BSPRAM_READ};
        req[3 * c + 2] = (bspram_request){.address = base + 20 + c % 20, .value = c, .kind = bspram_kind_reduce(sum)};
    }
    first[P] = 3 * P;
    memset(o->res, 0, sizeof o->res);
    bspram_combine(C, req, first, o->res, &o->st);
    for (uint64_t a = 0; a < CELLS; a++)
        o->mem[a] = bspram_load(s, base + a);
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}

static void check_against_sequential(const outcome *o)
{
    uint64_t mem[CELLS];
    for (uint64_t a = 0; a < CELLS; a++)
        mem[a] = 100 * a;
    int bad = 0;
    for (uint64_t c = 0; c < P; c++) {
        bad |= o->res[3 * c + 1] != 100 * (10 + c % 10); /* reads see memory before */
        mem[20 + c % 20] += c;
    }
    /* The fetches on cell a are a permutation of old, old + 1, …: each
     * answer in range and distinct. */
    for (uint64_t a = 0; a < 10; a++) {
        uint64_t k = P / 10 + (a < P % 10), seen = 0;
        mem[a] += k;
        unsigned char *hit = calloc(k, 1);
        for (uint64_t c = a; c < P; c += 10) {
            uint64_t x = o->res[3 * c] - 100 * a;
            bad |= x >= k || hit[x];
            if (x < k)
                hit[x] = 1;
            seen++;
        }
        bad |= seen != k;
        free(hit);
    }
    for (uint64_t a = 0; a < CELLS; a++)
        bad |= o->mem[a] != mem[a];
    CHECK(!bad);
}

static void bad_phases(void *arg)
{
    (void)arg;
    bspram_config mc = bspram_config_default(4);
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(4, BSPRAM_HASH_XXH3, 5);
    bspram_combine_options opt = bspram_combine_defaults(4);
    opt.strategy = BSPRAM_STRATEGY_ROUTE;
    opt.route = row_then_column;
    opt.route_phases = 0;
    bspram_combiner_create(m, s, &opt);
}

static void no_route(void *arg)
{
    (void)arg;
    bspram_config mc = bspram_config_default(4);
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(4, BSPRAM_HASH_XXH3, 5);
    bspram_combine_options opt = bspram_combine_defaults(4);
    opt.strategy = BSPRAM_STRATEGY_ROUTE;
    opt.route_phases = 2;
    bspram_combiner_create(m, s, &opt);
}

static void outside(void *arg)
{
    (void)arg;
    static outcome o;
    run(1, 2, off_the_machine, &o);
}

int main(void)
{
    static outcome a, b, one;
    run(1, 3, row_then_column, &a);
    check_against_sequential(&a);
    CHECK_EQ_U64(a.st.phases, 3);
    CHECK_EQ_U64(a.st.reverse_phases, 3);
    /* Phase 1 goes along the rows: component (i, j) sends its 3 requests to
     * (i, t) for t = their cells mod N; so a component receives at most what
     * its row sends to its column, counted here. */
    uint64_t r1 = 0;
    for (uint64_t i = 0; i < N; i++)
        for (uint64_t t = 0; t < N; t++) {
            uint64_t in = 0;
            for (uint64_t j = 0; j < N; j++) {
                uint64_t c = i * N + j;
                in += c % 10 % N == t;
                in += (10 + c % 10) % N == t;
                in += (20 + c % 20) % N == t;
            }
            r1 = in > r1 ? in : r1;
        }
    CHECK_EQ_U64(a.st.forward_q[1], 3);
    CHECK_EQ_U64(a.st.forward_r[1], r1);
    for (int T = 2; T <= 3; T++) {
        run(T, 3, row_then_column, &b);
        CHECK(!memcmp(a.res, b.res, sizeof a.res) && !memcmp(a.mem, b.mem, sizeof a.mem));
        CHECK_EQ_U64(a.st.charge, b.st.charge);
        CHECK_EQ_U64(a.st.reverse_total, b.st.reverse_total);
    }
    run(1, 1, row_then_column, &one); /* one phase: straight to the owners, the route unused */
    check_against_sequential(&one);
    CHECK_EQ_U64(one.st.phases, 1);
    check_death("route_phases 0", bad_phases, NULL,
                "bspram: bspram_combiner_set_options(route_phases=0): ROUTE needs a route and route_phases in [1, 64]",
                1, 30);
    check_death("no route", no_route, NULL,
                "bspram: bspram_combiner_set_options(route_phases=2, route=NULL): ROUTE needs a route", 1, 30);
    check_death("a route off the machine", outside, NULL, "bspram: bspram_combine: route(phase=1, address=0x10000000000, component=0) = 256: not a component; p = 256", 1, 30);
    return check_report("test_combine_route");
}
