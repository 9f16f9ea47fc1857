/* Alltoall, direct: block j of every member's send goes straight to rank j's
 * recv, at the sender's rank's place, k destinations per round — in round t
 * (0-based) to ranks rank + tk + 1 … rank + tk + k (mod n), so every member
 * receives from k distinct members too. It is Bruck et al. (1997) §3's index
 * with radix r = n, which sends the same messages in the same rounds, but
 * without the index's two local rotations and its unpacking: each block is
 * copied into a message and, at the sync, out of it into its place; blocks
 * of 4 KiB and more from a send buffer apart from recv travel by reference,
 * copied once, from the sender's send at the sync (as bsp_hpput's). In
 * place with more than one round, the blocks still to send are copied aside
 * first (a round lands rank me − d's block where the block for rank me − d,
 * sent in a later round, waits); in one round the puts copy them at once.
 *     C1 = ⌈(n−1)/k⌉,  C2 = b·C1  (b(n−1) for k = 1, optimal; one round,
 *     C2 = b, with k = n − 1). */
#include <string.h>

#include "coll/coll_internal.h"

void bspram__coll_alltoall_direct(coll_call *c, const coll_args *a)
{
    const unsigned n = c->n, me = c->rank, k = a->ports < n - 1 ? a->ports : n - 1;
    const size_t b = a->block;
    unsigned char *recv = a->recv;
    const unsigned char *send = a->send;
    if (b && send != recv)
        coll_copy(recv + (size_t)me * b, send + (size_t)me * b, b);
    if (n == 1)
        return;
    if (b && send == recv && k < n - 1) {
        unsigned char *aside = coll_scratch(c, 1, (size_t)n * b);
        memcpy(aside, send, (size_t)n * b);
        send = aside;
    }
    unsigned char none[1];
    bspram__coll_window(c, b ? recv : none, (size_t)n * b);
    /* A send buffer apart from recv stays as it is through the call: its
     * blocks can travel by reference (one copy, at the sync) — those that
     * bspram__coll_put_ref takes by reference; a smaller one is a put, made
     * here without the call. */
    const int by_reference = send != recv && b >= BSPLIB_HPPUT_BY_REFERENCE;
    if (k == n - 1 && !by_reference) { /* one round of puts (DIRECT's default ports): the loop below, once */
        for (unsigned d = 1, to = me + 1; d < n; d++, to++) {
            const unsigned r = to < n ? to : to - n;
            bspram__coll_put(c, r, (size_t)me * b, b ? send + (size_t)r * b : none, b);
        }
        bspram__coll_round(c, true);
        return;
    }
    for (unsigned d = 1; d < n;) {
        for (unsigned j = 0; j < k && d < n; j++, d++) {
            const unsigned to = (me + d) % n;
            if (by_reference && b)
                bspram__coll_put_ref(c, to, (size_t)me * b, send + (size_t)to * b, b);
            else
                bspram__coll_put(c, to, (size_t)me * b, b ? send + (size_t)to * b : none, b);
        }
        bspram__coll_round(c, d == n);
    }
}
