/* bsp_coll.h — collective communication for BSPlib programs, written as BSP
 * programs: broadcast, scatter, gather, allgather, alltoall, reduce,
 * allreduce and scan, on all processes or on groups of them.
 *
 *     #include <bsp.h>
 *     #include <bsp_coll.h>
 *     cc prog.c $(pkg-config --cflags --libs bspram)
 *
 * Every collective is a sequence of supersteps ("rounds") made of puts and
 * bsp_sync, so the router's records measure it (docs/collectives.md):
 *   C1  the rounds that move a message (records with messages > 0), and
 *   C2  Σ over those rounds of the largest message's data: the record's
 *       largest message minus the 8-byte destination word every put carries
 *       (bsp.h, "Message sizes") —
 * the two measures of Bruck, Ho, Kipnis, Upfal and Weathersby, "Efficient
 * algorithms for all-to-all communications in multiport message-passing
 * systems", IEEE TPDS 8(11), 1997, §2. Its BSP cost is Σ over the rounds of
 * (g·h + l) with h the record's byte h-relation (bspram probe gives g, l).
 * In the k-port model a process sends at most k messages, to distinct
 * processes, and receives at most k in one round; k = 1 is the one-port
 * model. The lower bounds (Bruck §2) are C1 ≥ ⌈log_{k+1} n⌉ for every
 * operation that spreads one process's data to all (or all to one), and
 * C2 ≥ ⌈b(n − 1)/k⌉ for allgather and alltoall with blocks of b bytes —
 * ⌈b(n − 1)/min(k, n − 1)⌉, as no round has more than n − 1 partners.
 *
 * Calls. A collective is called by every process of the BSP section, in the
 * same superstep, in the same order (like bsp_sync): each names its group
 * (NULL: all processes) and its buffers. Its first round ends the superstep
 * in progress, so what the process issued before the call (puts, gets,
 * sends, registrations) is delivered with that round, exactly as by a
 * bsp_sync; the call returns at the start of a new superstep, with the BSMP
 * queue holding what that first bsp_sync delivered (later rounds keep it).
 * A call whose group needs no communication (n = 1) takes no superstep, on
 * the whole machine; group calls take max(1, rounds of the largest group's
 * schedule) supersteps on every process (each group's processes take part
 * in the remaining rounds with nothing to send; a one-bit OR in the
 * barrier tells everyone when all groups are done, at no extra cost).
 *
 * Buffers and sizes. Blocks are bytes (b ≥ 0; 0 is legal: the rounds still
 * run, with empty messages). Reductions and scans work on `count` 64-bit
 * words with an operation of the combining engine: built in (combine.h:
 * bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_I64), bspram_op_parse("max:f64"))
 * or registered with bsp_shm_add_op (bsp_shm.h; usable from the superstep
 * after it). Results of reductions fold the operands in rank order,
 * x_0 ⊕ x_1 ⊕ … ⊕ x_{n−1}, with a bracketing fixed by the algorithm and n:
 * every process gets the same bits, in every run and for any thread count;
 * for exact types (integers, min, max, and, or, xor) every algorithm gives
 * the same result. Send and receive buffers must not overlap except through
 * BSP_COLL_IN_PLACE. Buffers on processes where the operation does not read
 * or write them (a scatter's send buffer off the root, …) may be NULL.
 *
 * Algorithms. Each operation has several (one per file in coll/, each opening
 * with its paper, section and cost); `opt` (NULL: all zero) forces one, with
 * its radix and ports; BSP_COLL_AUTO lets the selection (bsp_coll_select)
 * pick the one whose predicted C1·l + H·g is least (each round charged
 * l + g·h; H = min(k, n − 1)·C2), and with ports 0 the ports too (one, or
 * n − 1: every message in one superstep), with g and l measured once per
 * machine, P and library version: $BSPRAM_PARAMS or `bspram probe`'s file if
 * there is one; else (unless BSPRAM_PROBE=0, which gives the defaults
 * g = 1 ns/byte, l = 1000 ns) the cache of earlier measurements, or a
 * measurement of 191 supersteps on a router of its own (never in the
 * program's records) at the section's first call that may select — one
 * with BSP_COLL_AUTO, or any group call — cached with one line on stderr;
 * a figure measured while other work kept the cores busy is not used (the
 * defaults instead) and measured again after an hour (docs/collectives.md,
 * "Selection"). For exact types
 * the choice never changes a result; a floating-point result has the
 * chosen algorithm's bracketing, so for the same bits on every machine
 * force the algorithm, or set BSPRAM_PROBE=0 or BSPRAM_PARAMS.
 *
 * Errors (fatal: one line naming the call, its arguments, the superstep and
 * the pid; the program exits with status 1): a NULL buffer the operation
 * needs; root ≥ n; an unknown operation or algorithm; an algorithm the
 * operation does not have; radix < 2 or > n; ports < 1 where given; a group
 * this process is not in; processes in different calls at one round —
 * bsp_sync against a collective, or two different collectives ("bsp_coll_
 * allgather: pid 0 is in bsp_coll_allgather while pid 2 is in bsp_sync
 * (superstep 4); …"); processes passing different arguments (size, block,
 * count, root, operation, algorithm, radix, ports, tradeoff) — on the whole
 * machine any two; in a group call two members of one group (different
 * groups may pass different arguments: each row its own root), or some
 * processes calling on all and others on groups; and where arguments
 * differ, a member passing another group. These are found by a signature
 * in the first round's barrier, at no extra superstep (where groups differ
 * from each other, a gather and a barrier without a record tell that
 * apart), and reported before anything lands, with both calls in full, the
 * arguments that differ and the group ("bsp_coll_broadcast: members of a
 * group disagree in superstep 2: pid 2 called bsp_coll_broadcast(size=8,
 * root=0) but pid 3 called bsp_coll_broadcast(size=256, root=0) (the size
 * differs; the group: 2 3); …"). The signature holds 5 bits of the
 * arguments, so 1 disagreement in 32 passes it; most of those still end in
 * one line, where a put overruns the buffer its receiver sized
 * ("bsp_coll_broadcast: pid 2 put 256 bytes at offset 0 of this process's
 * window, which has 87: the two processes passed the call different
 * arguments …"). The member lists are checked once, by
 * bsp_coll_group_create.
 */
