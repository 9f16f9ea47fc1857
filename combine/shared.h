/* bspram — concurrent shared memory from inside bulk-style steps.
 *
 * A bulk program (machine.h: a callback per component per superstep) whose
 * components read and update the hashed address space (address_space.h)
 * while they run: inside its step a component *issues* requests — reads,
 * writes (arbitrary, priority, common), reductions, fetch-and-ops and
 * combining writes, on any cell — and its next step finds the answers, in
 * issue order. In between, the requests of all components are combined and
 * carried to the cells' owners by Valiant's multi-phase combining engine
 * (combine.h: one batch per superstep), so hot
 * spots cost what combining makes them cost, not p messages to one owner.
 *
 * One superstep of bspram_shared_run:
 *   1. every component runs its step: it reads its inbox and the answers to
 *      its previous step's requests, sends messages, issues requests;
 *   2. the exchange of the messages, one record labelled with the machine's
 *      label (bspram_machine_set_label; "superstep" by default); its tag
 *      tells every lane whether some component issued requests and whether
 *      some asked for another superstep;
 *   3. if some component issued requests: the batch, as supersteps of the
 *      same run, labelled "combine:forward:i" and "combine:reverse:j"
 *      (combine.h), in the log and in BSPRAM_TRACE between the program's
 *      own supersteps. The messages of step 2 are held across the batch, so
 *      the next step reads them intact.
 *
 * Semantics of a superstep's requests (one batch, combine.h "Species and
 * their meaning at one cell"): reads see memory as the previous superstep's
 * batch left it (before this superstep's updates, whoever issued them); a
 * cell may receive one update species per superstep; an arbitrary write is
 * won by the least bspram_random2(seed, component, issue index), a priority
 * write by the least (component, issue index); fetch-and-op answers are
 * prefixes in the combining tree's order. Everything — answers, memory, the
 * records but their seconds — is a pure function of the seed and the
 * program, the same for any number of threads T and either transport.
 *
 * Threads: the steps of different components run concurrently (one lane per
 * thread); the calls below that take `self` are made by the component's own
 * step, on its thread, and touch only that component's queue. Segments must
 * not be allocated or freed, nor user operations registered, during a run.
 *
 * Errors are fatal (base/error.h): one line naming the call, its arguments,
 * the superstep (the machine's, as bspram_superstep gives it, which counts
 * the combining supersteps too) and the component, e.g.
 *   bspram: bspram_shared_reduce(address=0x10000000003, op=0, value=5): reduce
 *   needs cells of 8 bytes; segment 1 has cells of 4 bytes (superstep 2,
 *   component 7)
 * Conflicts found at the owners (two update species at one cell, common
 * writes that disagree) are reported by the engine, naming the address
 * (combine.h).
 *
 * Cost: a superstep without requests is one exchange, as in
 * bspram_machine_run. A superstep with requests adds the batch: M forward
 * supersteps (M = the basis's phases m, or m + 1 when a block or cyclic
 * segment is touched and the extra physical phase is used) and, when some
 * request is a READ or a FETCH, M reverse supersteps; each forward phase is
 * charged max(q_i, r_i) as the router records it. Local work: O(1) per
 * request issued, O(messages) expected per request and phase (combine.h),
 * and O(block + messages + bytes) per lane to hold and restore the inbox.
 * Memory: 72 bytes per component, plus 24 bytes per request of a step and
 * 8 per answer, kept and reused until bspram_shared_destroy.
 *
 * NULL: the machine, the space, the shared object, a step function, self,
 * a request and an answers out-parameter must not be NULL; NULL is refused
 * in one line naming the call and the argument (inside a step with the
 * superstep and the component), exit status 1 (docs/limits.md). The options
 * of bspram_shared_create and the arg of a run may be NULL, and
 * bspram_shared_destroy(NULL) does nothing.
 */
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "combine/shared.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
#ifndef BSPRAM_COMBINE_SHARED_H
#define BSPRAM_COMBINE_SHARED_H

#include <stddef.h>
#include <stdint.h>

#include "base/api.h"
#include "bsp/machine.h"
#include "combine/combine.h"
#include "hash/address_space.h"

BSPRAM_BEGIN_DECLS

typedef struct bspram_shared bspram_shared;

