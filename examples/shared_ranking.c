/* List ranking by pointer jumping, a bulk program on shared memory.
 *
 * p components hold one list element each: element i knows its successor
 * next (the tail's is itself) and its rank, the number of elements after it.
 * The cells R[i] and N[i] of the hashed shared memory hold the same. One
 * round of pointer jumping (Wyllie's CREW PRAM algorithm) is two supersteps:
 *   even step: read R[next] and N[next];
 *   odd step:  with the answers, rank += R[next] and next = N[next]; write
 *              R[i] and N[i].
 * A step's reads see memory as the previous step's requests left it, so each
 * round reads the values of the round before, as on the PRAM. Late rounds
 * read the tail's cells from almost every component: combining merges those
 * requests on the way. After ceil(log2 p) rounds every rank is final; a last
 * step adds all ranks into one cell (a reduction) and draws a ticket
 * (fetch-and-add), and the step after reads the ticket.
 *
 *   shared_ranking [p] [seed]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BSPRAM_ENGINE_API /* the bulk machine and its shared memory are of the engine API */
#include "bspram.h"

typedef struct element {
    uint64_t next, rank, ticket, step;
} element;

typedef struct program {
    bspram_shared *sh;
    bspram_space *space;
    uint32_t R, N, total, ticket;
    uint64_t rounds;
} program;

static const unsigned SUM = 7; /* bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64) */

static bool step(bspram_component *self, void *arg)
{
    const program *g = arg;
    element *e = bspram_local(self);
    uint64_t i = bspram_pid(self), t = e->step++;
    const uint64_t *a;
    size_t n = bspram_shared_answers(g->sh, self, &a); /* the previous step's, in issue order */
    if (t < 2 * g->rounds && t % 2 == 0) {
        bspram_shared_read(g->sh, self, bspram_address(g->space, g->R, e->next)); /* a[0] next step */
        bspram_shared_read(g->sh, self, bspram_address(g->space, g->N, e->next)); /* a[1] */
        return true;
    }
    if (t < 2 * g->rounds) {
        if (n != 2)
            return false;
        e->rank += a[0];
        e->next = a[1];
        bspram_shared_write(g->sh, self, bspram_address(g->space, g->R, i), e->rank,
                            BSPRAM_WRITE_ARBITRARY);
        bspram_shared_write(g->sh, self, bspram_address(g->space, g->N, i), e->next,
                            BSPRAM_WRITE_ARBITRARY);
        return true;
    }
    if (t == 2 * g->rounds) {
        bspram_shared_reduce(g->sh, self, bspram_address(g->space, g->total, 0), SUM, e->rank);
        bspram_shared_fetch(g->sh, self, bspram_address(g->space, g->ticket, 0), SUM, 1);
        return true;
    }
    if (n == 2)
        e->ticket = a[1]; /* a[0], the reduction's entry, is 0 */
    return false;
}

int main(int argc, char **argv)
{
    uint64_t p = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (p < 1 || p > (UINT64_C(1) << 24)) {
        fprintf(stderr, "usage: shared_ranking [p in 1..2^24] [seed]\n");
        return 2;
    }
    bspram_config cfg = bspram_config_default(p);
    cfg.seed = seed;
    cfg.local_bytes = sizeof(element);
    bspram_machine *m = bspram_machine_create(&cfg);
    program g;
    g.space = bspram_space_create(p, BSPRAM_HASH_XXH3, seed);
    g.R = bspram_segment_alloc(g.space, p, 8, BSPRAM_LAYOUT_HASHED);
    g.N = bspram_segment_alloc(g.space, p, 8, BSPRAM_LAYOUT_HASHED);
    g.total = bspram_segment_alloc(g.space, 1, 8, BSPRAM_LAYOUT_HASHED);
    g.ticket = bspram_segment_alloc(g.space, 1, 8, BSPRAM_LAYOUT_HASHED);
    g.sh = bspram_shared_create(m, g.space, NULL); /* the auto basis, the machine's seed */
    g.rounds = 0;
    while ((UINT64_C(1) << g.rounds) < p)
        g.rounds++;

    /* A random list: order[0] → order[1] → … → order[p-1], the tail. */
    uint64_t *order = malloc(p * sizeof *order);
    for (uint64_t k = 0; k < p; k++)
        order[k] = k;
    for (uint64_t k = p - 1; k > 0; k--) {
        uint64_t j = bspram_random_below(k + 1, seed, k, 0, 0), x = order[k];
        order[k] = order[j];
        order[j] = x;
    }
    for (uint64_t k = 0; k < p; k++) {
        uint64_t i = order[k];
        element *e = bspram_machine_local(m, i);
        e->next = k + 1 < p ? order[k + 1] : i;
        e->rank = k + 1 < p ? 1 : 0;
        /* Over MPI a rank holds its own components' cells (bspram_holds). */
        if (bspram_holds(g.space, bspram_address(g.space, g.R, i)))
            bspram_store(g.space, bspram_address(g.space, g.R, i), e->rank);
        if (bspram_holds(g.space, bspram_address(g.space, g.N, i)))
            bspram_store(g.space, bspram_address(g.space, g.N, i), e->next);
    }

    uint64_t steps = bspram_shared_run(g.sh, step, &g, 0);
    bspram_machine_gather_local(m); /* over MPI: every element to every rank */
    uint64_t total;
    bspram_gather_cells(bspram_shared_combiner(g.sh), bspram_address(g.space, g.total, 0), 1, &total);

    /* Element order[k] has p-1-k elements after it; the ranks add up; the
     * tickets are 0..p-1, each drawn once. */
    int ok = steps == 2 * g.rounds + 2;
    unsigned char *drawn = calloc(p, 1);
    for (uint64_t k = 0; k < p; k++) {
        const element *e = bspram_machine_local(m, order[k]);
        ok &= e->rank == p - 1 - k && e->ticket < p && !drawn[e->ticket];
        if (e->ticket < p)
            drawn[e->ticket] = 1;
    }
    ok &= total == p * (p - 1) / 2;

    size_t nrec;
    const bspram_record *rec = bspram_machine_records(m, &nrec);
    uint64_t own = 0, forward = 0, reverse = 0, charge = 0;
    for (size_t s = 0; s < nrec; s++) {
        if (!strncmp(rec[s].label, "combine:forward:", 16))
            forward++;
        else if (!strncmp(rec[s].label, "combine:reverse:", 16))
            reverse++;
        else
            own++;
        charge += rec[s].charge;
    }
    printf("list of %" PRIu64 " elements ranked in %" PRIu64 " rounds: %s\n", p, g.rounds,
           ok ? "ok" : "WRONG");
    printf("%" PRIu64 " supersteps of the program, %" PRIu64 " forward and %" PRIu64
           " reverse combining supersteps; total charge max(q, r) %" PRIu64 "\n",
           own, forward, reverse, charge);

    free(drawn);
    free(order);
    bspram_shared_destroy(g.sh);
    bspram_space_destroy(g.space);
    bspram_machine_destroy(m);
    return ok ? 0 : 1;
}