#ifndef BSPRAM_COLL_BSP_COLL_H
#define BSPRAM_COLL_BSP_COLL_H

#include <stdint.h>

#include "base/api.h"
#include "bsp/bsp.h"
#define BSPRAM_STABLE_NEEDS_ENGINE_ /* for the engine's names this header uses (the operations) */
#include "combine/combine.h"
#undef BSPRAM_STABLE_NEEDS_ENGINE_

BSPRAM_BEGIN_DECLS

/* ---- groups ---- */

/* A group of processes: the member list, in rank order (rank i is
 * members[i]). NULL stands for all processes, rank = pid. */
typedef struct bsp_coll_group bsp_coll_group;

/* Make this process's group: collective over all processes, in the same
 * superstep; each passes the member list of its own group (which must
 * contain it), or n = 0 for "no group" (the process then takes part in the
 * rounds of later group calls with nothing to do). The groups form a
 * partition: every member of a group must pass the same list. Checked here,
 * with one superstep ("bsp_coll_group_create" in the records) in which each
 * process sends its list to the other members of its group.
 *
 * @param members the group's pids in rank order (rank i is members[i]),
 *                this process among them; NULL only with n = 0
 * @param n       the number of members, at most P; 0: no group
 * @return        the group (free it with bsp_coll_group_destroy)
 * @pre           Inside a section; every process calls it in the same
 *                superstep (collective, like bsp_sync).
 * @par Errors
 *     Outside a section: "bspram: bsp_coll_group_create: called outside a
 *     bsp_begin/bsp_end section"; "bspram: bsp_coll_group_create(members=NULL,
 *     n=4): members is NULL (superstep 1, pid 0)"; "…(members=0x…, n=9): n is
 *     above the 8 processes (…)"; "…(members=0x…, n=4): members[2] = 9 is not
 *     a pid (…)" (or "is repeated"); "…(members=0x…, n=4): this process (pid
 *     5) is not in its list (…)"; members' lists differing: "bspram:
 *     bsp_coll_group_create: pid 1 names members 0 1 2 but pid 3 names 0 1 2
 *     3; every member of a group must name the same list (superstep 1)", or
 *     "…: pid 1 names members 0 1, but a process outside that list names pid
 *     1 as a member; …". Exit status 1.
 * @par BSP cost
 *     One superstep (record "bsp_coll_group_create"): each process puts 16
 *     bytes to each other member of its group, so h ≤ (8 + 16)·(n − 1)
 *     bytes; O(n + P) local work and memory; one barrier more (no record) to
 *     agree on the verdict.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
bsp_coll_group *bsp_coll_group_create(const unsigned *members, unsigned n);

/* Free this process's group (local; no superstep).
 *
 * @param g       a group bsp_coll_group_create returned; NULL is ignored
 * @pre           No call of this process is using g; g is not used after.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread (the group is this process's own: free it once).
 */
void bsp_coll_group_destroy(bsp_coll_group *g);

/* The group's size n.
 *
 * @param g       a group; NULL stands for all processes
 * @return        the number of members (P for NULL; 0 for "no group")
 * @pre           g NULL: inside a section.
 * @par Errors
 *     g NULL outside a section: "bspram: bsp_coll_group_size: called outside
 *     a bsp_begin/bsp_end section", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself (with g not NULL, any
 *     thread may read the group).
 */
unsigned bsp_coll_group_size(const bsp_coll_group *g);

/* This process's rank in the group.
 *
 * @param g       this process's group; NULL stands for all processes
 * @return        the rank (bsp_pid() for NULL; n for "no group")
 * @pre           g NULL: inside a section.
 * @par Errors
 *     g NULL outside a section: "bspram: bsp_coll_group_rank: called outside
 *     a bsp_begin/bsp_end section", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself (with g not NULL, any
 *     thread may read the group).
 */
unsigned bsp_coll_group_rank(const bsp_coll_group *g);

/* ---- algorithms and options ---- */

typedef enum bsp_coll_algorithm {
    BSP_COLL_AUTO = 0,          /* the selection's choice */
    BSP_COLL_BRUCK,             /* alltoall: Bruck §3 index, radix r, k ports;
                                   allgather: Bruck §4 concatenation, k ports */
    BSP_COLL_DIRECT,            /* every message straight to its destination,
                                   k per round (alltoall: Bruck with r = n) */
    BSP_COLL_RING,              /* allgather: Saad–Schultz's daisy chain */
    BSP_COLL_BINOMIAL,          /* broadcast ((k+1)-nomial tree), scatter and
                                   gather (recursive halving), reduce, scan
                                   (up and down the tree) */
    BSP_COLL_SCATTER_ALLGATHER, /* broadcast of long messages: scatter, then
                                   Bruck's concatenation */
    BSP_COLL_DOUBLING,          /* allreduce: recursive doubling */
    BSP_COLL_DISSEMINATION,     /* allreduce: Bruck's concatenation of the
                                   operands, folded in rank order; scan:
                                   Hillis–Steele's doubling distances */
    BSP_COLL_EXCHANGE,          /* alltoall on n = 2^d members: the hypercube's
                                   standard dimension exchange, between
                                   ranks differing in one bit only; one port */
    BSP_COLL_RABENSEIFNER       /* reduce and allreduce of long operands:
                                   reduce-scatter by recursive halving, then
                                   a gather to the root by a binomial tree,
                                   or an allgather by recursive doubling
                                   (Rabenseifner 2004); one port */
} bsp_coll_algorithm;