/* A shared memory over machine m and address space s (same p), with a
 * combiner (combine.h) of options o.
 *
 * With o NULL: the AUTO strategy (bspram_basis_auto(p, 0)), random
 * spreading, the extra physical phase and the machine's seed
 * (bspram_machine_seed).
 *
 * @param m       the machine whose runs the object drives; not NULL
 * @param s       the address space the requests name; same p as m; not NULL
 * @param o       the combiner's options (copied); NULL for the defaults above
 * @return        the object (free it with bspram_shared_destroy); never NULL
 * @pre           A FIXED basis in o was made by bspram_basis_make or
 *                bspram_basis_parse.
 * @par Errors
 *     Each one line, exit status 1: "bspram: bspram_shared_create: the
 *     machine has p = 8 components but the address space has p = 4";
 *     bspram_combiner_create's option errors, named as
 *     bspram_combiner_set_options's ("bspram:
 *     bspram_combiner_set_options(strategy=5): unknown strategy; valid: 0
 *     fixed, 1 auto, 2 adaptive, 3 observe, 4 route", …); out of memory ("bspram:
 *     bspram_shared_create: out of memory"); m or s NULL ("bspram:
 *     bspram_shared_create(s=NULL): s must not be NULL").
 * @par BSP cost
 *     None: no superstep. O(p + T) time; memory 72 bytes per component plus
 *     the combiner's.
 * @par Thread safety
 *     The host only: outside every run of m.
 */
bspram_shared *bspram_shared_create(bspram_machine *m, bspram_space *s,
                                    const bspram_combine_options *o);

/* Free the object and its combiner (not the machine, not the space).
 *
 * @param sh      the object; NULL does nothing
 * @pre           No run of sh is in progress; sh, its combiner and the
 *                answers it gave are not used afterwards.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(p + T).
 * @par Thread safety
 *     The host only: outside every run of the machine.
 */
void bspram_shared_destroy(bspram_shared *sh);

/* The combiner the runs use: register user operations with
 * bspram_combiner_add_op, change options with bspram_combiner_set_options
 * (both between runs).
 *
 * @param sh      the object; not NULL
 * @return        its combiner, owned by sh (freed by bspram_shared_destroy)
 * @pre           None.
 * @par Errors
 *     sh NULL: "bspram: bspram_shared_combiner(sh=NULL): sh must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: between runs (the combiner may be changed then only).
 */
bspram_combiner *bspram_shared_combiner(bspram_shared *sh);

/* Run supersteps as bspram_machine_run does — step(self, arg) once per
 * component per superstep, in increasing pid order within each lane, then
 * the exchange — with the combining batch of the superstep's requests after
 * the exchange (top of this file).
 *
 * Stops after the first superstep in which no component returned true, or
 * after max_supersteps (0 = no limit); the last superstep's requests are
 * combined too, and its answers are read with bspram_shared_answers_of, its
 * messages with bspram_machine_inbox. A run's first step sees, as in
 * bspram_machine_run, the inbox the machine's last superstep left, and the
 * answers to what it issued in the last step of the previous run on this
 * object (none before the first). One OpenMP parallel region for the whole
 * run. Over MPI (libbspram-mpi) a rank's host has the cells, answers and
 * inboxes of its own components only (bspram_holds; bspram_gather_cells
 * brings cells to every rank when asked).
 *
 * @param sh             the object; not NULL
 * @param step           the program's step, called as step(self, arg); not NULL
 * @param arg            passed to every call of step; may be NULL
 * @param max_supersteps the most program supersteps to run; 0 = no limit
 * @return               the number of the program's supersteps (the log
 *                       also holds the batches')
 * @pre           No run of the machine is in progress; no segment of the
 *                space is allocated or freed, and no user operation
 *                registered, until it returns.
 * @par Errors
 *     Each one line, exit status 1:
 *     called from inside a step of a shared run, of this object or
 *     another ("bspram: bspram_shared_run(max_supersteps=0): called from
 *     inside a step (superstep 3, component 1); a step issues requests and
 *     returns");
 *     step NULL ("bspram: bspram_shared_run(max_supersteps=0): step is
 *     NULL"); sh NULL ("bspram: bspram_shared_run(sh=NULL): sh must not be
 *     NULL");
 *     this object's run already in progress on another thread ("bspram:
 *     bspram_shared_run(max_supersteps=0): a run of this object is already
 *     in progress (a call from another thread); one run at a time");
 *     another run already running on the machine, in a line naming this
 *     call ("bspram: bspram_shared_run: the machine's team is already
 *     running (…); a machine runs one team at a time"), and
 *     OpenMP giving too few threads (bspram_machine_run's error, under the
 *     same name);
 *     conflicts met at the owners, in the engine's lines, which name
 *     bspram_combine ("bspram: bspram_combine: two update species at
 *     address 0x10000000005 in one batch: write(arbitrary) and
 *     reduce(sum:u64#7)"; "bspram: bspram_combine: common-write conflict at
 *     address 0x10000000005 (segment 1, cell 5): origin 2 writes 7, origin
 *     3 writes 8");
 *     and the errors of the calls the steps make.
 * @par BSP cost
 *     Per program superstep: one exchange (one record, charged max(q, r)
 *     of the steps' messages), and if some component issued requests one
 *     batch: M forward supersteps and, when some request is a READ or a
 *     FETCH, M reverse supersteps (top of this file). Local work: O(1) per
 *     request issued, O(messages) expected per request and phase, O(block +
 *     messages + bytes) per lane to hold and restore the inbox.
 * @par Thread safety
 *     The host only: not from a step (refused above), one run of sh and of
 *     its machine at a time. The steps run concurrently on the machine's
 *     threads.
 */
