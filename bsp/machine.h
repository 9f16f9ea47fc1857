/* bspram — the BSP machine: p components on T threads.
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
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "bsp/machine.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
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
 * allows about 30000): where it does not, the run fails in one line. */
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
 * BSPRAM_DEFAULT_MAX_THREADS (OMP_NUM_THREADS=70000 gives T = 4096), g = l = 1,
 * seed 0 and no local state.
 *
 * Over MPI (libbspram-mpi) T is that many on every rank, T × ranks in all
 * (at most BSPRAM_MAX_THREADS). With g = l = 1 the predicted cost counts
 * w + h + 1 per superstep, in w's unit. Pure: it reads no file and no
 * environment variable of its own (only the OpenMP runtime's thread
 * count), so the same call gives the same config on every machine and in
 * every test. For the g and l that `bspram probe` measured (ns per byte of
 * h-relation and ns per superstep, so w in ns), ask for them
 * (bsp/params.h):
 *     bspram_config cfg = bspram_config_default(p);
 *     bspram_params_load(&cfg.g, &cfg.l);   (leaves 1, 1 if no probe ran)
 *
 * @param p       the number of components (checked by bspram_machine_create,
 *                not here)
 * @return        the config, by value
 * @pre           None.
 * @par Errors
 *     None: p is checked by bspram_machine_create.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
bspram_config bspram_config_default(uint64_t p);

typedef struct bspram_machine bspram_machine;

/* The handle a component's code gets; valid during the step callback. */
typedef struct bspram_component bspram_component;

/* A machine of config->p components on config->threads worker threads,
 * with an empty log.
 *
 * Over MPI (libbspram-mpi) the lanes are spread over the ranks in blocks
 * (config->threads is raised to the number of ranks when p is at least
 * that), and a machine of fewer components than ranks is not spread: it
 * runs whole on every rank (shared memory, at most a thread per
 * component), and every rank computes the same records and results. With
 * BSPRAM_PATTERN set (not "0") the machine keeps its message pattern from
 * the start (bspram_machine_keep_pattern).
 *
 * @param config  the machine's parameters (bspram_config_default, then
 *                changed); copied; not NULL
 * @return        the machine (free it with bspram_machine_destroy); never NULL
 * @pre           None.
 * @par Errors
 *     Each one line, exit status 1:
 *     "bspram: bspram_machine_create(p=0, threads=2): p must be in [1,
 *     4294967295]"; "bspram: bspram_machine_create(p=8, threads=0): threads
 *     must be in [1, 65536]"; "bspram: bspram_machine_create(p=8,
 *     threads=2, g=nan, l=1): g and l must be finite and >= 0"; an unknown
 *     BSPRAM_TRANSPORT ("bspram: the router's transport 'foo'
 *     (BSPRAM_TRANSPORT) is unknown; valid: shm, staged"); out of
 *     memory ("bspram: bspram_machine_create(p=8, threads=2): out of
 *     memory", or "bspram: bspram_machine_create (local state): out of
 *     memory allocating 8 x 64 bytes"); config NULL ("bspram:
 *     bspram_machine_create(config=NULL): config must not be NULL").
 * @par BSP cost
 *     None: no superstep. Memory: two outbox tables of p + 1 cache lines
 *     per lane (calloc'd: O(T·p) of address space, pages touched only for
 *     destinations posted to), O(T²) bits of bookkeeping, and p ×
 *     local_bytes of local state; time about proportional to the memory
 *     touched.
 * @par Thread safety
 *     The host only: not from a step of a machine's run. Over MPI every
 *     rank creates its machines alike and in the same order (their numbers
 *     in the trace and their lanes depend on it).
 */
bspram_machine *bspram_machine_create(const bspram_config *config);

