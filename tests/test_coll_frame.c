/* The collectives' frame (coll/frame.c, bsp/bsplib_coll.c), with the
 * direct allgather as the algorithm under it (C1 = ⌈(n−1)/k⌉ rounds):
 *   - a call's first round ends the caller's superstep: puts and sends
 *     issued before it are delivered, and the BSMP queue after the call holds
 *     exactly what that first bsp_sync delivered, through any number of
 *     later rounds (they keep the queue);
 *   - the call's supersteps are its rounds: none on the whole machine for
 *     n = 1, and bsp_coll_last_cost's measures equal the records (C1 rounds
 *     with messages, C2 = Σ largest data);
 *   - group calls take exactly as many supersteps as the largest group's
 *     schedule on every process, at least one; processes in no group (n = 0)
 *     take part; results per group;
 *   - the record label of each round is the call's name (BSPRAM_TRACE);
 *   - a call repeated with the same buffers and arguments (whose checks and
 *     resolution the library keeps, coll/calls.c) has the first one's records
 *     and fresh results; the same options struct changed between calls, or
 *     another size in the same buffers, is resolved anew. */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsplib_check.h"

static unsigned P;
static const bsp_coll_options direct1 = {.algorithm = BSP_COLL_DIRECT, .ports = 1};

static unsigned char byte_of(unsigned rank, size_t i) { return (unsigned char)(rank * 31 + i * 7 + 1); }

/* Allgather of b bytes per member on group g (NULL: all), checked. */
static void allgather_checked(const bsp_coll_group *g, size_t b, const bsp_coll_options *o)
{
    unsigned n = bsp_coll_group_size(g), rank = bsp_coll_group_rank(g);
    unsigned char *send = malloc(b + 1), *recv = malloc((size_t)n * b + 1);
    for (size_t i = 0; i < b; i++)
        send[i] = byte_of(rank, i);
    bsp_coll_allgather(g, send, recv, b, o);
    for (unsigned r = 0; r < n; r++)
        for (size_t i = 0; i < b; i++)
            SPMD_CHECK(recv[(size_t)r * b + i] == byte_of(r, i));
    free(send);
    free(recv);
}