uint64_t bspram_shared_run(bspram_shared *sh, bspram_step_fn step, void *arg,
                           uint64_t max_supersteps);

/* ---- inside a step: issuing requests ---- */

/* Queue any request of component self for this superstep's batch
 * (combine.h: r->kind is BSPRAM_READ, BSPRAM_WRITE_*,
 * bspram_kind_reduce(op), bspram_kind_fetch(op) or
 * bspram_kind_combine_write(op)); r->label is kept (conflict reports of
 * bspram_combiner_watch).
 *
 * The combining write (cell ← ⊕ of the values written this superstep) has
 * no call of its own: issue bspram_kind_combine_write(op). The request is
 * checked now.
 *
 * @param sh      the object whose run is running the step; not NULL
 * @param self    the handle the step was given; not NULL
 * @param r       the request (copied); not NULL
 * @return        the request's index in the component's issue order of
 *                this superstep (0, 1, 2, …): where its answer will be in
 *                the next superstep's bspram_shared_answers
 * @pre           Called from a step of a run of sh on this component.
 * @par Errors
 *     Each one line "bspram: bspram_shared_issue(address=0x10000000005,
 *     value=5, kind=40): WHAT (superstep 2, component 7)", exit status 1, its
 *     arguments as the call formats them, where WHAT is:
 *     called outside a step of a run of this object (from the host, from
 *     bspram_machine_run's steps, or in another object's run): "called
 *     outside the steps of bspram_shared_run on this object; a component
 *     issues requests and reads answers in its own step of the run";
 *     self of another machine: "the component belongs to another machine
 *     than the shared memory's";
 *     self NULL: "self is NULL; pass the handle the step was given"; sh
 *     NULL: "sh is NULL; pass the object of the run" (called outside every
 *     step, these two lines end without the superstep and component);
 *     r NULL: "no request" (the arguments then read "r=NULL");
 *     an address in no live segment: "address 0x50000000000 is in no live
 *     segment (segment 5)", or past its segment's cells: "address
 *     0x1000000000a: segment 1 index 10 out of range [0, 10)";
 *     an unknown kind or operation: "unknown species or operation (kind
 *     40); valid: 0 read, 1-3 write, 32+op reduce, 64+op fetch, 96+op
 *     combining write, with op < 21";
 *     a reduce, fetch or combining write on a cell of w ≠ 8 bytes:
 *     "reduce needs cells of 8 bytes; segment 1 has cells of 4 bytes"
 *     ("fetch", "a combining write");
 *     more than 2^32 − 1 requests by one component in one superstep:
 *     "4294967295 requests in this superstep already; at most 4294967295
 *     per component and superstep".
 * @par BSP cost
 *     No superstep of its own: the request joins this superstep's batch
 *     (top of this file). O(1) amortised (the queue grows by doubling), 24
 *     bytes per request until the batch.
 * @par Thread safety
 *     A component inside its step: a step of a run of sh, with the handle
 *     it was given; it touches only that component's queue.
 */