/* Append the machine's records to the BSPRAM_TRACE file if that variable
 * is set (bsp/trace.h), then free everything.
 *
 * Over MPI the rank that runs lane 0 (rank 0 for a machine that runs whole
 * on every rank) writes the trace.
 *
 * @param m       the machine; NULL does nothing
 * @pre           No run of m is in progress; m is not used afterwards
 *                (nor are pointers it gave: records, inboxes, local state).
 * @par Errors
 *     None fatal. A trace file that cannot be written is reported on
 *     stderr in one line and the program goes on: "bspram:
 *     BSPRAM_TRACE=t.csv: cannot write the trace: No space left on device"
 *     (or ": a FIFO that no process reads (not waited for)").
 * @par BSP cost
 *     None: no superstep. O(T + p) time to free, plus O(records) of trace
 *     I/O (one open and close of the file) when BSPRAM_TRACE is set.
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
void bspram_machine_destroy(bspram_machine *m);

/* The machine's number of components p.
 *
 * @param m       the machine; not NULL
 * @return        config.p as created
 * @pre           None.
 * @par Errors
 *     m NULL: "bspram: bspram_machine_p(m=NULL): m must not be NULL", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also during a run (it reads what create fixed).
 */
uint64_t bspram_machine_p(const bspram_machine *m);

/* The machine's number of worker threads (lanes) T: config.threads, or
 * what create raised it to over MPI (the number of ranks when p is at
 * least that; at most p for a machine that runs whole on every rank).
 *
 * @param m       the machine; not NULL
 * @return        T ≥ 1
 * @pre           None.
 * @par Errors
 *     m NULL: "bspram: bspram_machine_threads(m=NULL): m must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also during a run (it reads what create fixed).
 */
int bspram_machine_threads(const bspram_machine *m);

/* The machine's seed, config.seed (the default seed of the layers above:
 * bspram_shared_create, bsp_shm).
 *
 * @param m       the machine; not NULL
 * @return        config.seed as created
 * @pre           None.
 * @par Errors
 *     m NULL: "bspram: bspram_machine_seed(m=NULL): m must not be NULL",
 *     exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread, also during a run (it reads what create fixed).
 */
uint64_t bspram_machine_seed(const bspram_machine *m);

/* This process's MPI rank in a program linked with libbspram-mpi (0 in one
 * linked with libbspram).
 *
 * A program whose ranks all compute the same result (the records, a table)
 * prints it where this is 0.
 *
 * @return        the rank, in [0, bspram_ranks())
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
unsigned bspram_rank(void);

/* The number of MPI ranks of the job (1 with libbspram).
 *
 * @return        the number of ranks, ≥ 1
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
unsigned bspram_ranks(void);

/* ---- bulk style ---- */

/* Run one component's share of a superstep; return true to ask for another. */
typedef bool (*bspram_step_fn)(bspram_component *self, void *arg);

/* Run supersteps: in each, step runs once for every component (in
 * increasing pid order within each thread), then the exchange delivers
 * what was sent.
 *
 * Stops after the first superstep in which no component returned true, or
 * after max_supersteps (0 = no limit). Messages sent in the last superstep
 * are delivered and can be read with bspram_machine_inbox, and a run's first
 * step reads the inbox the machine's previous superstep left. One start of
 * the machine's threads for the whole run (the library's own threads,
 * placed and waiting as docs/environment.md, "Threads", says). Over MPI every rank calls it alike;
 * afterwards every rank has every record and every component's local state
 * (one MPI_Allgatherv of p × local_bytes), but the inboxes of its own
 * components only.
 *
 * @param m              the machine; not NULL
 * @param step           the step function, called as step(self, arg); not NULL
 * @param arg            passed to every call of step; may be NULL
 * @param max_supersteps the most supersteps to run; 0 = no limit
 * @return               the number of supersteps run (≥ 1)
 * @pre           No run of m is in progress.
 * @par Errors
 *     Each one line, exit status 1: a run of m already in
 *     progress — from inside one of its steps, or from another thread
 *     ("bspram: bspram_machine_run: the machine's team is already running
 *     (a call from inside one of its steps or programs, or from another
 *     thread); a machine runs one team at a time"); threads that cannot be
 *     started ("bspram: bspram_machine_run: could not start 4000 threads
 *     (Resource temporarily unavailable after 498); lower the number of
 *     threads, or raise the limits on threads and memory (ulimit -u,
 *     ulimit -v) or lower OMP_STACKSIZE"); m or step NULL ("bspram:
 *     bspram_machine_run(step=NULL): step must not be NULL"); and every
 *     error of the calls the steps make.
 * @par BSP cost
 *     One superstep (one exchange, one record) per call of the steps: record
 *     s is charged max(q_s, r_s) and priced w_s + g·h_s + l
 *     (bspram_machine_predicted_cost), from the messages and work the steps
 *     posted. Local work: the steps', plus O(messages + p/T) per lane and
 *     superstep for the exchange.
 * @par Thread safety
 *     The host only: not from a step of any machine (a nested region gets
 *     too few threads); one run of m at a time. The steps run concurrently
 *     on the T threads, each on its own block of components.
 */