/* Allgather (Bruck §4.2) for b ≥ 3, k ≥ 3 and (k+1)^d − k < n < (k+1)^d,
 * d = ⌈log_{k+1} n⌉, cannot have both C1 and C2 optimal: */
typedef enum bsp_coll_tradeoff {
    BSP_COLL_OPTIMAL_C1 = 0, /* C1 = d, C2 at most b − 1 above ⌈b(n−1)/k⌉ (default) */
    BSP_COLL_OPTIMAL_C2 = 1  /* C2 = ⌈b(n−1)/k⌉, at most one round more */
} bsp_coll_tradeoff;

typedef struct bsp_coll_options {
    bsp_coll_algorithm algorithm; /* BSP_COLL_AUTO: selected */
    unsigned radix;               /* alltoall with BSP_COLL_BRUCK: 2 ≤ r ≤ n;
                                     0: selected (AUTO) or 2 */
    unsigned ports;               /* k ≥ 1; 0: selected (AUTO), else 1 — but
                                     n − 1 for BSP_COLL_DIRECT */
    bsp_coll_tradeoff tradeoff;   /* allgather with BSP_COLL_BRUCK */
} bsp_coll_options;

/* The MPI-style in-place marker (see each operation). */
extern const unsigned char bsp_coll_in_place_[1];
#define BSP_COLL_IN_PLACE ((const void *)bsp_coll_in_place_)

/* ---- the operations ----
 * n is the group's size, b the block in bytes, m = 8·count. Cost is given
 * as C1 and C2 per algorithm; the default algorithm's BSP cost is Σ (g·h + l)
 * over its rounds. */