size_t bspram_shared_issue(bspram_shared *sh, bspram_component *self, const bspram_request *r);

/* Queue a READ of a cell: the answer is the cell's value before this
 * superstep's updates (the low w bytes, zero-extended).
 *
 * @param sh      the object whose run is running the step; not NULL
 * @param self    the handle the step was given; not NULL
 * @param address the cell (bspram_address), in a live segment of the space
 * @return        the request's index in the component's issue order of
 *                this superstep (0, 1, 2, …): where its answer will be in
 *                the next superstep's bspram_shared_answers
 * @pre           Called from a step of a run of sh on this component.
 * @par Errors
 *     Each one line "bspram: bspram_shared_read(address=0x50000000000): WHAT
 *     (superstep 2, component 7)", exit status 1, its arguments as the call
 *     formats them, where WHAT is:
 *     called outside a step of a run of this object (from the host, from
 *     bspram_machine_run's steps, or in another object's run): "called
 *     outside the steps of bspram_shared_run on this object; a component
 *     issues requests and reads answers in its own step of the run";
 *     self of another machine: "the component belongs to another machine
 *     than the shared memory's";
 *     self NULL: "self is NULL; pass the handle the step was given"; sh
 *     NULL: "sh is NULL; pass the object of the run" (called outside every
 *     step, these two lines end without the superstep and component);
 *     an address in no live segment: "address 0x50000000000 is in no live
 *     segment (segment 5)", or past its segment's cells: "address
 *     0x1000000000a: segment 1 index 10 out of range [0, 10)";
 *     more than 2^32 − 1 requests by one component in one superstep:
 *     "4294967295 requests in this superstep already; at most 4294967295
 *     per component and superstep".
 * @par BSP cost
 *     No superstep of its own: the request joins this superstep's batch
 *     (top of this file). O(1) amortised (the queue grows by doubling), 24
 *     bytes per request until the batch.
 * @par Thread safety
 *     A component inside its step: a step of a run of sh, with the handle
 *     it was given; it touches only that component's queue.
 */
size_t bspram_shared_read(bspram_shared *sh, bspram_component *self, uint64_t address);

/* Queue a WRITE with policy BSPRAM_WRITE_ARBITRARY, _PRIORITY or _COMMON
 * (1..3); a cell of w < 8 bytes stores the low w bytes. No answer (its
 * entry in the next step's answers is 0).
 *
 * @param sh      the object whose run is running the step; not NULL
 * @param self    the handle the step was given; not NULL
 * @param address the cell (bspram_address), in a live segment of the space
 * @param value   the value to write
 * @param policy  BSPRAM_WRITE_ARBITRARY (1), _PRIORITY (2) or _COMMON (3)
 * @return        the request's index in the component's issue order of
 *                this superstep (0, 1, 2, …): where its answer will be in
 *                the next superstep's bspram_shared_answers
 * @pre           Called from a step of a run of sh on this component.
 * @par Errors
 *     Each one line "bspram: bspram_shared_write(address=0x10000000005,
 *     value=5, policy=0): WHAT (superstep 2, component 7)", exit status 1, its
 *     arguments as the call formats them, where WHAT is:
 *     called outside a step of a run of this object (from the host, from
 *     bspram_machine_run's steps, or in another object's run): "called
 *     outside the steps of bspram_shared_run on this object; a component
 *     issues requests and reads answers in its own step of the run";
 *     self of another machine: "the component belongs to another machine
 *     than the shared memory's";
 *     self NULL: "self is NULL; pass the handle the step was given"; sh
 *     NULL: "sh is NULL; pass the object of the run" (called outside every
 *     step, these two lines end without the superstep and component);
 *     a policy outside 1..3: "unknown policy; valid: 1 arbitrary, 2
 *     priority, 3 common";
 *     an address in no live segment: "address 0x50000000000 is in no live
 *     segment (segment 5)", or past its segment's cells: "address
 *     0x1000000000a: segment 1 index 10 out of range [0, 10)";
 *     more than 2^32 − 1 requests by one component in one superstep:
 *     "4294967295 requests in this superstep already; at most 4294967295
 *     per component and superstep".
 *     Common writes that disagree are the batch's error (bspram_shared_run).
 * @par BSP cost
 *     No superstep of its own: the request joins this superstep's batch
 *     (top of this file). O(1) amortised (the queue grows by doubling), 24
 *     bytes per request until the batch.
 * @par Thread safety
 *     A component inside its step: a step of a run of sh, with the handle
 *     it was given; it touches only that component's queue.
 */
