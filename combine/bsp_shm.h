/* bsp_shm.h — a BSPlib extension: concurrent shared memory inside BSPlib
 * programs, served by multi-phase combining (L. G. Valiant, "A combining
 * mechanism for parallel computers", TR-24-92, 1992; the shared memory of a
 * BSP computer as in Valiant, "A bridging model for parallel computation",
 * CACM 33(8), 1990, §3–4: a hashed address space simulating a PRAM).
 *
 *     #include <bsp.h>
 *     #include <bsp_shm.h>      (installed beside bsp.h; also combine/bsp_shm.h)
 *
 * The processes of a BSP section collectively allocate *segments* of cells
 * (1 to 8 bytes each) in one address space shared by all of them, and any
 * process may read, write, reduce into or fetch-and-op any cell. Like
 * bsp_get, a request is issued now and completes at the next bsp_sync: the
 * answers of reads and fetch-and-ops are in the caller's buffers when
 * bsp_sync returns. The header is the specification, in the style of bsp.h:
 * each function says what it does, what misuse it detects and what it costs.
 *
 * The memory. A section has one hashed address space over its P processes
 * (hash/address_space.h): bspram_space_create(P, BSPRAM_HASH_XXH3, 0), made
 * at the bsp_sync that applies the section's first bsp_shm_alloc and freed by
 * bsp_end. A segment of the LAYOUT_HASHED layout spreads its cells over the
 * processes by the hash H (Valiant 1992 §2), so any access pattern loads them
 * evenly with high probability; BLOCK and CYCLIC place cell i on process
 * i div ⌈n/P⌉ or i mod P (physical addresses, §5). Cells start at 0.
 * No process sees the cells in its own memory: they are reached only by the
 * requests below. A cell of w < 8 bytes holds the w bytes a write gave it; a
 * read returns them. Segments end with their section.
 *
 * Handles. bsp_shm_alloc returns a handle (bsp_shm_t) at once, the same on
 * every process: its high 32 bits number the BSP section in the program (1
 * for the first), its low 32 bits the allocation within it (1 for the first
 * bsp_shm_alloc). It is valid from the next bsp_sync on (like bsp_push_reg)
 * until the bsp_sync that applies its bsp_shm_free. The value 0 is never a
 * handle.
 *
 * One superstep = one combining batch. At bsp_sync the requests that every
 * process issued in the superstep are one batch of the section's combiner
 * (combine/combine.h), run by the section's threads as supersteps of the
 * section (process pid's part: its requests in issue order).
 * Per cell and superstep (combine.h, "Species"):
 *   - every read (and every fetch-and-op's answer) sees the cell as it was
 *     before the superstep's updates;
 *   - a cell may receive one update species per superstep: writes of one
 *     policy, reductions with one operation, fetch-and-ops with one
 *     operation, or combining writes with one operation — two different
 *     ones at a cell are an error (below); reads may be mixed with any;
 *   - write ARBITRARY: one of the written values wins, chosen by a
 *     pseudo-random function of (seed, pid, issue index) — the same in every
 *     run; PRIORITY: the lowest pid wins, then its earliest request;
 *     COMMON: all written values must be equal;
 *   - reduce op: cell ← cell ⊕ (⊕ of the values);
 *   - combining write op: cell ← ⊕ of the values (the old value is dropped;
 *     the CRCW combining PRAM's write);
 *   - fetch-and-op op: cell ← cell ⊕ (⊕ of the values), and each caller
 *     gets cell_before ⊕ (the values that precede its own in the combining
 *     order) — multiprefix, like the Ultracomputer's fetch-and-add. The
 *     order is the combining tree's (a pure function of the seed).
 * Operations (combine.h): the built-in sum, prod, min, max, and, or, xor
 * on int64, uint64 and double — bspram_op_builtin(BSPRAM_OP_SUM,
 * BSPRAM_TYPE_U64), or bspram_op_parse("sum:u64") — and user operations
 * registered with bsp_shm_add_op. Any commutative, associative operation
 * can be combined on the way (Valiant 1992 §5). Reduce, fetch-and-op and
 * combining write need cells of 8 bytes; their values are 8 bytes (the bits
 * of an int64, a uint64 or a double).
 *
 * Where the batch runs in bsp_sync (docs/bsplib.md, docs/shm.md): after the
 * superstep's puts and get replies have landed — the superstep's DRMA is
 * complete — and before registrations, the tag size and this extension's
 * allocations and frees take effect. Its phases are extra supersteps of the
 * same bsp_sync. Answers are written into the callers' buffers last, so
 * where a put or get and an answer write the same bytes, the answer wins.
 * The superstep's BSMP messages are kept out of the router while the batch
 * runs (one copy), so the message queue after the sync is as without it.
 *
 * Cost (every figure from the router's records). A superstep in which some
 * process issued a request adds, after the "bsp_sync" record (and
 * "bsp_sync:get" if there were gets), M forward supersteps labelled
 * "combine:forward:1" .. "combine:forward:M" and, if some request was a read
 * or a fetch-and-op, M reverse supersteps "combine:reverse:1" ..
 * "combine:reverse:M", where M is the number of phases m of the basis (plus
 * one if some request names a BLOCK or CYCLIC cell: §5's extra phase).
 * Forward phase i is charged max(q_i, r_i) (combine.h); at P = 4096 the
 * basis (32,16,8) keeps the total charge of any pattern within a small
 * factor of the degree-1 baseline (Valiant §4, Tables 2 and 3;
 * docs/combining.md). Messages are 32 bytes forward (16 for a reduction on
 * a hashed segment, unless the basis is "adaptive"), 16 back. A superstep without requests costs nothing
 * more. bsp_shm_alloc, bsp_shm_free, bsp_shm_add_op and bsp_shm_set_basis
 * cost one barrier at the next sync (two if requests ran in that sync too)
 * and no record. Issuing a request is O(1) (a copy of the value); the sync
 * does O(requests held) expected work per process and phase.
 * With BSPRAM_TRACE set, the combining phases appear in the trace between
 * the bsp_sync record and the next superstep's.
 *
 * The basis (Valiant §4) is chosen by bspram_basis_auto(P, 0)
 * (BSPRAM_STRATEGY_AUTO: one phase for P ≤ 8, his compromise (32,16,8) at
 * P = 4096) unless bsp_shm_set_basis says otherwise. The combiner has the
 * options bspram_combine_defaults(P) with that strategy, seed 0, random
 * spreading and the extra physical phase; so a superstep's batch has
 * exactly the records of the same batch given to bspram_combine.
 *
 * Determinism: answers, cell values and records (all columns but the
 * seconds) are a pure function of P and the program — the same in every
 * run, on either transport (BSPRAM_TRANSPORT=staged).
 *
 * Errors. Misuse prints one line naming the call, its arguments, the
 * superstep and the pid, like every BSPlib error (bsp.h), e.g.
 *   bspram: bsp_shm_read(seg=0x100000001, index=10, dst=0x7ffd…): index
 *   outside [0, 10) (superstep 3, pid 2)
 * and every process exits with status 1. Found when the request is issued:
 * a handle never returned by bsp_shm_alloc in this section (or from another
 * section), a freed segment, a segment allocated in this same superstep,
 * an index outside the segment, an unknown operation (or one registered in
 * this superstep), reduce / fetch-and-op / combining write on cells of
 * fewer than 8 bytes, a NULL buffer, an unknown write policy, a call outside
 * a BSP section. Found by pid 0 at the sync, naming the processes: the
 * collective calls (bsp_shm_alloc, bsp_shm_free, bsp_shm_add_op,
 * bsp_shm_set_basis) not made by every process in the same superstep, in
 * the same order, with the same arguments. Found while combining, reported
 * by the engine in its own line (combine.h), exit status 1 as well: two
 * update species at one cell in one superstep ("bspram: bspram_combine: two
 * update species at address …"), common writes of different values
 * ("bspram: bspram_combine: common-write conflict at address … (segment s,
 * cell i): origin a writes x, origin b writes y", origins being pids).
 */
