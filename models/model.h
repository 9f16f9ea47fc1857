/* bspram — pricing recorded supersteps on other machines.
 *
 * The router records every superstep of every run (router/records.h) and, on
 * request, its message pattern: per pair of components the number of
 * messages, their bytes and the largest (bspram_flow). A cost model maps one
 * superstep to a time in seconds; summed over a log it says what the same
 * run would have cost on that machine. The models are those of
 *   - the BSP model: w + g·h + l per superstep (Valiant's bridging model);
 *   - Bruck, Ho, Kipnis, Upfal and Weathersby, "Efficient algorithms for
 *     all-to-all communications in multiport message-passing systems",
 *     IEEE TPDS 8(11), 1997, §2: a fully connected machine with k ports, a
 *     round costing β + τ·m for its largest message m;
 *   - Saad and Schultz, "Data communication in parallel architectures",
 *     Yale report YALEU/DCS/RR-461, 1986, §2: (A) a broadcast bus,
 *     (B) a shared memory with k* banks, (C) a ring, (D) a 2-D torus with
 *     wraparound, (E) a hypercube and (F) a switch; a message of m bytes
 *     costs τ + m/b on one channel.
 *
 * How each prices one superstep. `startup` is τ (Bruck's β), `per_byte` is
 * 1/b (Bruck's τ); T(m) = startup + per_byte·m is one message of m bytes on
 * one channel; sums over messages use the flows (Σ T = messages·startup +
 * bytes·per_byte). Messages from a component to itself cross no network and
 * are free under the pattern-based models (BUS … TORUS, HYPERCUBE).
 *   BSP          work·per_work + g·h + l, every superstep (also empty ones);
 *                from the record alone.
 *   KPORT        a superstep that moves messages: ⌈max(q, r)/k⌉ rounds of
 *                startup + per_byte·largest message; flagged (OVER_PORTS)
 *                when max(q, r) > k. From the record alone.
 *   BUS          the bus carries k* transfers at once, each sender's channel
 *                one at a time: max( max_i Σ_{sent by i} T, Σ_all T / k* ).
 *   SHARED_MEMORY  every message is written to memory, then read: the
 *                writes max( max_i Σ_{sent by i} T, Σ_all T / k* ) plus the
 *                reads max( max_j Σ_{received by j} T, Σ_all T / k* ).
 *   RING         components 0..p−1 around a ring; each message goes the
 *                shorter way round (ties: increasing pid), store and forward,
 *                one T(m) per hop; both links of a node work at once.
 *   TORUS        p = rows × cols, rows the largest divisor of p not above
 *                √p, pid = row·cols + col, wraparound in both dimensions;
 *                a message goes along its row first, then its column, each
 *                the shorter way round; four links per node at once.
 *   HYPERCUBE    p = 2^n; a message corrects the differing address bits
 *                from the lowest up (dimension order), one T(m) per hop; all
 *                n links of a node at once. Other p: NOT_APPLICABLE.
 *                For RING, TORUS and HYPERCUBE the superstep costs
 *                max( the busiest directed link's Σ T of the messages it
 *                carries, the longest message's hops·T(its size) ):
 *                congestion and dilation.
 *   SWITCH       the switch realises one permutation at a time: max(q, r)
 *                configurations, each port streaming its bytes:
 *                max(q, r)·startup + h·per_byte. From the record alone.
 * A pattern-based model asked to price a superstep that moved messages but
 * whose pattern was not kept prices it as 0 and flags it NO_PATTERN.
 *
 * Defaults (bspram_model_default): startup = 29 µs and per_byte = 0.12 µs
 * (the IBM SP-1 measured in Bruck et al. §3.5: β ≈ 29 µs, 8.5 MB/s), for
 * every architecture alike, so that a table compares topologies and not
 * technologies; k = 1 port; k* = 4 (Saad and Schultz give no value; four
 * processors sharing one memory at full speed, as in the Cray X-MP/4 they
 * cite); BSP: g = per_byte, l = startup, per_work = 1 ns. Every field may be
 * set; bspram probe's g and l (bsp/params.h, in ns) give this machine's.
 *
 * Reading the records: bspram_machine_records and bspram_machine_pattern
 * (bsp/machine.h), a BSPRAM_TRACE file written with BSPRAM_PATTERN=1
 * (`bspram models --trace FILE`), or from inside a BSPlib program
 * bsp_model_price below.
 *
 * NULL: a model, a record, a name to parse, and flows or records when
 * there are any, must not be NULL; NULL is refused in one line naming the
 * call and the argument ("bspram_model_price(m=NULL): m must not be NULL"),
 * exit status 1 (base/error.h, docs/limits.md). flags and pattern may be
 * NULL (not wanted, none kept).
 */