size_t bspram_shared_write(bspram_shared *sh, bspram_component *self, uint64_t address,
                           uint64_t value, unsigned policy);

/* Queue a REDUCE: cell ← cell ⊕ value with operation op (bspram_op_builtin,
 * or a user operation of bspram_shared_combiner). No answer (its entry in
 * the next step's answers is 0).
 *
 * @param sh      the object whose run is running the step; not NULL
 * @param self    the handle the step was given; not NULL
 * @param address the cell (bspram_address), in a live segment of cells of
 *                8 bytes
 * @param op      an operation of the combiner, below
 *                bspram_combiner_op_count
 * @param value   the contribution
 * @return        the request's index in the component's issue order of
 *                this superstep (0, 1, 2, …): where its answer will be in
 *                the next superstep's bspram_shared_answers
 * @pre           Called from a step of a run of sh on this component.
 * @par Errors
 *     Each one line "bspram: bspram_shared_reduce(address=0x10000000003, op=0,
 *     value=5): WHAT (superstep 2, component 7)", exit status 1, its arguments
 *     as the call formats them, where WHAT is:
 *     called outside a step of a run of this object (from the host, from
 *     bspram_machine_run's steps, or in another object's run): "called
 *     outside the steps of bspram_shared_run on this object; a component
 *     issues requests and reads answers in its own step of the run";
 *     self of another machine: "the component belongs to another machine
 *     than the shared memory's";
 *     self NULL: "self is NULL; pass the handle the step was given"; sh
 *     NULL: "sh is NULL; pass the object of the run" (called outside every
 *     step, these two lines end without the superstep and component);
 *     an operation that is not the combiner's: "unknown operation; valid:
 *     0..20 (21 built in, then the combiner's user operations)";
 *     an address in no live segment: "address 0x50000000000 is in no live
 *     segment (segment 5)", or past its segment's cells: "address
 *     0x1000000000a: segment 1 index 10 out of range [0, 10)";
 *     a cell of w ≠ 8 bytes: "reduce needs cells of 8 bytes; segment 1 has
 *     cells of 4 bytes";
 *     more than 2^32 − 1 requests by one component in one superstep:
 *     "4294967295 requests in this superstep already; at most 4294967295
 *     per component and superstep".
 * @par BSP cost
 *     No superstep of its own: the request joins this superstep's batch
 *     (top of this file). O(1) amortised (the queue grows by doubling), 24
 *     bytes per request until the batch.
 * @par Thread safety
 *     A component inside its step: a step of a run of sh, with the handle
 *     it was given; it touches only that component's queue.
 */
size_t bspram_shared_reduce(bspram_shared *sh, bspram_component *self, uint64_t address,
                            unsigned op, uint64_t value);