#ifndef BSPRAM_COMBINE_BSP_SHM_H
#define BSPRAM_COMBINE_BSP_SHM_H

#include <stdint.h>

#include "base/api.h"
#include "bsp/bsp.h"
#define BSPRAM_STABLE_NEEDS_ENGINE_ /* for the engine's names this header uses (the operations, the layouts) */
#include "combine/combine.h"
#include "hash/address_space.h"
#undef BSPRAM_STABLE_NEEDS_ENGINE_

BSPRAM_BEGIN_DECLS

/* A segment handle (see the top of this file); 0 is never one. */
typedef uint64_t bsp_shm_t;

/* Layouts (hash/address_space.h). */
#define BSP_SHM_HASHED BSPRAM_LAYOUT_HASHED /* owner H(t): Valiant §2 */
#define BSP_SHM_BLOCK BSPRAM_LAYOUT_BLOCK   /* owner i div ⌈n/P⌉: §5 */
#define BSP_SHM_CYCLIC BSPRAM_LAYOUT_CYCLIC /* owner i mod P: §5 */

/* Write policies: what a cell written by several requests in one superstep
 * holds after it (the values of bspram's BSPRAM_WRITE_*). */
typedef enum bsp_shm_policy {
    BSP_SHM_ARBITRARY = 1, /* one of them, chosen pseudo-randomly (same in every run) */
    BSP_SHM_PRIORITY = 2,  /* the lowest pid's (its earliest) */
    BSP_SHM_COMMON = 3     /* all must write the same value */
} bsp_shm_policy;