/* Broadcast: root's `size` bytes at buf reach buf on every member.
 * BINOMIAL (default at small size): C1 = ⌈log_{k+1} n⌉, C2 = size·C1
 * (Saad & Schultz §3, the spanning binomial tree; k ports: the (k+1)-nomial
 * tree). SCATTER_ALLGATHER: the buffer cut into n pieces of p = ⌈size/n⌉
 * bytes, scattered (binomial) and concatenated (Bruck, k ports): C1 =
 * ⌈log2 n⌉ + ⌈log_{k+1} n⌉, C2 = p(n − 1) + ⌈p(n − 1)/min(k, n − 1)⌉
 * (about 2·size for one port, when n divides size or size ≫ n). DIRECT:
 * root sends to k members per round: C1 = ⌈(n−1)/k⌉, C2 = size·C1.
 *
 * @param g       the group (NULL: all processes)
 * @param buf     the data (size bytes): read at the root, written at the
 *                others; NULL only with size = 0
 * @param size    the bytes broadcast (0 is legal)
 * @param root    the rank of the root in the group, in [0, n)
 * @param opt     the algorithm, radix, ports (NULL: all zero, selected)
 * @pre           Inside a section; every process makes the call in the same
 *                superstep, in the same order, with the same arguments (in
 *                a group call, every member of a group), as for bsp_sync.
 * @par Errors
 *     Outside a section: "bspram: bsp_coll_broadcast: called outside a
 *     bsp_begin/bsp_end section". Each of the following names the call,
 *     "bspram: bsp_coll_broadcast(g=(nil), buf=0x…, size=8, root=9): root 9
 *     is outside the group's ranks [0, 4) (superstep 2, pid 1)": "buf is
 *     NULL"; "unknown algorithm 42"; "unknown tradeoff 3"; "broadcast has no
 *     algorithm ring"; "a radix needs an algorithm that takes one (bruck, for
 *     alltoall)"; "algorithm binomial takes no radix"; "send may be
 *     BSP_COLL_IN_PLACE only at the root of a gather or reduce" (buf =
 *     BSP_COLL_IN_PLACE). Processes in different calls or with different
 *     arguments, found in the first round: "bspram: bsp_coll_broadcast:
 *     members of a group disagree in superstep 2: pid 2 called
 *     bsp_coll_broadcast(size=8, root=0) but pid 3 called
 *     bsp_coll_broadcast(size=256, root=0) (the size differs; the group: 2
 *     3); every member of a group must pass the same arguments", "…:
 *     processes disagree in superstep 2: pid 0 called … but pid 1 called …
 *     (the root differs); every process must pass the same arguments", "…:
 *     pid 0 is in bsp_coll_broadcast while pid 2 is in bsp_sync (superstep
 *     4); every process must make the same collective calls in the same
 *     order", and the other lines at the top of this file. Exit status 1.
 * @par BSP cost
 *     max(1, rounds of the largest group's schedule) supersteps on every
 *     process (none if every group has n = 1), each a record labelled with
 *     the call; C1 and C2 as above for the algorithm (forced by opt or
 *     selected); the BSP cost is Σ over the rounds of (g·h + l), h the
 *     round's byte h-relation (each put carries an 8-byte header: bsp.h).
 *     bsp_coll_last_cost reads the figures afterwards.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_coll_broadcast(const bsp_coll_group *g, void *buf, size_t size, unsigned root,
                        const bsp_coll_options *opt);

/* Scatter: block i of root's send (n·b bytes) lands in recv (b bytes) of
 * rank i. In place: at the root recv = BSP_COLL_IN_PLACE leaves its block in
 * send. BINOMIAL (recursive halving, any n, the larger half below): C1 =
 * ⌈log2 n⌉, C2 = b·(n − 1), the one-port lower bound (Saad & Schultz §3).
 * DIRECT: C1 = ⌈(n−1)/k⌉, C2 = b·C1.
 *
 * @param g       the group (NULL: all processes)
 * @param send    at the root, the n blocks (n·block bytes); elsewhere not
 *                read (may be NULL)
 * @param recv    this member's block (block bytes); at the root it may be
 *                BSP_COLL_IN_PLACE
 * @param block   the bytes per block, b (0 is legal)
 * @param root    the rank of the root in the group, in [0, n)
 * @param opt     the algorithm, radix, ports (NULL: all zero, selected)
 * @pre           Inside a section; every process makes the call in the same
 *                superstep, in the same order, with the same arguments (in
 *                a group call, every member of a group), as for bsp_sync.
 * @par Errors
 *     As bsp_coll_broadcast, each line naming the call ("bspram:
 *     bsp_coll_scatter(g=(nil), send=0x…, recv=0x…, block=8, root=0): …
 *     (superstep 2, pid 1)"); besides: "send is NULL" (at the root), "recv is
 *     NULL"; "recv may be BSP_COLL_IN_PLACE only at a scatter's root"; "send
 *     may be BSP_COLL_IN_PLACE only at the root of a gather or reduce";
 *     "n·block overflows". Exit status 1.
 * @par BSP cost
 *     max(1, rounds of the largest group's schedule) supersteps on every
 *     process (none if every group has n = 1), each a record labelled with
 *     the call; C1 and C2 as above for the algorithm (forced by opt or
 *     selected); the BSP cost is Σ over the rounds of (g·h + l), h the
 *     round's byte h-relation (each put carries an 8-byte header: bsp.h).
 *     bsp_coll_last_cost reads the figures afterwards.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_coll_scatter(const bsp_coll_group *g, const void *send, void *recv, size_t block,
                      unsigned root, const bsp_coll_options *opt);

/* Gather: rank i's send (b bytes) lands in block i of root's recv (n·b
 * bytes). In place: at the root send = BSP_COLL_IN_PLACE takes its block
 * from recv. BINOMIAL and DIRECT as for scatter, the rounds reversed.
 *
 * @param g       the group (NULL: all processes)
 * @param send    this member's block (block bytes); at the root it may be
 *                BSP_COLL_IN_PLACE
 * @param recv    at the root, the n blocks (n·block bytes); elsewhere not
 *                written (may be NULL)
 * @param block   the bytes per block, b (0 is legal)
 * @param root    the rank of the root in the group, in [0, n)
 * @param opt     the algorithm, radix, ports (NULL: all zero, selected)
 * @pre           Inside a section; every process makes the call in the same
 *                superstep, in the same order, with the same arguments (in
 *                a group call, every member of a group), as for bsp_sync.
 * @par Errors
 *     As bsp_coll_broadcast, each line naming the call ("bspram:
 *     bsp_coll_gather(g=(nil), send=0x…, recv=0x…, block=8, root=0): …
 *     (superstep 2, pid 1)"); besides: "send is NULL", "recv is NULL" (at the
 *     root); "send may be BSP_COLL_IN_PLACE only at the root of a gather or
 *     reduce" (elsewhere); "recv may be BSP_COLL_IN_PLACE only at a scatter's
 *     root"; "n·block overflows". Exit status 1.
 * @par BSP cost
 *     max(1, rounds of the largest group's schedule) supersteps on every
 *     process (none if every group has n = 1), each a record labelled with
 *     the call; C1 and C2 as above for the algorithm (forced by opt or
 *     selected); the BSP cost is Σ over the rounds of (g·h + l), h the
 *     round's byte h-relation (each put carries an 8-byte header: bsp.h).
 *     bsp_coll_last_cost reads the figures afterwards.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_coll_gather(const bsp_coll_group *g, const void *send, void *recv, size_t block,
                     unsigned root, const bsp_coll_options *opt);

/* Allgather (concatenation, total exchange): rank i's send (b bytes) lands
 * in block i of every member's recv (n·b bytes). In place: send =
 * BSP_COLL_IN_PLACE takes the own block from recv.
 * BRUCK (Bruck §4, k ports): C1 = ⌈log_{k+1} n⌉ and C2 = ⌈b(n−1)/k'⌉ with
 * k' = min(k, n − 1) (a round has at most n − 1 partners: with k ≥ n − 1
 * one round, C2 = b), both optimal, except in the range of
 * bsp_coll_tradeoff (set it in bsp_coll_options; `bspram coll --tradeoff
 * c1|c2`). RING (Saad & Schultz
 * §3): C1 = n − 1, C2 = b(n − 1). DIRECT: C1 = ⌈(n−1)/k⌉, C2 = b·C1.
 *
 * @param g       the group (NULL: all processes)
 * @param send    this member's block (block bytes), or BSP_COLL_IN_PLACE
 * @param recv    the n blocks (n·block bytes)
 * @param block   the bytes per block, b (0 is legal)
 * @param opt     the algorithm, radix, ports and tradeoff (NULL: all zero,
 *                selected)
 * @pre           Inside a section; every process makes the call in the same
 *                superstep, in the same order, with the same arguments (in
 *                a group call, every member of a group), as for bsp_sync.
 * @par Errors
 *     As bsp_coll_broadcast, each line naming the call ("bspram:
 *     bsp_coll_allgather(g=(nil), send=0x…, recv=0x…, block=8): … (superstep
 *     2, pid 1)"); besides: "send is NULL", "recv is NULL"; "recv may be
 *     BSP_COLL_IN_PLACE only at a scatter's root"; "algorithm ring of
 *     allgather has one port"; "n·block overflows". Exit status 1.
 * @par BSP cost
 *     max(1, rounds of the largest group's schedule) supersteps on every
 *     process (none if every group has n = 1), each a record labelled with
 *     the call; C1 and C2 as above for the algorithm (forced by opt or
 *     selected); the BSP cost is Σ over the rounds of (g·h + l), h the
 *     round's byte h-relation (each put carries an 8-byte header: bsp.h).
 *     bsp_coll_last_cost reads the figures afterwards.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_coll_allgather(const bsp_coll_group *g, const void *send, void *recv, size_t block,
                        const bsp_coll_options *opt);

/* Alltoall (index, personalized all-to-all, Saad–Schultz's multiscatter):
 * block j of rank i's send (n·b bytes) lands in block i of rank j's recv.
 * In place: send = BSP_COLL_IN_PLACE takes the blocks from recv.
 * BRUCK (Bruck §3, radix r, k ports): C1 = Σ over the w = ⌈log_r n⌉
 * subphases of ⌈(h − 1)/k⌉, h = r but in the last ⌈n/r^(w−1)⌉; so
 * C1 ≤ ⌈(r−1)/k⌉·w; C2 = b·Σ over the rounds of the blocks whose subphase
 * digit is the round's first, which is ≤ b·⌈(r−1)/k⌉·⌈n/r⌉·w (Bruck §3.2)
 * for r = 2, r = n and n a power of r — but not always otherwise (n = 40,
 * r = 4, k = 3: C2 = 38b against 30b; coll/alltoall_bruck.c). r = 2 gives
 * the fewest rounds, r = n is DIRECT: C1 = ⌈(n−1)/k⌉, C2 = b·C1.
 * EXCHANGE (Johnsson & Ho's one-port standard exchange on the cube): n must
 * be a power of two, 2^d — else the call fails in one line ("algorithm
 * exchange needs n a power of two, not 6"); in step t every member
 * exchanges with rank XOR 2^t the n/2 blocks whose destination differs from
 * it in bit t, one message each way: C1 = d, C2 = b·(n/2)·d, Bruck's r = 2
 * counts, but every message goes between ranks that differ in one bit — on
 * all processes, between cube neighbours (coll/alltoall_exchange.c). One
 * port only, no radix. The selection considers it for n a power of two
 * and one port, where it ties with BRUCK r = 2 and so is not picked (ties
 * go to the earlier algorithm): force it to keep to the cube's links.
 *
 * @param g       the group (NULL: all processes)
 * @param send    the n blocks for the members (n·block bytes; block j to
 *                rank j), or BSP_COLL_IN_PLACE
 * @param recv    the n blocks from the members (n·block bytes)
 * @param block   the bytes per block, b (0 is legal)
 * @param opt     the algorithm, radix and ports (NULL: all zero, selected)
 * @pre           Inside a section; every process makes the call in the same
 *                superstep, in the same order, with the same arguments (in
 *                a group call, every member of a group), as for bsp_sync.
 * @par Errors
 *     As bsp_coll_broadcast, each line naming the call ("bspram:
 *     bsp_coll_alltoall(g=(nil), send=0x…, recv=0x…, block=8): … (superstep 2,
 *     pid 1)"); besides: "send is NULL", "recv is NULL"; "recv may be
 *     BSP_COLL_IN_PLACE only at a scatter's root"; "algorithm exchange needs n
 *     a power of two, not 6"; "radix 9 is outside [2, n = 8]", "radix 1 is
 *     below 2"; "algorithm exchange of alltoall has one port"; "n·block
 *     overflows". Exit status 1.
 * @par BSP cost
 *     max(1, rounds of the largest group's schedule) supersteps on every
 *     process (none if every group has n = 1), each a record labelled with
 *     the call; C1 and C2 as above for the algorithm (forced by opt or
 *     selected); the BSP cost is Σ over the rounds of (g·h + l), h the
 *     round's byte h-relation (each put carries an 8-byte header: bsp.h).
 *     bsp_coll_last_cost reads the figures afterwards.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_coll_alltoall(const bsp_coll_group *g, const void *send, void *recv, size_t block,
                       const bsp_coll_options *opt);

/* Reduce: root's recv (count words) ← send_0 ⊕ … ⊕ send_{n−1}. In place: at
 * the root send = BSP_COLL_IN_PLACE takes its operand from recv.
 * BINOMIAL: C1 = ⌈log2 n⌉, C2 = m·C1. DIRECT: every member sends to the
 * root, which folds in rank order: C1 = ⌈(n−1)/k⌉, C2 = m·C1.
 * RABENSEIFNER (long vectors): the allreduce's reduce-scatter by recursive
 * halving (below), then the pieces gathered to the root by a binomial tree
 * (the halving's rounds retraced); n not a power of two: the 2r lowest
 * ranks (r = n − n', n' = 2^⌊log2 n⌋) pair off first, the root standing
 * for its pair if it is in one: C1 = 2⌊log2 n⌋, + 1 off powers of two;
 * C2 = Σ over the halving's rounds of the largest half sent, + Σ over the
 * gather's rounds of the largest range a sender holds (≈ 2m(1 − 1/n')),
 * + m off powers of two; the root receives ≈ m(1 − 1/n') in the gather
 * against BINOMIAL's m⌈log2 n⌉. Exactly: coll/reduce_rabenseifner.c (the
 * C2 of two roots differ by at most 8 bytes a round, none when n' divides
 * count; bsp_coll_predict gives root 0's). The same bits as the
 * RABENSEIFNER and DOUBLING allreduce.
 *
 * @param g       the group (NULL: all processes)
 * @param send    this member's operand (count 64-bit words); at the root it
 *                may be BSP_COLL_IN_PLACE
 * @param recv    at the root, the result (count words); elsewhere not
 *                written (may be NULL)
 * @param count   the number of 64-bit words (0 is legal)
 * @param op      a built-in operation (bspram_op_builtin) or one
 *                bsp_shm_add_op returned, from the superstep after its call
 * @param root    the rank of the root in the group, in [0, n)
 * @param opt     the algorithm, radix, ports (NULL: all zero, selected)
 * @pre           Inside a section; every process makes the call in the same
 *                superstep, in the same order, with the same arguments (in
 *                a group call, every member of a group), as for bsp_sync.
 * @par Errors
 *     As bsp_coll_broadcast, each line naming the call ("bspram:
 *     bsp_coll_reduce(g=(nil), send=0x…, recv=0x…, count=4, root=0, op=0): …
 *     (superstep 2, pid 1)"); besides: "send is NULL", "recv is NULL" (at the
 *     root); "send may be BSP_COLL_IN_PLACE only at the root of a gather or
 *     reduce"; "count is too large"; "unknown operation 40; valid: 0..20
 *     (built in: bspram_op_builtin) and the ids bsp_shm_add_op returned, from
 *     the superstep after the call". Exit status 1.
 * @par BSP cost
 *     max(1, rounds of the largest group's schedule) supersteps on every
 *     process (none if every group has n = 1), each a record labelled with
 *     the call; C1 and C2 as above for the algorithm (forced by opt or
 *     selected); the BSP cost is Σ over the rounds of (g·h + l), h the
 *     round's byte h-relation (each put carries an 8-byte header: bsp.h).
 *     bsp_coll_last_cost reads the figures afterwards.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_coll_reduce(const bsp_coll_group *g, const void *send, void *recv, size_t count,
                     unsigned op, unsigned root, const bsp_coll_options *opt);

/* Allreduce: every member's recv ← send_0 ⊕ … ⊕ send_{n−1}. In place: send
 * = BSP_COLL_IN_PLACE. DOUBLING (recursive doubling; n not a power of two:
 * the 2(n − 2^⌊log2 n⌋) lowest ranks pair off first, and get the result last):
 * C1 = log2 n for a power of two, else ⌊log2 n⌋ + 2; C2 = m·C1.
 * DISSEMINATION: Bruck's concatenation of the operands (k ports) and a fold
 * in rank order: C1 = ⌈log_{k+1} n⌉, C2 = ⌈m(n−1)/min(k, n−1)⌉ (few rounds,
 * for short vectors). RABENSEIFNER (long vectors): a reduce-scatter by
 * recursive halving, then an allgather by recursive doubling, with
 * DOUBLING's pairing off when n is not a power of two; the count words cut
 * into n' = 2^⌊log2 n⌋ pieces, piece j the words [⌊j·count/n'⌋,
 * ⌊(j+1)·count/n'⌋): C1 = 2⌊log2 n⌋, + 2 off powers of two; C2 = twice
 * Σ over the halving's rounds of the largest half sent (≈ 2m(1 − 1/n')),
 * + 2m off powers of two; the same bits as DOUBLING.
 *
 * @param g       the group (NULL: all processes)
 * @param send    this member's operand (count 64-bit words), or
 *                BSP_COLL_IN_PLACE
 * @param recv    the result (count words)
 * @param count   the number of 64-bit words (0 is legal)
 * @param op      a built-in operation (bspram_op_builtin) or one
 *                bsp_shm_add_op returned, from the superstep after its call
 * @param opt     the algorithm, radix, ports (NULL: all zero, selected)
 * @pre           Inside a section; every process makes the call in the same
 *                superstep, in the same order, with the same arguments (in
 *                a group call, every member of a group), as for bsp_sync.
 * @par Errors
 *     As bsp_coll_broadcast, each line naming the call ("bspram:
 *     bsp_coll_allreduce(g=(nil), send=0x…, recv=0x…, count=4, op=0): …
 *     (superstep 2, pid 1)"); besides: "send is NULL", "recv is NULL"; "count
 *     is too large"; "algorithm doubling of allreduce has one port"; "unknown
 *     operation 40; valid: 0..20 (built in: bspram_op_builtin) and the ids
 *     bsp_shm_add_op returned, from the superstep after the call".
 *     Exit status 1.
 * @par BSP cost
 *     max(1, rounds of the largest group's schedule) supersteps on every
 *     process (none if every group has n = 1), each a record labelled with
 *     the call; C1 and C2 as above for the algorithm (forced by opt or
 *     selected); the BSP cost is Σ over the rounds of (g·h + l), h the
 *     round's byte h-relation (each put carries an 8-byte header: bsp.h).
 *     bsp_coll_last_cost reads the figures afterwards.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_coll_allreduce(const bsp_coll_group *g, const void *send, void *recv,
                        size_t count, unsigned op, const bsp_coll_options *opt);

/* Inclusive scan: rank i's recv ← send_0 ⊕ … ⊕ send_i; exclusive scan:
 * send_0 ⊕ … ⊕ send_{i−1}, and the operation's identity at rank 0. In place:
 * send = BSP_COLL_IN_PLACE. DISSEMINATION (Hillis–Steele: round t sends to
 * rank + 2^t): C1 = ⌈log2 n⌉, C2 = m·C1. BINOMIAL (up the tree, then down,
 * Blelloch-style): C1 = 2d − 1 for n ≥ 2, d = ⌈log2 n⌉, but 2d − 2 when
 * 3 ≤ n ≤ 3·2^(d−2) (a down-sweep level with nothing to send is skipped);
 * C2 = m·C1; about 2n operations in all, against Hillis–Steele's n·log2 n.
 * DIRECT: every member sends to every higher rank: C1 = ⌈(n−1)/k⌉,
 * C2 = m·C1.
 *
 * @param g       the group (NULL: all processes)
 * @param send    this member's operand (count 64-bit words), or
 *                BSP_COLL_IN_PLACE
 * @param recv    the prefix (count words)
 * @param count   the number of 64-bit words (0 is legal)
 * @param op      a built-in operation (bspram_op_builtin) or one
 *                bsp_shm_add_op returned, from the superstep after its call
 * @param opt     the algorithm, radix, ports (NULL: all zero, selected)
 * @pre           Inside a section; every process makes the call in the same
 *                superstep, in the same order, with the same arguments (in
 *                a group call, every member of a group), as for bsp_sync.
 * @par Errors
 *     As bsp_coll_broadcast, each line naming the call ("bspram:
 *     bsp_coll_scan(g=(nil), send=0x…, recv=0x…, count=4, op=0): … (superstep
 *     2, pid 1)"); besides: "send is NULL", "recv is NULL"; "count is too
 *     large"; "algorithm binomial of scan has one port"; "unknown operation
 *     40; valid: 0..20 (built in: bspram_op_builtin) and the ids
 *     bsp_shm_add_op returned, from the superstep after the call".
 *     Exit status 1.
 * @par BSP cost
 *     max(1, rounds of the largest group's schedule) supersteps on every
 *     process (none if every group has n = 1), each a record labelled with
 *     the call; C1 and C2 as above for the algorithm (forced by opt or
 *     selected); the BSP cost is Σ over the rounds of (g·h + l), h the
 *     round's byte h-relation (each put carries an 8-byte header: bsp.h).
 *     bsp_coll_last_cost reads the figures afterwards.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_coll_scan(const bsp_coll_group *g, const void *send, void *recv, size_t count,
                   unsigned op, const bsp_coll_options *opt);

/* Exclusive scan: rank i's recv ← send_0 ⊕ … ⊕ send_{i−1}, and the
 * operation's identity at rank 0; the algorithms and their C1 and C2 as for
 * bsp_coll_scan.
 *
 * @param g       the group (NULL: all processes)
 * @param send    this member's operand (count 64-bit words), or
 *                BSP_COLL_IN_PLACE
 * @param recv    the prefix (count words)
 * @param count   the number of 64-bit words (0 is legal)
 * @param op      a built-in operation (bspram_op_builtin) or one
 *                bsp_shm_add_op returned, from the superstep after its call
 * @param opt     the algorithm, radix, ports (NULL: all zero, selected)
 * @pre           Inside a section; every process makes the call in the same
 *                superstep, in the same order, with the same arguments (in
 *                a group call, every member of a group), as for bsp_sync.
 * @par Errors
 *     As bsp_coll_broadcast, each line naming the call ("bspram:
 *     bsp_coll_exscan(g=(nil), send=0x…, recv=0x…, count=4, op=0): …
 *     (superstep 2, pid 1)"); besides: "send is NULL", "recv is NULL"; "count
 *     is too large"; "algorithm binomial of scan has one port"; "unknown
 *     operation 40; valid: 0..20 (built in: bspram_op_builtin) and the ids
 *     bsp_shm_add_op returned, from the superstep after the call".
 *     Exit status 1.
 * @par BSP cost
 *     max(1, rounds of the largest group's schedule) supersteps on every
 *     process (none if every group has n = 1), each a record labelled with
 *     the call; C1 and C2 as above for the algorithm (forced by opt or
 *     selected); the BSP cost is Σ over the rounds of (g·h + l), h the
 *     round's byte h-relation (each put carries an 8-byte header: bsp.h).
 *     bsp_coll_last_cost reads the figures afterwards.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_coll_exscan(const bsp_coll_group *g, const void *send, void *recv, size_t count,
                     unsigned op, const bsp_coll_options *opt);

/* ---- selection and measured cost ---- */