uint64_t bspram_machine_run(bspram_machine *m, bspram_step_fn step, void *arg,
                            uint64_t max_supersteps);

/* Exactly one superstep: bspram_machine_run(m, step, arg, 1).
 *
 * @param m       the machine; not NULL
 * @param step    the step function; not NULL
 * @param arg     passed to every call of step; may be NULL
 * @pre           No run of m is in progress.
 * @par Errors
 *     As bspram_machine_run, whose name the lines give (but a NULL m or
 *     step is named as bspram_machine_superstep's: "bspram:
 *     bspram_machine_superstep(step=NULL): step must not be NULL"), exit
 *     status 1.
 * @par BSP cost
 *     One superstep: one exchange and one record, as bspram_machine_run.
 * @par Thread safety
 *     The host only, as for bspram_machine_run.
 */
void bspram_machine_superstep(bspram_machine *m, bspram_step_fn step, void *arg);

/* The messages delivered to component pid by the machine's last superstep,
 * read from the host between runs.
 *
 * In the order of delivery: by source component, then issue order. Over
 * MPI a rank has the messages of its own components only (docs/mpi.md).
 *
 * @param m       the machine; not NULL
 * @param pid     the component, in [0, p)
 * @param msgs    receives the address of the first of the messages (NULL
 *                when there are none), valid until the next run of m; not
 *                NULL
 * @return        the number of messages
 * @pre           No run of m is in progress.
 * @par Errors
 *     pid ≥ p: "bspram: bspram_machine_inbox(pid=9): component outside [0,
 *     8)", exit status 1; m or msgs NULL: "bspram:
 *     bspram_machine_inbox(msgs=NULL): msgs must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1) (the shared-memory transport builds an inbox at
 *     its first read after an exchange: O(its messages)).
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
size_t bspram_machine_inbox(const bspram_machine *m, uint64_t pid,
                            const bspram_message **msgs);

/* ---- inside a component ---- */




/* The component's number pid, in [0, p).
 *
 * @param self    the handle the step was given; not NULL
 * @return        pid
 * @pre           self is the handle of the current step.
 * @par Errors
 *     self NULL: "bspram: bspram_pid(self=NULL): self must not be NULL",
 *     exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step.
 */
uint64_t bspram_pid(const bspram_component *self);

/* The machine's number of components p.
 *
 * @param self    the handle the step was given; not NULL
 * @return        p
 * @pre           self is the handle of the current step.
 * @par Errors
 *     self NULL: "bspram: bspram_nprocs(self=NULL): self must not be NULL",
 *     exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step.
 */
uint64_t bspram_nprocs(const bspram_component *self);

/* The number of the current superstep: 0 for the machine's first, counting
 * every superstep the machine ran since create, over all runs (the number
 * its record gets; a batch's supersteps under bspram_shared_run count too).
 *
 * @param self    the handle the step was given; not NULL
 * @return        the superstep's number
 * @pre           self is the handle of the current step.
 * @par Errors
 *     self NULL: "bspram: bspram_superstep(self=NULL): self must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step.
 */
uint64_t bspram_superstep(const bspram_component *self);

/* The messages delivered to this component by the previous superstep, by
 * source component, then issue order.
 *
 * Their payloads stay valid until this component's current superstep
 * ends. In a run's first step: what the machine's last superstep before
 * the run delivered.
 *
 * @param self    the handle the step was given; not NULL
 * @param msgs    receives the address of the first of the messages (NULL
 *                when there are none); not NULL
 * @return        the number of messages
 * @pre           self is the handle of the current step.
 * @par Errors
 *     self or msgs NULL: "bspram: bspram_inbox(msgs=NULL): msgs must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1) (the shared-memory transport builds an inbox at
 *     its first read after an exchange: O(its messages)).
 * @par Thread safety
 *     A component inside its step.
 */
