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
 * combiner (combine.h) of options o, or — o NULL — the AUTO strategy
 * (bspram_basis_auto(p, 0)), random spreading, the extra physical phase and
 * the machine's seed (bspram_machine_seed). Errors: as
 * bspram_combiner_create. Cost: O(p + T). */
bspram_shared *bspram_shared_create(bspram_machine *m, bspram_space *s,
                                    const bspram_combine_options *o);

/* Frees the object and its combiner (not the machine, not the space). */
void bspram_shared_destroy(bspram_shared *sh);

/* The combiner the runs use: register user operations with
 * bspram_combiner_add_op, change options with bspram_combiner_set_options
 * (both between runs). Cost O(1). */
bspram_combiner *bspram_shared_combiner(bspram_shared *sh);

/* Run supersteps as bspram_machine_run does — step(self, arg) once per
 * component per superstep, in increasing pid order within each lane, then
 * the exchange — with the combining batch of the superstep's requests after
 * the exchange (top of this file). Stops after the first superstep in which
 * no component returned true, or after max_supersteps (0 = no limit); the
 * last superstep's requests are combined too, and its answers are read with
 * bspram_shared_answers_of, its messages with bspram_machine_inbox. A run's
 * first step sees, as in bspram_machine_run, the inbox the machine's last
 * superstep left, and the answers to what it issued in the last step of the
 * previous run on this object (none before the first). Returns the number of
 * the program's supersteps (the log also holds the batches'). One OpenMP
 * parallel region for the whole run.
 * Over MPI (libbspram-mpi) every rank's host has every cell afterwards (one
 * MPI_Allreduce per live segment), but the answers and inboxes of its own
 * components only.
 * Errors (fatal): called from inside a step ("bspram_shared_run(
 * max_supersteps=0): called from inside a step (superstep 3, component 1);
 * a step issues requests and returns"); this object's run already in
 * progress (another thread); another run already running on the machine.
 * Cost: top of this file. */
uint64_t bspram_shared_run(bspram_shared *sh, bspram_step_fn step, void *arg,
                           uint64_t max_supersteps);

/* ---- inside a step: issuing requests ----
 *
 * Each call queues one request of component `self` (the handle the step
 * was given) and returns its index in the component's issue order of this
 * superstep (0, 1, 2, …): where its answer will be in the next superstep's
 * bspram_shared_answers. The request is checked now. Errors (fatal, one
 * line with the call, its arguments, the superstep and the component):
 * called outside a step of a run of this object (e.g. from the host, from
 * bspram_machine_run's steps, or for another object's run: "…: called
 * outside the steps of bspram_shared_run on this object"); self NULL or of
 * another machine; an address in no live segment or out of its segment's
 * range; an unknown write policy, operation or kind; a reduce, fetch or
 * combining write on a cell of w ≠ 8 bytes; more than 2^32 − 1 requests by
 * one component in one superstep. Cost: O(1) amortised (the queue grows by
 * doubling), plus the batch (top of this file). */

/* Any request (combine.h: r->kind is BSPRAM_READ, BSPRAM_WRITE_*,
 * bspram_kind_reduce(op), bspram_kind_fetch(op) or
 * bspram_kind_combine_write(op)); r->label is kept (conflict reports of
 * bspram_combiner_watch). The combining write (cell ← ⊕ of the values
 * written this superstep) has no call of its own: issue
 * bspram_kind_combine_write(op). */
size_t bspram_shared_issue(bspram_shared *sh, bspram_component *self, const bspram_request *r);

/* READ: the answer is the cell's value before this superstep's updates
 * (the low w bytes, zero-extended). */
size_t bspram_shared_read(bspram_shared *sh, bspram_component *self, uint64_t address);

/* WRITE with policy BSPRAM_WRITE_ARBITRARY, _PRIORITY or _COMMON (1..3);
 * a cell of w < 8 bytes stores the low w bytes. No answer. */
size_t bspram_shared_write(bspram_shared *sh, bspram_component *self, uint64_t address,
                           uint64_t value, unsigned policy);

/* REDUCE: cell ← cell ⊕ value with operation op (bspram_op_builtin, or a
 * user operation of bspram_shared_combiner). No answer. */
size_t bspram_shared_reduce(bspram_shared *sh, bspram_component *self, uint64_t address,
                            unsigned op, uint64_t value);

/* FETCH-and-op: as REDUCE, and the answer is the cell's value before this
 * request's contribution (combine.h: a prefix in the combining order). */
size_t bspram_shared_fetch(bspram_shared *sh, bspram_component *self, uint64_t address,
                           unsigned op, uint64_t value);

/* ---- answers ---- */

/* The answers to the requests component `self` issued in its previous step
 * (the run's previous superstep, or for a run's first step the last
 * superstep of the previous run on this object), in issue order: *answers
 * points at n entries, entry i answering request i. A READ's or FETCH's
 * entry holds its answer; a write's, a reduction's and a combining write's
 * entry holds 0. n is 0 (and *answers NULL) when the component issued
 * nothing. Valid until the step returns. Errors: as the issuing calls
 * (called outside a step of a run of this object). Cost O(1). */
size_t bspram_shared_answers(bspram_shared *sh, const bspram_component *self,
                             const uint64_t **answers);

/* The same for component pid from the host, between runs: the answers to
 * what pid issued in the last superstep of the last run. Errors (fatal):
 * pid ∉ [0, p); a run in progress. Cost O(1). */
size_t bspram_shared_answers_of(const bspram_shared *sh, uint64_t pid, const uint64_t **answers);

BSPRAM_END_DECLS
#endif