typedef enum bsp_coll_op {
    BSP_COLL_BROADCAST, BSP_COLL_SCATTER, BSP_COLL_GATHER, BSP_COLL_ALLGATHER,
    BSP_COLL_ALLTOALL, BSP_COLL_REDUCE, BSP_COLL_ALLREDUCE, BSP_COLL_SCAN
} bsp_coll_op;

/* What the selection predicts for one choice, from the algorithm's formula
 * (C1 and C2 as above; the exact schedule's values, not the bounds — for
 * reduce with RABENSEIFNER, root 0's, which other roots' C2 differs from by
 * at most 8 bytes a round). */
typedef struct bsp_coll_choice {
    bsp_coll_algorithm algorithm;
    unsigned radix;    /* 0 where the algorithm takes none */
    unsigned ports;
    uint64_t c1, c2;   /* predicted rounds and data bytes */
    uint64_t h;        /* predicted Σ h over the rounds: min(k, n − 1)·C2 */
    double cost_ns;    /* C1·l + H·g: each round charged l + g·h, as the router does */
} bsp_coll_choice;

/* The choice BSP_COLL_AUTO makes for `op` on n processes with b bytes per
 * block in the k-port model. Candidates: every algorithm of op with k ports
 * (and every radix 2..n for BRUCK alltoall; EXCHANGE only for n a power of
 * two); with k = 0, every algorithm with one port and, where it takes
 * ports, with n − 1 (all its messages in one superstep: for the direct
 * schedules, one round). A round is charged as the router charges a
 * superstep, l + g·h, with h at most min(k, n − 1) times the round's
 * largest message; the least predicted C1·l + H·g (H = min(k, n − 1)·C2)
 * wins, ties going to the fewer rounds, then to DIRECT (no plan to
 * compute), then the earlier algorithm in bsp_coll_algorithm, then the
 * fewer ports. Local, no
 * communication; a pure function of its arguments and, for a negative g
 * or l, the figures measured for this machine and P.
 *
 * @param op      the operation
 * @param n       the number of processes, ≥ 1
 * @param block   b: bytes per block (broadcast: the buffer; reductions and
 *                scans: 8·count)
 * @param ports   k; 0: the selection picks 1 or n − 1
 * @param g       ns per byte; negative: the measured one (docs/collectives.md:
 *                the parameter file, the cache, or the default 1), the
 *                calling process's section's, else the one known for P =
 *                bsp_nprocs() — never measured here
 * @param l       ns per superstep; negative: the measured one, likewise (or
 *                the default 1000)
 * @return        the algorithm chosen, its radix and ports, its C1, C2, H and
 *                predicted cost
 * @pre           None.
 * @par Errors
 *     "bspram: bsp_coll_select(op=9, n=4, block=8): unknown operation";
 *     "bspram: bsp_coll_select(op=broadcast, n=0, block=8): n must be at
 *     least 1"; "bspram: bsp_coll_select(op=broadcast, n=4, block=8, g=nan,
 *     l=1000): g and l must be finite (ns; negative: the probe's)". Exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(n) formula evaluations (every radix of alltoall), and,
 *     if g or l is negative, reading the parameter file once per program and
 *     the cache once per P.
 * @par Thread safety
 *     Any thread.
 */