size_t bspram_inbox(const bspram_component *self, const bspram_message **msgs);

/* Send len bytes to component dst; the payload is copied now.
 *
 * The message is delivered at the end of this superstep and read in dst's
 * next step (bspram_inbox), or after the run with bspram_machine_inbox.
 *
 * @param self    the handle the step was given; not NULL
 * @param dst     the destination component, in [0, p) (itself allowed)
 * @param data    the len bytes to send; may be NULL only when len = 0 (a
 *                message of 0 bytes)
 * @param len     the payload's size in bytes, at most BSPRAM_MAX_MESSAGE
 * @pre           self is the handle of the current step.
 * @par Errors
 *     Each one line, exit status 1: "bspram: bspram_send(dst=9): destination
 *     outside [0, 8) (superstep 3, component 2)"; "bspram: bspram_send(dst=1,
 *     data=NULL, len=4): NULL payload with a non-zero size (superstep 3,
 *     component 2)"; "bspram: bspram_send(dst=1, len=N): message too large; at
 *     most 4611686018427387904 bytes (superstep 3, component 2)" (len above
 *     BSPRAM_MAX_MESSAGE); self NULL ("bspram: bspram_send(self=NULL): self
 *     must not be NULL").
 * @par BSP cost
 *     One message of len bytes in this superstep's (q, r) pattern and
 *     h-relation: one message sent by self and received by dst (q and r
 *     are the largest such counts over the components), len bytes out of
 *     self and into dst (h is the largest max(bytes out, bytes in)). Local
 *     work O(len) (the copy).
 * @par Thread safety
 *     A component inside its step.
 */
void bspram_send(bspram_component *self, uint64_t dst, const void *data, uint64_t len);

/* Reserve len bytes of payload to dst and return where to write them
 * (zero-copy variant of bspram_send).
 *
 * Write them before this component's next send: in heavy supersteps the
 * place is a write-combining window that the next send may move.
 *
 * @param self    the handle the step was given; not NULL
 * @param dst     the destination component, in [0, p)
 * @param len     the payload's size in bytes, at most BSPRAM_MAX_MESSAGE
 * @return        where to write the len bytes (a valid pointer also for
 *                len = 0), until this component's next send
 * @pre           self is the handle of the current step.
 * @par Errors
 *     Each one line, exit status 1: "bspram: bspram_send_buffer(dst=9):
 *     destination outside [0, 8) (superstep 3, component 2)"; "bspram:
 *     bspram_send_buffer(dst=1, len=N): message too large; at most
 *     4611686018427387904 bytes (superstep 3, component 2)" (len above
 *     BSPRAM_MAX_MESSAGE); self NULL ("bspram: bspram_send_buffer(self=NULL):
 *     self must not be NULL").
 * @par BSP cost
 *     As bspram_send: one message of len bytes in this superstep's (q, r)
 *     and h. Local work O(1) (the caller writes the bytes).
 * @par Thread safety
 *     A component inside its step.
 */
void *bspram_send_buffer(bspram_component *self, uint64_t dst, uint64_t len);

/* Declare w units of local work in this superstep (for w in the cost
 * model).
 *
 * A component's declarations in one superstep add up; the superstep's
 * record holds w_s, the largest sum over its components.
 *
 * @param self    the handle the step was given; not NULL
 * @param w       the units of work, in the unit of g and l
 * @pre           self is the handle of the current step.
 * @par Errors
 *     self NULL: "bspram: bspram_work(self=NULL): self must not be NULL",
 *     exit status 1.
 * @par BSP cost
 *     Adds w to this component's work in this superstep (w_s of its record
 *     is the max over components). Local work O(1).
 * @par Thread safety
 *     A component inside its step.
 */
void bspram_work(bspram_component *self, uint64_t w);