#ifndef BSPRAM_MODELS_MODEL_H
#define BSPRAM_MODELS_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "base/api.h"
#define BSPRAM_STABLE_NEEDS_ENGINE_ /* for the engine's names this header uses (the records) */
#include "router/records.h"
#undef BSPRAM_STABLE_NEEDS_ENGINE_

BSPRAM_BEGIN_DECLS

typedef enum bspram_model_kind {
    BSPRAM_MODEL_BSP,
    BSPRAM_MODEL_KPORT,
    BSPRAM_MODEL_BUS,
    BSPRAM_MODEL_SHARED_MEMORY,
    BSPRAM_MODEL_RING,
    BSPRAM_MODEL_TORUS,
    BSPRAM_MODEL_HYPERCUBE,
    BSPRAM_MODEL_SWITCH
} bspram_model_kind;
#define BSPRAM_MODELS 8

typedef struct bspram_model {
    bspram_model_kind kind;
    double startup;   /* τ (Bruck's β), seconds per message and hop */
    double per_byte;  /* 1/b (Bruck's τ), seconds per byte */
    unsigned ports;   /* KPORT: k ≥ 1 */
    unsigned k_star;  /* BUS, SHARED_MEMORY: concurrent transfers ≥ 1 */
    double g, l;      /* BSP: seconds per byte of h, seconds per superstep */
    double per_work;  /* BSP: seconds per unit of declared work */
} bspram_model;

/* The defaults above for one kind: startup = 29 µs, per_byte = 0.12 µs,
 * k = 1 port, k* = 4, g = per_byte, l = startup, per_work = 1 ns.
 *
 * @param kind    the architecture (not checked here: bspram_model_superstep
 *                and bspram_model_price refuse an unknown kind)
 * @return        the model, every field set
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
bspram_model bspram_model_default(bspram_model_kind kind);

/* Why a superstep's price is not the whole story (a bit set). */
enum {
    BSPRAM_MODEL_OVER_PORTS = 1,      /* KPORT: more than k messages per component */
    BSPRAM_MODEL_NO_PATTERN = 2,      /* messages moved, the pattern was not kept */
    BSPRAM_MODEL_NOT_APPLICABLE = 4   /* p does not fit the topology (HYPERCUBE) */
};

/* The time one superstep of a machine of p components takes under model m
 * (see the top of this file for each kind).
 *
 * @param m       the model; must not be NULL
 * @param p       the number of components, in [1, 134217727]
 * @param rec     the superstep's record; must not be NULL
 * @param flows   its pattern, sorted by source, then destination, as the
 *                router keeps them; NULL only with n_flows = 0
 * @param n_flows the number of flows
 * @param kept    0: the pattern was not kept (pattern-based models then
 *                price a superstep that moved messages as 0, flagged
 *                NO_PATTERN)
 * @param flags   set to the bits of BSPRAM_MODEL_OVER_PORTS, NO_PATTERN and
 *                NOT_APPLICABLE that apply; may be NULL
 * @return        the superstep's time in seconds
 * @pre           None.
 * @par Errors
 *     "bspram: bspram_model_superstep(m=NULL): m must not be NULL" (and rec,
 *     and flows when n_flows > 0); an invalid model or p: "bspram:
 *     bspram_model_superstep(model=bsp, p=4, startup=2.9e-05,
 *     per_byte=1.2e-07, ports=1, k_star=4): g must be finite and ≥ 0, not -1"
 *     (likewise startup, per_byte, l, per_work; "unknown kind", "ports must be
 *     at least 1", "k_star must be at least 1", "p must be at least 1"); p
 *     above 134217727: "bspram: bspram_model_superstep(model=ring, p=…): p is
 *     above 134217727"; a flow outside the machine: "bspram:
 *     bspram_model_superstep(model=ring, p=4): flow 2 goes from 1 to 7,
 *     outside [0, 4)". Exit status 1.
 * @par BSP cost
 *     None: local; O(1) for BSP, KPORT and SWITCH, else O(n_flows) (times the
 *     hops for RING, TORUS and HYPERCUBE) and O(p) (links) memory.
 * @par Thread safety
 *     Any thread.
 */