bsp_coll_choice bsp_coll_select(bsp_coll_op op, unsigned n, size_t block, unsigned ports,
                                double g, double l);

/* The predicted C1 and C2 of a forced choice, for the text of `bspram coll`
 * and for tests of the selection; with BSP_COLL_AUTO, bsp_coll_select's
 * choice (g and l the probe's).
 *
 * @param op      the operation
 * @param n       the number of processes, ≥ 1
 * @param block   b: bytes per block, as for bsp_coll_select
 * @param opt     as for the calls: zeros take the defaults (NULL: AUTO)
 * @return        the choice with its C1, C2, H and predicted cost (C1·l + H·g
 *                with the probe's g and l)
 * @pre           None.
 * @par Errors
 *     "bspram: bsp_coll_predict(op=9, n=4, block=8, algorithm=0): unknown
 *     operation or algorithm, or n = 0"; "bspram: bsp_coll_predict:
 *     broadcast has no algorithm ring"; "bspram: bsp_coll_predict(op=alltoall,
 *     n=6, block=8, algorithm=exchange): algorithm exchange needs n a power
 *     of two"; with AUTO, those of bsp_coll_select. Exit status 1.
 * @par BSP cost
 *     None: local, O(log n) (O(n) with AUTO); reads the parameter file once
 *     per program.
 * @par Thread safety
 *     Any thread.
 */