/* This component's local state: config.local_bytes bytes, zeroed at
 * create, kept across supersteps and runs.
 *
 * @param self    the handle the step was given; not NULL
 * @return        the component's bytes, or NULL if local_bytes = 0
 * @pre           self is the handle of the current step.
 * @par Errors
 *     self NULL: "bspram: bspram_local(self=NULL): self must not be NULL",
 *     exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     A component inside its step (it touches only its own bytes).
 */
void *bspram_local(bspram_component *self);

/* The components this process holds, [*first, *end): [0, p) on one
 * machine; over MPI the rank's block (components are spread over the ranks
 * in blocks, docs/mpi.md), so the ranks' ranges are consecutive and cover
 * [0, p) once. A machine of fewer components than ranks runs whole on every
 * rank and holds them all.
 *
 * @param m      the machine; not NULL
 * @param first  receives the first component held; not NULL
 * @param end    receives one past the last; not NULL
 * @pre          None.
 * @par Errors
 *     A NULL argument: one line naming it ("bspram:
 *     bspram_machine_owned(first=NULL): first must not be NULL"), exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
void bspram_machine_owned(const bspram_machine *m, uint64_t *first, uint64_t *end);

/* Host access, an explicit gather: every component's local state to every
 * process, readable with bspram_machine_local until the next run. On one
 * machine nothing to do; over MPI every rank calls it alike (one
 * MPI_Allgatherv of p × local_bytes). A run never does this by itself.
 *
 * @param m      the machine; not NULL
 * @pre          No run of m is in progress.
 * @par Errors
 *     m NULL: "bspram: bspram_machine_gather_local(m=NULL): m must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None recorded (no superstep); over MPI p × local_bytes bytes to
 *     every rank.
 * @par Thread safety
 *     The host only, as bspram_machine_run.
 */
void bspram_machine_gather_local(bspram_machine *m);

/* Component pid's local state, from outside a run.
 *
 * Over MPI a rank holds its own components' state (bspram_machine_owned):
 * after a run it may read those, and every component's once it has called
 * bspram_machine_gather_local (until the next run). On one machine every
 * component's, always.
 *
 * @param m       the machine; not NULL
 * @param pid     the component, in [0, p)
 * @return        its local_bytes bytes (valid until destroy), or NULL if
 *                local_bytes = 0
 * @pre           No run of m is in progress.
 * @par Errors
 *     pid ≥ p: "bspram: bspram_machine_local(pid=9): component outside [0,
 *     8)", exit status 1; over MPI, another rank's component after a run
 *     and before bspram_machine_gather_local: "bspram:
 *     bspram_machine_local(pid=5): component 5 is another MPI rank's (this
 *     rank holds [0, 4)); call bspram_machine_gather_local after the run to
 *     read every component's", exit status 1; m NULL: "bspram: bspram_machine_local(m=NULL): m
 *     must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
void *bspram_machine_local(bspram_machine *m, uint64_t pid);

/* ---- records ---- */