/* Queue a FETCH-and-op: as REDUCE, and the answer is the cell's value
 * before this request's contribution (combine.h: a prefix in the combining
 * order).
 *
 * @param sh      the object whose run is running the step; not NULL
 * @param self    the handle the step was given; not NULL
 * @param address the cell (bspram_address), in a live segment of cells of
 *                8 bytes
 * @param op      an operation of the combiner, below
 *                bspram_combiner_op_count
 * @param value   the contribution
 * @return        the request's index in the component's issue order of
 *                this superstep (0, 1, 2, …): where its answer will be in
 *                the next superstep's bspram_shared_answers
 * @pre           Called from a step of a run of sh on this component.
 * @par Errors
 *     Each one line "bspram: bspram_shared_fetch(address=0x10000000003, op=0,
 *     value=5): WHAT (superstep 2, component 7)", exit status 1, its arguments
 *     as the call formats them, where WHAT is:
 *     called outside a step of a run of this object (from the host, from
 *     bspram_machine_run's steps, or in another object's run): "called
 *     outside the steps of bspram_shared_run on this object; a component
 *     issues requests and reads answers in its own step of the run";
 *     self of another machine: "the component belongs to another machine
 *     than the shared memory's";
 *     self NULL: "self is NULL; pass the handle the step was given"; sh
 *     NULL: "sh is NULL; pass the object of the run" (called outside every
 *     step, these two lines end without the superstep and component);
 *     an operation that is not the combiner's: "unknown operation; valid:
 *     0..20 (21 built in, then the combiner's user operations)";
 *     an address in no live segment: "address 0x50000000000 is in no live
 *     segment (segment 5)", or past its segment's cells: "address
 *     0x1000000000a: segment 1 index 10 out of range [0, 10)";
 *     a cell of w ≠ 8 bytes: "fetch needs cells of 8 bytes; segment 1 has
 *     cells of 4 bytes";
 *     more than 2^32 − 1 requests by one component in one superstep:
 *     "4294967295 requests in this superstep already; at most 4294967295
 *     per component and superstep".
 * @par BSP cost
 *     No superstep of its own: the request joins this superstep's batch
 *     (top of this file). O(1) amortised (the queue grows by doubling), 24
 *     bytes per request until the batch.
 * @par Thread safety
 *     A component inside its step: a step of a run of sh, with the handle
 *     it was given; it touches only that component's queue.
 */
size_t bspram_shared_fetch(bspram_shared *sh, bspram_component *self, uint64_t address,
                           unsigned op, uint64_t value);

/* ---- answers ---- */

/* The answers to the requests component self issued in its previous step
 * (the run's previous superstep, or for a run's first step the last
 * superstep of the previous run on this object), in issue order.
 *
 * Entry i answers request i: a READ's or FETCH's entry holds its answer;
 * a write's, a reduction's and a combining write's entry holds 0.
 *
 * @param sh      the object whose run is running the step; not NULL
 * @param self    the handle the step was given; not NULL
 * @param answers receives the address of the n entries (NULL when the
 *                component issued nothing), valid until the step returns;
 *                not NULL
 * @return        n, the number of requests it issued then
 * @pre           Called from a step of a run of sh on this component.
 * @par Errors
 *     Each one line "bspram: bspram_shared_answers(): WHAT (superstep 2,
 *     component 7)", exit status 1, its arguments as the call formats them,
 *     where WHAT is:
 *     called outside a step of a run of this object (from the host, from
 *     bspram_machine_run's steps, or in another object's run): "called
 *     outside the steps of bspram_shared_run on this object; a component
 *     issues requests and reads answers in its own step of the run";
 *     self of another machine: "the component belongs to another machine
 *     than the shared memory's";
 *     self NULL: "self is NULL; pass the handle the step was given"; sh
 *     NULL: "sh is NULL; pass the object of the run" (called outside every
 *     step, these two lines end without the superstep and component);
 *     answers NULL: "answers is NULL; pass where the pointer to them goes".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step: a step of a run of sh, with the handle
 *     it was given.
 */
size_t bspram_shared_answers(bspram_shared *sh, const bspram_component *self,
                             const uint64_t **answers);

/* The answers of component pid, from the host between runs: the answers to
 * what pid issued in the last superstep of the last run, as
 * bspram_shared_answers gives them.
 *
 * Over MPI a rank has the answers of its own components only (docs/mpi.md).
 *
 * @param sh      the object; not NULL
 * @param pid     the component, in [0, p)
 * @param answers receives the address of the n entries (NULL when pid
 *                issued nothing), valid until the next run or destroy; not
 *                NULL
 * @return        n, the number of requests pid issued then
 * @pre           No run of sh is in progress.
 * @par Errors
 *     Each one line, exit status 1: pid ≥ p ("bspram:
 *     bspram_shared_answers_of(pid=9): component outside [0, 8)"); a run in
 *     progress ("bspram: bspram_shared_answers_of(pid=3): a run is in
 *     progress; call it between runs (a step reads its answers with
 *     bspram_shared_answers)"); sh or answers NULL ("bspram:
 *     bspram_shared_answers_of(answers=NULL): answers must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: between runs of sh.
 */
size_t bspram_shared_answers_of(const bspram_shared *sh, uint64_t pid, const uint64_t **answers);

BSPRAM_END_DECLS
#endif