bsp_coll_choice bsp_coll_predict(bsp_coll_op op, unsigned n, size_t block,
                                 const bsp_coll_options *opt);

/* Whether an operation has an algorithm on n members: what bsp_coll_predict
 * and the calls accept without an error line (the exchange only on a power of
 * two). For a tuner that tries every algorithm of an operation.
 *
 * @param op      the operation
 * @param a       the algorithm; BSP_COLL_AUTO is every operation's
 * @param n       the members, at least 1
 * @return        1 if the calls accept op with a on n members, else 0
 *                (also for an op or algorithm outside their enums, or n = 0)
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
int bsp_coll_has(bsp_coll_op op, bsp_coll_algorithm a, unsigned n);

/* The measured cost of this process's latest collective call, summed over
 * the records of its rounds. Collective (every process calls it; one
 * barrier, no record): the records' last line is completed on demand. */
typedef struct bsp_coll_cost {
    uint64_t supersteps; /* bsp_syncs of the call (rounds, padding included) */
    uint64_t c1;         /* of them, those that moved a message */
    uint64_t c2;         /* Σ (largest message − 8) over those */
    uint64_t h_bytes;    /* Σ h */
    uint64_t charge;     /* Σ max(q, r) */
    uint64_t max_q;      /* most messages one process sent in one round */
    uint64_t max_r;      /* most messages one process received in one round */
    uint64_t messages, bytes;
} bsp_coll_cost;