/* ---- collective calls: take effect at the next bsp_sync ----
 * Every process makes the same collective calls in the same superstep, in
 * the same order, with the same arguments; pid 0 checks it at the sync.
 * Errors there (one line, naming the call and the processes):
 *   "bsp_shm_alloc(cells=64, width=8, layout=hashed): called by pid 0 but
 *    not by pid 2 in superstep 3; all processes must call it in the same
 *    superstep"
 *   "bsp_shm_alloc: processes disagree in superstep 3: pid 0 calls
 *    bsp_shm_alloc(cells=64, …), pid 2 calls bsp_shm_alloc(cells=32, …)
 *    (their collective call 1 of the superstep); all processes must make the
 *    same calls in the same order" */

/* Allocate a segment of `cells` cells of `width` bytes with the given
 * layout, all 0, and return its handle: the same on every process (the k-th
 * allocation of the section). The segment exists from the next bsp_sync on:
 * requests may name it from the superstep after this one.
 *
 * @param cells   the number of cells, in [1, 2^40]
 * @param width   the bytes per cell, in [1, 8] (8 for reduce, fetch-and-op
 *                and combining write)
 * @param layout  BSP_SHM_HASHED, BSP_SHM_BLOCK or BSP_SHM_CYCLIC
 * @return        the segment's handle, never 0
 * @pre           Inside a section; every process makes the same call in the
 *                same superstep (collective).
 * @par Errors
 *     Outside a section: "bspram: bsp_shm_alloc(cells=64, width=8,
 *     layout=hashed): called outside a bsp_begin/bsp_end section"; now:
 *     "bspram: bsp_shm_alloc(cells=0, width=8, layout=hashed): cells outside
 *     [1, 2^40] (superstep 0, pid 1)", "…: width outside [1, 8] bytes (…)",
 *     "bspram: bsp_shm_alloc(cells=64, width=8, layout=unknown): unknown
 *     layout 7; valid: 0 BSP_SHM_HASHED, 1 BSP_SHM_BLOCK, 2 BSP_SHM_CYCLIC
 *     (…)"; at the sync, not collective (the lines at the top of this
 *     section), or more than 65535 segments live: "bspram:
 *     bsp_shm_alloc(cells=64, width=8, layout=hashed): more than 65535
 *     segments would be live in superstep 3 (free some with bsp_shm_free)",
 *     or a hashed segment whose tables cannot fit in the memory a process
 *     can have (at least 3/2 slots of 4 + width bytes per cell it holds; of
 *     8 + width for 2^32 cells or more),
 *     refused at once rather than built: "bspram:
 *     bsp_shm_alloc(cells=1099511627776, width=8, layout=hashed): a hashed
 *     segment of 1099511627776 cells needs at least 24 TiB for its owners'
 *     tables (3/2 slots of 8 + 8 bytes per cell this process holds); this
 *     process can have at most 15.6 GiB (the machine's memory) (superstep
 *     0)". Exit status 1.
 * @par BSP cost
 *     O(1) now; at the next sync one barrier (no record; two if requests ran
 *     in that sync too) and O(cells + P) work and memory on the first process
 *     of each rank (the cells' storage; n hash evaluations for a hashed
 *     layout).
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
bsp_shm_t bsp_shm_alloc(size_t cells, size_t width, bspram_layout layout);

/* Free the segment at the next bsp_sync, after that sync's batch: requests
 * issued in the same superstep as the free still run. From the next
 * superstep on the handle is refused.
 *
 * @param seg     a live segment's handle
 * @pre           Inside a section; every process frees the same segment in
 *                the same superstep (collective).
 * @par Errors
 *     Outside a section: "bspram: bsp_shm_free(seg=0x100000001): called
 *     outside a bsp_begin/bsp_end section"; seg not live: "bspram:
 *     bsp_shm_free(seg=0x100000002): the segment was freed (bsp_shm_free in
 *     superstep 2) (superstep 4, pid 0)", or "…: the segment is allocated by
 *     a bsp_shm_alloc of this superstep; it exists from the next bsp_sync on
 *     (…)", "…: the handle is from BSP section 1 (this is section 2);
 *     segments end with their section (…)", "…: not a segment: this
 *     section's bsp_shm_alloc calls have returned 0x200000001 to 0x200000003
 *     (…)" (or "…: not a segment: no bsp_shm_alloc has been called in this
 *     section"); freed twice: "…: the segment is freed twice in this
 *     superstep (…)"; at the sync, not collective (the lines at the top of
 *     this section). Exit status 1.
 * @par BSP cost
 *     O(1) now; at the next sync one barrier (no record) and O(cells) on the
 *     first process of each rank.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_shm_free(bsp_shm_t seg);

/* Register a user operation, usable with bsp_shm_reduce, bsp_shm_fetch_op
 * and bsp_shm_combine_write (and the reductions of bsp_coll.h) from the next
 * superstep on. Operations last for the section.
 *
 * @param name    names the operation in error lines (31 bytes kept); NULL:
 *                "user"
 * @param fn      the operation: commutative and associative, with identity
 *                as its identity (combine.h, bspram_user_op_fn: called from
 *                every process's thread at once with the same ctx, so it
 *                must be thread-safe); must not be NULL
 * @param ctx     handed to fn; may be NULL
 * @param identity the operation's identity element (8 bytes)
 * @return        the operation's id: 21, 22, … in registration order, the
 *                same on every process
 * @pre           Inside a section; every process registers the same
 *                operation in the same superstep (collective).
 * @par Errors
 *     Outside a section: "bspram: bsp_shm_add_op(name=user, fn=0x…, ctx=0x…,
 *     identity=0): called outside a bsp_begin/bsp_end section"; fn NULL:
 *     "bspram: bsp_shm_add_op(name=user, fn=(nil), ctx=(nil), identity=0): fn
 *     is NULL (superstep 0, pid 1)"; more than 11 in a section: "…: more
 *     than 11 user operations in one section (…)"; at the sync, not
 *     collective (processes passing different fn, ctx or identity; over MPI
 *     ranks, different name or identity; the lines at the top of this
 *     section). Exit status 1.
 * @par BSP cost
 *     O(1) now; one barrier (no record) at the next sync.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
unsigned bsp_shm_add_op(const char *name, bspram_user_op_fn fn, void *ctx, uint64_t identity);

/* Choose how the basis of the combining phases is chosen (Valiant §4), from
 * the next superstep's batch on:
 *   "auto"         bspram_basis_auto(P, 0): the default;
 *   "auto:D"       bspram_basis_auto(P, D): expected degree D ∈ [0, P]
 *                  (D requests per cell; 0 = unknown);
 *   "adaptive"     BSPRAM_STRATEGY_ADAPTIVE (combine.h);
 *   "32x16x8"      a fixed basis b_1 x … x b_m with product P ("8,8,8,8"
 *                  and a single "4096" are accepted; hash/basis.h).
 * The engine's two other strategies (combine.h) are not offered here:
 * OBSERVE (measure the degree in ⌈log2 P⌉ extra supersteps, then run
 * bspram_basis_auto's basis for it) and ROUTE (the programmer's own phases,
 * a function of the address) are options of bspram_combine
 * (docs/combining.md).
 *
 * @param basis   one of the texts above; must not be NULL
 * @pre           Inside a section; every process passes the same text in the
 *                same superstep (collective).
 * @par Errors
 *     Outside a section: "bspram: bsp_shm_set_basis(basis="auto"): called
 *     outside a bsp_begin/bsp_end section"; basis NULL: "bspram:
 *     bsp_shm_set_basis(basis=NULL): basis is NULL (superstep 0, pid 1)";
 *     text not one of these, or a basis whose product is not P: "bspram:
 *     bsp_shm_set_basis(basis="7x3"): basis product is 21; it must equal
 *     p = 8; write auto, auto:D, adaptive or a basis such as 4x2 with product
 *     P = 8 (superstep 0, pid 1)", "…(basis="auto:x"): cannot read the
 *     degree hint; write auto:D with D in [0, 8] (…)"; at the sync, not
 *     collective (the lines at the top of this section). Exit status 1.
 * @par BSP cost
 *     O(length of basis) now; one barrier (no record) at the next sync.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_shm_set_basis(const char *basis);

/* ---- requests: issued now, complete at the next bsp_sync ----
 * Errors of every request (at once, one line): outside a section; seg not
 * a handle of this section, freed, or allocated in this superstep; index
 * ≥ the segment's cells; a NULL buffer. */