static void spmd(void)
{
    bsp_begin(P);
    unsigned p = bsp_nprocs(), s = bsp_pid();

    /* 1. Messages and puts before the call; the queue through the rounds. */
    size_t tag = sizeof(unsigned);
    bsp_set_tagsize(&tag);
    uint64_t landed = 0;
    bsp_push_reg(&landed, sizeof landed);
    bsp_sync();
    for (unsigned q = 0; q < p; q++) {
        uint64_t payload = 1000u * s + q;
        bsp_send(q, &s, &payload, sizeof payload);
    }
    uint64_t mine = 77 + s;
    bsp_put((s + 1) % p, &mine, &landed, 0, sizeof mine);
    allgather_checked(NULL, 5, &direct1);
    bsp_coll_cost cost = bsp_coll_last_cost();
    SPMD_CHECK(cost.supersteps == (p > 1 ? p - 1 : 0));
    SPMD_CHECK(cost.c1 == cost.supersteps);
    if (p > 1) {
        SPMD_CHECK(landed == 77 + (s + p - 1) % p);
        bsp_nprocs_t nq;
        bsp_size_t bytes;
        bsp_qsize(&nq, &bytes);
        SPMD_CHECK(nq == p && bytes == p * sizeof(uint64_t));
        unsigned seen = 0;
        for (unsigned k = 0; k < p; k++) {
            bsp_size_t status;
            unsigned from;
            bsp_get_tag(&status, &from);
            uint64_t payload = 0;
            bsp_move(&payload, sizeof payload);
            SPMD_CHECK(status == sizeof payload && from < p && payload == 1000u * from + s);
            seen |= 1u << (from % 32);
        }
        SPMD_CHECK(p > 32 || seen == (p == 32 ? ~0u : (1u << p) - 1));
    } else {
        bsp_sync(); /* n = 1: the call took no superstep; the messages are still pending */
        SPMD_CHECK(landed == 77);
    }
    bsp_sync();

    /* 2. Measured cost: C2 = b per round (the direct allgather's messages
     * are all b bytes), h = the put's 8 + b bytes times the ports. */
    for (size_t b = 0; b <= 9; b += 3) {
        allgather_checked(NULL, b, &direct1);
        cost = bsp_coll_last_cost();
        uint64_t rounds = p > 1 ? p - 1 : 0;
        SPMD_CHECK(cost.supersteps == rounds && cost.c1 == rounds && cost.c2 == rounds * b);
        SPMD_CHECK(cost.h_bytes == rounds * (8 + b) && cost.messages == rounds * p);
        SPMD_CHECK(rounds == 0 || (cost.max_q == 1 && cost.max_r == 1));
    }

    /* 3. Groups: blocks of sizes 1, 2, 3, … (the last one shorter), every
     * process in one; then the same with pid 0 in no group. */
    for (int variant = 0; variant < 2; variant++) {
        bsp_pid_t *members = malloc(p * sizeof *members);
        unsigned first = 0, size = 1, n = 0, largest = 0;
        for (;; first += size, size++) {
            unsigned end = first + size < p ? first + size : p;
            if (s >= first && s < end) {
                for (unsigned q = first; q < end; q++)
                    if (!(variant && q == 0))
                        members[n++] = q;
            }
            unsigned gsize = end - first - (variant && first == 0);
            largest = gsize > largest ? gsize : largest;
            if (end == p)
                break;
        }
        bsp_coll_group *g = bsp_coll_group_create(members, n);
        SPMD_CHECK(bsp_coll_group_size(g) == n);
        if (n)
            allgather_checked(g, 4, &direct1);
        else
            bsp_coll_allgather(g, NULL, NULL, 4, &direct1);
        cost = bsp_coll_last_cost();
        uint64_t rounds = largest > 1 ? largest - 1 : 1;
        SPMD_CHECK(cost.supersteps == rounds);
        bsp_coll_group_destroy(g);
        free(members);
    }

    /* 4. Repeated calls: C1 = ⌈(n−1)/k⌉ rounds and C2 = b per round, from
     * the formula, whatever the last call was. */
    {
        bsp_coll_options o = direct1;
        unsigned char send[4], *recv = malloc((size_t)p * 4 + 1);
        const uint64_t n1 = p > 1 ? p - 1 : 0;
        for (unsigned rep = 0; rep < 3; rep++) {
            for (size_t i = 0; i < 4; i++)
                send[i] = (unsigned char)(byte_of(s, i) + rep);
            bsp_coll_allgather(NULL, send, recv, 4, &o);
            for (unsigned r = 0; r < p; r++)
                for (size_t i = 0; i < 4; i++)
                    SPMD_CHECK(recv[(size_t)r * 4 + i] == (unsigned char)(byte_of(r, i) + rep));
            cost = bsp_coll_last_cost();
            SPMD_CHECK(cost.supersteps == n1 && cost.c1 == n1 && cost.c2 == n1 * 4);
        }
        o.ports = p > 1 ? p - 1 : 1; /* the same struct: now one round of n − 1 ports */
        bsp_coll_allgather(NULL, send, recv, 4, &o);
        cost = bsp_coll_last_cost();
        SPMD_CHECK(cost.supersteps == (p > 1 ? 1u : 0u) && cost.c2 == (p > 1 ? 4u : 0u));
        bsp_coll_allgather(NULL, send, recv, 2, &o); /* the same buffers, 2 bytes each */
        cost = bsp_coll_last_cost();
        SPMD_CHECK(cost.supersteps == (p > 1 ? 1u : 0u) && cost.c2 == (p > 1 ? 2u : 0u));
        for (unsigned r = 0; r < p; r++)
            for (size_t i = 0; i < 2; i++)
                SPMD_CHECK(recv[(size_t)r * 2 + i] == (unsigned char)(byte_of(r, i) + 2));
        free(recv);
    }

    /* 5. Singletons everywhere: one superstep, no message. */
    bsp_pid_t self = s;
    bsp_coll_group *one = bsp_coll_group_create(&self, 1);
    allgather_checked(one, 3, &direct1);
    cost = bsp_coll_last_cost();
    SPMD_CHECK(cost.supersteps == 1 && cost.c1 == 0);
    bsp_coll_group_destroy(one);
    bsp_end();
}

int main(int argc, char **argv)
{
    return bsplib_test_every_p(argc, argv, spmd, &P, "coll frame", "test_coll_frame");
}