/* The measured cost of this process's latest collective call, summed over
 * the records of its rounds (the records' last line is completed on
 * demand). Over MPI, the sums are those of the first process of each rank,
 * alike on every rank.
 *
 * @return        the call's supersteps, C1, C2, Σ h, Σ charge, the largest
 *                q and r, and its messages and bytes (all 0 before any call)
 * @pre           Inside a section; every process calls it (collective), after
 *                the same collective call.
 * @par Errors
 *     Outside a section: "bspram: bsp_coll_last_cost(): called outside a
 *     bsp_begin/bsp_end section", exit status 1.
 * @par BSP cost
 *     One barrier (no record, no superstep); O(rounds of the call) work on
 *     the first process of each rank.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
bsp_coll_cost bsp_coll_last_cost(void);

/* The name of an operation: "broadcast", "scatter", "gather",
 * "allgather", "alltoall", "reduce", "allreduce" or "scan".
 *
 * @param op      the operation
 * @return        its name (a static string); "unknown" for a value outside
 *                bsp_coll_op
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
const char *bsp_coll_op_name(bsp_coll_op op);

/* The name of an algorithm: "auto", "bruck", "direct", "ring", "binomial",
 * "scatter-allgather", "doubling", "dissemination", "exchange" or
 * "rabenseifner".
 *
 * @param a       the algorithm
 * @return        its name (a static string); "unknown" for a value outside
 *                bsp_coll_algorithm
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
const char *bsp_coll_algorithm_name(bsp_coll_algorithm a);

/* The operation named `name`, as bsp_coll_op_name writes it (exactly, in
 * lower case).
 *
 * @param name    the name; must not be NULL
 * @return        the bsp_coll_op, or −1 for an unknown name
 * @pre           None.
 * @par Errors
 *     name NULL: "bspram: bsp_coll_op_parse(name=NULL): name must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(length of name).
 * @par Thread safety
 *     Any thread.
 */
int bsp_coll_op_parse(const char *name);

/* The algorithm named `name`, as bsp_coll_algorithm_name writes it (exactly,
 * in lower case).
 *
 * @param name    the name; must not be NULL
 * @return        the bsp_coll_algorithm, or −1 for an unknown name
 * @pre           None.
 * @par Errors
 *     name NULL: "bspram: bsp_coll_algorithm_parse(name=NULL): name must not
 *     be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(length of name).
 * @par Thread safety
 *     Any thread.
 */
int bsp_coll_algorithm_parse(const char *name);

BSPRAM_END_DECLS
#endif
