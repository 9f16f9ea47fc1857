/* bspram — the BSP machine: p components on T OpenMP threads.
 *
 * Components are not threads (docs/architecture.md). A machine has p
 * components (Valiant's word for BSP processors) served by T worker threads;
 * thread l serves a contiguous block of about p/T components. This header is
 * the *bulk* style: bspram_machine_run / bspram_machine_superstep run a
 * callback once per component per superstep, with the component's inbox and
 * a way to send; p may be far larger than T (p = 4096 on 2 threads). The
 * SPMD style, one thread per process, is BSPlib (bsp.h); both share one
 * router and one log.
 *
 * Every superstep is one router exchange and one record in the log. With
 * BSPRAM_TRACE=path.csv (or path.json) in the environment, every machine
 * appends its log to that file when it is destroyed (all machines of the
 * process, each row tagged with the machine's number; bsp/trace.h).
 *
 * Determinism: everything a component sees (inbox contents and order) and
 * every record field except the *seconds ones depend only on p, the program
 * and the seed — never on T or on scheduling (tests/test_machine.c, tests/test_combine_determinism.c).
 *
 * Cost model: record s has w_s (declared work), h_s (byte h-relation) and the
 * charge max(q_s, r_s). bspram_machine_predicted_cost returns
 * Σ_s (w_s + g·h_s + l), with g and l from the config.
 *
 * NULL: a machine or component handle, a config, a step function
 * function and every out-parameter must not be NULL; NULL is refused in one
 * line naming the call and the argument ("bspram_machine_run(step=NULL):
 * step must not be NULL"), exit status 1 (base/error.h, docs/limits.md).
 * The arg passed through to a step function may be NULL,
 * so may a label (the empty label), and bspram_machine_destroy(NULL) does
 * nothing.
 */
#ifndef BSPRAM_BSP_MACHINE_H
#define BSPRAM_BSP_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/api.h"
#include "router/records.h"
#include "router/message.h"

BSPRAM_BEGIN_DECLS

/* The most worker threads a machine takes: BSPlib's largest P (bsp_begin
 * runs P processes on a machine of P threads). Above it, bspram_machine_create
 * fails in one line. Whether the system gives that many threads is another
 * matter (each thread maps a stack; Linux's default vm.max_map_count of 65530
 * allows about 30000): where it does not, the OpenMP runtime fails. */
#define BSPRAM_MAX_THREADS 65536

/* The most threads bspram_config_default takes from the OpenMP runtime.
 * OpenMP gives a team whatever OMP_NUM_THREADS asks for, and a team of tens
 * of thousands of threads kills the process inside libgomp (a segmentation
 * fault at OMP_NUM_THREADS=70000, even at 65536); no machine has that many
 * cores, and p components need not be served by p threads. */
#define BSPRAM_DEFAULT_MAX_THREADS 4096

typedef struct bspram_config {
    uint64_t p;          /* components, ≥ 1 */
    int threads;         /* 1 ≤ T ≤ BSPRAM_MAX_THREADS worker threads (lanes); may exceed p or
                            the cores; over MPI, the lanes of all ranks, spread in blocks,
                            raised to the number of ranks when p is at least that (then every
                            rank has a lane; bspram_machine_threads tells) */
    double g;            /* BSP g: cost per byte of h-relation (in w's unit), finite, ≥ 0 */
    double l;            /* BSP l: cost per superstep (in w's unit), finite, ≥ 0 */
    uint64_t seed;       /* the machine's seed (bspram_machine_seed) */
    size_t local_bytes;  /* zeroed local state per component (bspram_local) */
} bspram_config;

/* A config for p components with T = omp_get_max_threads() capped at
 * BSPRAM_DEFAULT_MAX_THREADS (OMP_NUM_THREADS=70000 gives T = 4096) — over
 * MPI (libbspram-mpi) that many on every rank, T × ranks in all — g = l = 1 (so
 * the predicted cost counts w + h + 1 per superstep, in w's unit), seed 0
 * and no local state. Pure: it reads no file and no environment variable of
 * its own (only the OpenMP runtime's thread count), so the same call gives
 * the same config on every machine and in every test. For the g and l that
 * `bspram probe` measured (ns per byte of h-relation and ns per superstep,
 * so w in ns), ask for them (bsp/params.h):
 *     bspram_config cfg = bspram_config_default(p);
 *     bspram_params_load(&cfg.g, &cfg.l);   (leaves 1, 1 if no probe ran)
 * Never fails; p is checked by bspram_machine_create. Cost: O(1). */
bspram_config bspram_config_default(uint64_t p);

typedef struct bspram_machine bspram_machine;

/* The handle a component's code gets; valid during the step callback. */
typedef struct bspram_component bspram_component;

/* Over MPI (libbspram-mpi) a machine of fewer components than ranks is not
 * spread: it runs whole on every rank (shared memory, at most a thread per
 * component), and every rank computes the same records and results.
 * Errors (fatal, one line naming the value and the valid range): p = 0 or
 * above BSPRAM_MAX_COMPONENTS, threads < 1 or above BSPRAM_MAX_THREADS, g or
 * l negative or not finite (NaN, ±infinity). */