double bspram_model_superstep(const bspram_model *m, uint64_t p, const bspram_record *rec,
                              const bspram_flow *flows, size_t n_flows, int kept,
                              unsigned *flags);

typedef struct bspram_model_total {
    double seconds;      /* Σ over the supersteps */
    uint64_t supersteps; /* priced */
    uint64_t flagged;    /* supersteps with some flag */
    unsigned flags;      /* the OR of their flags */
} bspram_model_total;

/* The price of a log under model m: each of records[0..n) priced as
 * bspram_model_superstep does, with pattern's flows (index for index), and
 * summed.
 *
 * @param m       the model; must not be NULL
 * @param p       the number of components, in [1, 134217727]
 * @param records the records; NULL only with n = 0
 * @param n       the number of records
 * @param pattern the flows of the records, index for index (NULL: none kept)
 * @return        Σ seconds, the supersteps priced, those flagged and the OR
 *                of their flags
 * @pre           None.
 * @par Errors
 *     "bspram: bspram_model_price(m=NULL): m must not be NULL" (and records
 *     when n > 0); an invalid model or p: "bspram:
 *     bspram_model_price(model=bsp, p=4, startup=2.9e-05, per_byte=1.2e-07,
 *     ports=1, k_star=4): g must be finite and ≥ 0, not -1" (likewise startup,
 *     per_byte, l, per_work; "unknown kind", "ports must be at least 1",
 *     "k_star must be at least 1", "p must be at least 1"); p above 134217727:
 *     "bspram: bspram_model_price(model=ring, p=…): p is above 134217727"; a
 *     flow outside the machine, as bspram_model_superstep. Exit status 1.
 * @par BSP cost
 *     None: local; O(n) plus O(flows) (times the hops on networks) work,
 *     O(p) memory.
 * @par Thread safety
 *     Any thread.
 */
bspram_model_total bspram_model_price(const bspram_model *m, uint64_t p,
                                      const bspram_record *records, size_t n,
                                      const bspram_pattern *pattern);

/* The name of a kind: "bsp", "kport", "bus", "shared-memory", "ring",
 * "torus", "hypercube" or "switch".
 *
 * @param kind    the kind
 * @return        its name (a static string); "unknown" for a value outside
 *                bspram_model_kind
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
const char *bspram_model_name(bspram_model_kind kind);

/* The kind named `name`, as bspram_model_name writes it (exactly).
 *
 * @param name    the name; must not be NULL
 * @return        the bspram_model_kind, or −1 for an unknown name
 * @pre           None.
 * @par Errors
 *     name NULL: "bspram: bspram_model_parse(name=NULL): name must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(length of name).
 * @par Thread safety
 *     Any thread.
 */
int bspram_model_parse(const char *name);

/* From inside a BSPlib program: keep the message pattern of every later
 * superstep of this BSP section (on = 0 stops), so that bsp_model_price can
 * price them under the pattern-based models. Collective, like bsp_sync, but
 * without a record.
 *
 * @param on      non-zero: keep; 0: stop keeping
 * @pre           Inside a section; every process calls it at the same point.
 * @par Errors
 *     Outside a section: "bspram: bsp_model_keep_pattern: called outside a
 *     bsp_begin/bsp_end section". Exit status 1.
 * @par BSP cost
 *     Two barriers (no record, no superstep); while on, every superstep keeps
 *     its flows: O(flows) memory and work per superstep.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_model_keep_pattern(int on);

/* From inside a BSPlib program: price this section's supersteps so far
 * under m (as bspram_model_price, with the kept pattern) and return the
 * same total on every process. Collective, like bsp_sync, but without a
 * record.
 *
 * @param m       the model; must not be NULL
 * @return        the section's total so far, the same on every process
 * @pre           Inside a section; every process calls it at the same point,
 *                with the same model.
 * @par Errors
 *     Outside a section: "bspram: bsp_model_price: called outside a
 *     bsp_begin/bsp_end section"; "bspram: bsp_model_price(m=NULL): m must
 *     not be NULL (superstep 3, pid 1)"; an invalid model: the lines of
 *     bspram_model_price. Exit status 1.
 * @par BSP cost
 *     Two barriers (no record, no superstep); O(supersteps so far + their
 *     flows) work on the first process of each rank.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
bspram_model_total bsp_model_price(const bspram_model *m);

BSPRAM_END_DECLS
#endif