/* The label of the records of supersteps run from now on (default
 * "superstep").
 *
 * @param m       the machine; not NULL
 * @param label   the label, copied; at most BSPRAM_LABEL_LEN − 1 = 31 bytes
 *                are kept (the rest is dropped silently); NULL is the
 *                empty label
 * @pre           No run of m is in progress.
 * @par Errors
 *     m NULL: "bspram: bspram_machine_set_label(m=NULL): m must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
void bspram_machine_set_label(bspram_machine *m, const char *label);

/* The log of every superstep run since create or the last
 * bspram_machine_clear_records, completed (the last record's receive side
 * is folded in first).
 *
 * Over MPI every rank has every record.
 *
 * @param m       the machine; not NULL
 * @param n       receives the number of records; not NULL
 * @return        the records, in superstep order (NULL or any pointer when
 *                *n = 0), valid until the next run, clear or destroy
 * @pre           No run of m is in progress.
 * @par Errors
 *     m or n NULL: "bspram: bspram_machine_records(n=NULL): n must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(T) to complete the last record.
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
const bspram_record *bspram_machine_records(bspram_machine *m, size_t *n);

/* Empty the log, and the kept message pattern with it (supersteps keep
 * their numbers).
 *
 * With BSPRAM_TRACE set (bsp/trace.h) the records go to the trace first:
 * the trace holds every superstep the machine ran, cleared or not.
 *
 * @param m       the machine; not NULL
 * @pre           No run of m is in progress.
 * @par Errors
 *     m NULL: "bspram: bspram_machine_clear_records(m=NULL): m must not be
 *     NULL", exit status 1. A trace file that cannot be written is reported
 *     on stderr in one line, not fatal ("bspram: BSPRAM_TRACE=t.csv: cannot
 *     write the trace: …").
 * @par BSP cost
 *     None: no superstep; O(records) of trace I/O when BSPRAM_TRACE is set.
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
void bspram_machine_clear_records(bspram_machine *m);

/* Keep (on = true) or stop keeping the message pattern (router/records.h,
 * bspram_flow) of the supersteps run from now on.
 *
 * BSPRAM_PATTERN=1 in the environment turns it on for every machine at
 * creation, so traces carry it (bsp/trace.h). The pattern is index-aligned
 * with bspram_machine_records and cleared with them. Over MPI every rank
 * calls it alike (as every machine call); each rank keeps its components'
 * part, put together when the pattern is read (bspram_machine_pattern, the
 * trace).
 *
 * @param m       the machine; not NULL
 * @param on      true to keep the pattern, false to stop
 * @pre           No run of m is in progress.
 * @par Errors
 *     m NULL: "bspram: bspram_machine_keep_pattern(m=NULL): m must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None now. While on: 40 bytes per (source, destination) pair that
 *     exchanged messages in a kept superstep, and the time to sort them.
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
void bspram_machine_keep_pattern(bspram_machine *m, bool on);

/* The message pattern kept so far, index-aligned with
 * bspram_machine_records (completed first).
 *
 * A record whose pattern was not kept has none (bspram_pattern_get
 * returns 0 for it). Over MPI every rank with lanes of m calls it alike:
 * the ranks' parts are put together, and every such rank gets the whole
 * pattern.
 *
 * @param m       the machine; not NULL
 * @return        the pattern, never NULL (empty if none was kept), valid
 *                until the next run, clear or destroy
 * @pre           No run of m is in progress.
 * @par Errors
 *     m NULL: "bspram: bspram_machine_pattern(m=NULL): m must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(T) to complete the last record; over MPI one
 *     MPI_Allgatherv of the flows and loads kept since the last call.
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
const bspram_pattern *bspram_machine_pattern(bspram_machine *m);

/* The BSP cost of the log: Σ_s (w_s + g·h_s + l) over its records, with g
 * and l from the config.
 *
 * @param m       the machine; not NULL
 * @return        the predicted cost, in w's unit (0 for an empty log)
 * @pre           No run of m is in progress.
 * @par Errors
 *     m NULL: "bspram: bspram_machine_predicted_cost(m=NULL): m must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(records).
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
double bspram_machine_predicted_cost(bspram_machine *m);

/* Write the log to path: JSON if the name ends in ".json", CSV otherwise
 * (the trace's format, bsp/trace.h).
 *
 * The file is written to a new file beside path and renamed over it once
 * whole: path holds its old contents or the whole log, never a log cut
 * short, and a failed write removes only that new file. A device, a FIFO,
 * a symbolic link (/dev/stdout) or a file with hard links is written in
 * place and never removed. Opening it never waits: a FIFO that no process
 * reads fails at once (ENXIO). Over MPI every rank that calls it writes
 * the file.
 *
 * @param m       the machine; not NULL
 * @param path    the file's name; not NULL
 * @return        0, or −1 with errno set (the file could not be opened or
 *                written)
 * @pre           No run of m is in progress.
 * @par Errors
 *     I/O errors are returned (−1, errno), not printed. m or path NULL:
 *     "bspram: bspram_machine_write_records(path=NULL): path must not be
 *     NULL", exit status 1.
 * @par BSP cost
 *     None: no superstep; O(records) of I/O.
 * @par Thread safety
 *     The host only: outside every run of m (not from one of its
 *     steps, nor while another thread runs it).
 */
int bspram_machine_write_records(bspram_machine *m, const char *path);

BSPRAM_END_DECLS
#endif