/* Read cell `index` of seg: at the next bsp_sync its `width` bytes (as the
 * cell was before the superstep's updates) are written to dst.
 *
 * @param seg     a live segment's handle, allocated before this superstep
 * @param index   the cell, in [0, cells)
 * @param dst     where the cell's width bytes are written at the sync; must
 *                not be NULL
 * @pre           Inside a section; dst stays valid until bsp_sync returns.
 * @par Errors
 *     Outside a section: "bspram: bsp_shm_read(seg=0x100000001, index=10,
 *     dst=0x…): called outside a bsp_begin/bsp_end section"; seg not live:
 *     the lines of bsp_shm_free, naming bsp_shm_read ("bspram:
 *     bsp_shm_read(seg=0x100000002, index=0, dst=0x…): the segment was freed
 *     (bsp_shm_free in superstep 2) (superstep 4, pid 0)"); "bspram:
 *     bsp_shm_read(seg=0x100000001, index=10, dst=0x…): index outside
 *     [0, 10) (superstep 3, pid 2)"; "…(seg=0x100000001, index=0,
 *     dst=(nil)): dst is NULL (…)". Exit status 1.
 * @par BSP cost
 *     O(1) now; at the sync one request of the batch: 32 bytes forward and
 *     16 back in the combining phases (see the top of this file).
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_shm_read(bsp_shm_t seg, size_t index, void *dst);

/* Write the cell's `width` bytes from src (copied now) at the next
 * bsp_sync, with the given policy when several requests write the cell.
 *
 * @param seg     a live segment's handle, allocated before this superstep
 * @param index   the cell, in [0, cells)
 * @param policy  BSP_SHM_ARBITRARY, BSP_SHM_PRIORITY or BSP_SHM_COMMON
 * @param src     the cell's width bytes (copied now); must not be NULL
 * @pre           Inside a section; no other update species at the cell in
 *                this superstep; for COMMON, every write of the cell writes
 *                the same value.
 * @par Errors
 *     Outside a section, seg not live, index outside the segment: as
 *     bsp_shm_read, naming bsp_shm_write ("bspram: bsp_shm_write(
 *     seg=0x100000001, index=10, policy=arbitrary, src=0x…): index outside
 *     [0, 10) (superstep 3, pid 2)"); "…: src is NULL (…)"; "bspram:
 *     bsp_shm_write(seg=0x100000001, index=0, policy=9, src=0x…): unknown
 *     policy; valid: 1 BSP_SHM_ARBITRARY, 2 BSP_SHM_PRIORITY, 3
 *     BSP_SHM_COMMON (…)"; at the sync, from the engine: "bspram:
 *     bspram_combine: common-write conflict at address … (segment s, cell
 *     i): origin a writes x, origin b writes y", "bspram: bspram_combine:
 *     two update species at address …". Exit status 1.
 * @par BSP cost
 *     O(1) now; at the sync one request of the batch: 32 bytes forward.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_shm_write(bsp_shm_t seg, size_t index, bsp_shm_policy policy, const void *src);

/* cell ← cell ⊕ value (8 bytes from value, copied now) at the next
 * bsp_sync; requests for one cell are combined on the way.
 *
 * @param seg     a live segment of 8-byte cells, allocated before this
 *                superstep
 * @param index   the cell, in [0, cells)
 * @param op      a built-in operation (bspram_op_builtin, bspram_op_parse)
 *                or one registered with bsp_shm_add_op before this superstep
 * @param value   the operand, 8 bytes (copied now); must not be NULL
 * @pre           Inside a section; no other update species at the cell in
 *                this superstep.
 * @par Errors
 *     Outside a section, seg not live, index outside the segment: as
 *     bsp_shm_read, naming bsp_shm_reduce; an operation unknown: "bspram:
 *     bsp_shm_reduce(seg=0x100000001, index=0, op=40, value=0x…): unknown
 *     operation; valid: 0..20 (built in: bspram_op_builtin); no operation was
 *     registered with bsp_shm_add_op (superstep 3, pid 2)" (or "…; valid:
 *     0..20 (built in: bspram_op_builtin) and 21..22 (bsp_shm_add_op)"), or
 *     registered in this superstep: "…: operation 21 is registered by a
 *     bsp_shm_add_op of this superstep; it is usable from the next bsp_sync
 *     on (…)"; cells of fewer than 8 bytes: "…: reduce, fetch-and-op and
 *     combining write need cells of 8 bytes; the segment's cells have 4
 *     (…)"; "…: value is NULL (…)"; at the sync, another update species at
 *     the cell ("bspram: bspram_combine: two update species at address …").
 *     Exit status 1.
 * @par BSP cost
 *     O(1) now; at the sync one request of the batch: 16 bytes forward on a
 *     hashed segment (unless the basis is "adaptive"), 32 otherwise.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_shm_reduce(bsp_shm_t seg, size_t index, unsigned op, const void *value);

/* Fetch-and-op: cell ← cell ⊕ value at the next bsp_sync, and dst (8
 * bytes) receives the cell's value before the superstep ⊕ the values of the
 * requests that precede this one in the combining order (multiprefix; see
 * the top of this file).
 *
 * @param seg     a live segment of 8-byte cells, allocated before this
 *                superstep
 * @param index   the cell, in [0, cells)
 * @param op      a built-in operation or one registered with bsp_shm_add_op
 *                before this superstep
 * @param value   the operand, 8 bytes (copied now); must not be NULL
 * @param dst     where the 8-byte answer is written at the sync; must not be
 *                NULL
 * @pre           Inside a section; no other update species at the cell in
 *                this superstep; dst stays valid until bsp_sync returns.
 * @par Errors
 *     As bsp_shm_reduce, each line naming bsp_shm_fetch_op ("bspram:
 *     bsp_shm_fetch_op(seg=0x100000001, index=10, op=sum:i64, value=0x…,
 *     dst=0x…): index outside [0, 10) (superstep 3, pid 2)"); and "…: dst is
 *     NULL (…)".
 *     Exit status 1.
 * @par BSP cost
 *     O(1) now; at the sync one request of the batch: 32 bytes forward, 16
 *     back.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_shm_fetch_op(bsp_shm_t seg, size_t index, unsigned op, const void *value, void *dst);

/* Combining write (bspram_kind_combine_write): at the next bsp_sync the
 * cell gets the ⊕ of the values written to it in the superstep, its old
 * value dropped (the CRCW combining PRAM's write).
 *
 * @param seg     a live segment of 8-byte cells, allocated before this
 *                superstep
 * @param index   the cell, in [0, cells)
 * @param op      a built-in operation or one registered with bsp_shm_add_op
 *                before this superstep
 * @param value   the value written, 8 bytes (copied now); must not be NULL
 * @pre           Inside a section; no other update species at the cell in
 *                this superstep.
 * @par Errors
 *     As bsp_shm_reduce, each line naming bsp_shm_combine_write ("bspram:
 *     bsp_shm_combine_write(seg=0x100000001, index=0, op=sum:i64, value=(nil)):
 *     value is NULL (superstep 3, pid 2)"). Exit status 1.
 * @par BSP cost
 *     O(1) now; at the sync one request of the batch: 32 bytes forward.
 * @par Thread safety
 *     A BSPlib process inside a section, for itself.
 */
void bsp_shm_combine_write(bsp_shm_t seg, size_t index, unsigned op, const void *value);

BSPRAM_END_DECLS

#endif