bspram_machine *bspram_machine_create(const bspram_config *config);
/* Appends the machine's records to the BSPRAM_TRACE file if that variable
 * is set (bsp/trace.h), then frees everything. */
void bspram_machine_destroy(bspram_machine *m);

uint64_t bspram_machine_p(const bspram_machine *m);
int bspram_machine_threads(const bspram_machine *m);
uint64_t bspram_machine_seed(const bspram_machine *m);

/* This process's MPI rank in a program linked with libbspram-mpi (0 in one
 * linked with libbspram): a program whose ranks all compute the same result
 * (the records, a table) prints it where this is 0. */
unsigned bspram_rank(void);
/* The number of MPI ranks of the job (1 with libbspram). */
unsigned bspram_ranks(void);

/* ---- bulk style ---- */

/* Run one component's share of a superstep; return true to ask for another. */
typedef bool (*bspram_step_fn)(bspram_component *self, void *arg);

/* Run supersteps: in each, `step` runs once for every component (in
 * increasing pid order within each thread), then the exchange delivers what
 * was sent. Stops after the first superstep in which no component returned
 * true, or after max_supersteps (0 = no limit). Messages sent in the last
 * superstep are delivered and can be read with bspram_machine_inbox.
 * Returns the number of supersteps run. One OpenMP parallel region for the
 * whole run. */
uint64_t bspram_machine_run(bspram_machine *m, bspram_step_fn step, void *arg,
                            uint64_t max_supersteps);

/* Exactly one superstep (bspram_machine_run with max_supersteps = 1). */
void bspram_machine_superstep(bspram_machine *m, bspram_step_fn step, void *arg);

/* Messages delivered to pid by the last superstep (call between runs). */
size_t bspram_machine_inbox(const bspram_machine *m, uint64_t pid,
                            const bspram_message **msgs);

/* ---- inside a component ---- */




uint64_t bspram_pid(const bspram_component *self);
uint64_t bspram_nprocs(const bspram_component *self);
uint64_t bspram_superstep(const bspram_component *self); /* 0 for the first */

/* Messages delivered to this component by the previous superstep; their
 * payloads stay valid until this component's current superstep ends. */
size_t bspram_inbox(const bspram_component *self, const bspram_message **msgs);

/* Send len bytes to component dst; the payload is copied now.
 * Errors (fatal): dst ∉ [0, p) — "bspram_send(dst=9): destination outside
 * [0, 8) (superstep 3, component 2)"; data NULL with len > 0 (NULL with
 * len = 0 is a message of 0 bytes); self NULL. Cost: one
 * message of len bytes in this superstep's (q, r) and h. */
void bspram_send(bspram_component *self, uint64_t dst, const void *data, uint64_t len);

/* Reserve len bytes of payload to dst and return where to write them
 * (zero-copy variant of bspram_send). Write them before this component's
 * next send: in heavy supersteps the place is a write-combining window that
 * the next send may move. */
void *bspram_send_buffer(bspram_component *self, uint64_t dst, uint64_t len);

/* Declare w units of local work in this superstep (for w in the cost model). */
void bspram_work(bspram_component *self, uint64_t w);

/* This component's zeroed local state of config.local_bytes bytes (NULL if 0),
 * kept across supersteps and runs. */
void *bspram_local(bspram_component *self);

/* Component pid's local state, from outside a run (NULL if local_bytes = 0).
 * Over MPI every rank's host has every component's: after each run the
 * ranks exchange their components' parts (one MPI_Allgatherv of
 * p × local_bytes). */
void *bspram_machine_local(bspram_machine *m, uint64_t pid);

/* ---- records ---- */

/* The label of the records of supersteps run from now on (default
 * "superstep"). Call between runs. */
void bspram_machine_set_label(bspram_machine *m, const char *label);

/* The log of every superstep run so far (completed; call between runs). */
const bspram_record *bspram_machine_records(bspram_machine *m, size_t *n);

/* Empty the log (supersteps keep their numbers). With BSPRAM_TRACE set
 * (bsp/trace.h) the records go to the trace first: the trace holds every
 * superstep the machine ran, cleared or not. */
void bspram_machine_clear_records(bspram_machine *m);

/* The message pattern (router/records.h, bspram_flow): keep it for
 * the supersteps run from now on (call between runs); BSPRAM_PATTERN=1 in
 * the environment turns it on for every machine at creation, so traces
 * carry it (bsp/trace.h). The pattern is index-aligned with
 * bspram_machine_records and cleared with them (completed; call between
 * runs). Cost: 40 bytes per (source, destination) pair that exchanged
 * messages in a kept superstep, and the time to sort them. */
void bspram_machine_keep_pattern(bspram_machine *m, bool on);
const bspram_pattern *bspram_machine_pattern(bspram_machine *m);

/* Σ_s (w_s + g·h_s + l) over the log. */
double bspram_machine_predicted_cost(bspram_machine *m);

/* Write the log to path (.json → JSON, anything else → CSV). Returns 0, or −1
 * with errno set. */
int bspram_machine_write_records(bspram_machine *m, const char *path);

BSPRAM_END_DECLS
#endif
