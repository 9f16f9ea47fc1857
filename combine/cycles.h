/* bspram — the simple router at the level of cycles (Valiant §5). Internal.
 *
 * The charge max(q, r) of a (q, r)-pattern is what an optimal schedule of
 * the simple router takes: in a cycle every component sends at most one
 * message and receives at most one, and a bipartite multigraph of largest
 * degree D can be coloured with D colours (König), i.e. delivered in
 * max(q, r) cycles. Valiant's asynchronous variant (§5) cannot be priced by
 * charges — its phases overlap — so both the bulk-synchronous algorithm and
 * the asynchronous one are run here on one cycle model with one online
 * delivery order, and compared with each other (combine/cycles.c).
 *
 * The delivery order: every message carries a priority drawn from (seed,
 * phase, source, key); in every cycle the waiting messages are taken in
 * increasing priority and each goes if its source has sent nothing and its
 * destination received nothing in that cycle — a greedy maximal matching
 * per cycle. It needs at most q + r − 1 cycles for a lone pattern (a
 * message waits only while its source sends or its destination receives
 * another). Deterministic: a pure function of its inputs.
 *
 * The S*PRAM (Valiant §5, after his "General purpose parallel
 * architectures"): in a cycle any component may transmit one message to any
 * other; only a component targeted by exactly one transmission receives it,
 * and the senders learn at once whether theirs got through. Each component
 * transmits one of its ready messages, drawn uniformly; a failed one retries
 * after binary exponential back-off (cycles.c). */
#ifndef BSPRAM_COMBINE_CYCLES_H
#define BSPRAM_COMBINE_CYCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combine/combine.h"
#include "hash/address_space.h"

/* A message of the model: from src to dst, of a request key in a phase. */
typedef struct bspram__cycle_msg {
    uint64_t prio, key;
    uint32_t src, dst;
    uint32_t phase;
    uint32_t index; /* its place in the caller's list (bspram__combine_cycles_pattern) */
    uint32_t fails; /* S*PRAM: failed transmissions so far (0 to begin with) */
    uint32_t owner; /* (batch) H of its address, computed once per request */
    uint64_t ready; /* S*PRAM: the first cycle it may be sent again (0 to begin with) */
} bspram__cycle_msg;

/* Deliver the lone pattern msgs[0..n) on p components by the greedy order
 * of the simple router, or on the S*PRAM (sstar; seed draws its back-off);
 * cycle_of[msg.index] receives the cycle (from 1) of each message if
 * cycle_of is not NULL. Returns the cycles used (0 for n = 0). */
uint64_t bspram__combine_cycles_pattern(uint64_t p, bspram__cycle_msg *msgs, size_t n, uint64_t *cycle_of,
                                bool sstar, uint64_t seed);

/* One batch of requests (component c's are req[first[c] .. first[c+1]))
 * combined in the phases of basis B on the cycle model, the segment hashed
 * (every request ends at H(t) of space s). Phase i at component u sends
 * one message per key it holds to bspram_basis_target(B, i, H(t), k), k =
 * bspram_random_below(B->suffix[i], seed, i, u, key) (H(t) in phase m).
 *   async = false: bulk-synchronous — phase i starts when phase i − 1 has
 *                  delivered everything; per_phase[1..m] receives each
 *                  phase's cycles (if not NULL);
 *   async = true:  Valiant §5 — a message goes on to its next phase from
 *                  the cycle after it arrives, if it is the first of its key
 *                  at that component in that phase (later ones are absorbed
 *                  there, as reads are: their answers come back along the
 *                  stored sources); all phases share the cycles.
 *   sstar:         on the S*PRAM instead of the simple router (below).
 * The reverse flow (Valiant §2, combine/reverse.c): every forward message
 * of a READ or FETCH key is answered by one message back along it, from
 * its destination to its source. Bulk-synchronously the answers of phase m
 * go back first, then those of m − 1, …, 1, each a lone pattern (the
 * transpose of that forward phase) after the forward phases; their cycles
 * are in the total, not in per_phase. Asynchronously the owner H(t)
 * answers each message from the cycle after it arrives, and a combining
 * point answers each of its sources from the cycle after its own answer
 * has come back (at once if it already has). Writes and reductions have no
 * answers. Returns the cycles until the last message (forward or answer)
 * has arrived. */
uint64_t bspram__combine_cycles_batch(const bspram_space *s, const bspram_basis *B, const bspram_request *req,
                              const uint64_t *first, uint64_t seed, bool async, bool sstar,
                              uint64_t *per_phase);

#endif
