/* bspram — the PRAM's state, shared by its files. Internal (not installed).
 *
 *   model.c      model names and their parsing
 *   machine.c    create / destroy / config, arrays, host access
 *   bulk.c       the bulk phases: gather, scatter, scatter-reduce, fetch-and-op
 *   step.c       per-VP and textbook steps: the callbacks on the lanes, bspram_vp_*
 *   violation.c  what each model watches, the fatal line and its call sites,
 *                report mode
 *   trace.c      steps and their costs from the router's records; statistics
 *                (the overhead, the weakest model, the degree hint's warning),
 *                the per-step trace and its CSV / JSON writer
 *   weakest.c    where the weakest model the run needed rose: the step, the
 *                cell, the VPs and the lines of the program
 *   run_report.c the run's statistics appended for a checker
 *                (BSPRAM_PRAM_REPORT), the page BSPRAM_PRAM_HTML asks for,
 *                and the end of a run that a violation stops
 *   record.c     a run step by step, and its page
 *
 * The host map (pram.h): VP i lives on component i div per, per = ceil(n/p).
 * Every phase of a step that touches memory is one combining batch run by the
 * lanes of one team (bspram__bsp_machine_team): the lane builds the requests of
 * its own components in VP order, all lanes run the batch together
 * (bspram__combine_team_parts), and the lane takes its own components'
 * answers back. So no lane ever writes what another lane reads, and the
 * requests of a component are exactly the engine's component order — which
 * is what makes the engine's PRIORITY rule (least component, then least
 * request index) the PRAM's "least VP id wins". */
#ifndef BSPRAM_PRAM_PRAM_INTERNAL_H
#define BSPRAM_PRAM_PRAM_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "combine/combine.h"
#include "pram/pram.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

/* Cells of an array: 64-bit words, so that every combining operation applies
 * (the engine's reductions need cells of 8 bytes). */
#define BSPRAM__PRAM_CELL_BYTES 8
/* Names are kept to 15 bytes (pram.h). */
#define BSPRAM__PRAM_NAME 16
/* Room for " at f.c:42 and g.c:57" in messages. */
#define BSPRAM__PRAM_SITE_TEXT 136
/* Room for "name[index]" in messages. */
#define BSPRAM__PRAM_CELL_TEXT 48
/* The machine's log is cleared (to BSPRAM_TRACE first) when it holds more
 * records than this, so that a long run keeps O(1) records in memory; each
 * step's figures are taken from the log before that. */
#define BSPRAM__PRAM_KEEP_RECORDS 4096

/* An array: a segment of the PRAM's address space. Its handle is the
 * segment number, so that a cell name (an address) gives its array back in
 * O(1) (violations name cells as "A[5]"). */
typedef struct pram_array {
    bool live;
    uint64_t cells;
    char name[BSPRAM__PRAM_NAME];
} pram_array;

/* The phase a step is in (pram.h: "a write phase not preceded by a gather
 * is a step without reads"). */
typedef enum { PHASE_NONE = 0, PHASE_READ = 1, PHASE_WRITE = 2 } pram_phase;

/* Where an access was written in the user's program (pram.h: the macros
 * bspram_vp_at and bspram_pram_at capture __FILE__ and __LINE__); file NULL:
 * not known (the function was called without its macro). */
typedef struct pram_site {
    const char *file;
    unsigned line;
} pram_site;

/* A violation kept in full (report mode), already spelled: the array may be
 * freed before the report is printed. */
typedef struct pram_violation {
    uint64_t step;
    unsigned what;      /* BSPRAM_WATCH_READS / WRITES / VALUES */
    uint32_t vp[2];
    char at[BSPRAM__PRAM_SITE_TEXT]; /* " at f.c:42" (violation.c), or "" */
    char cell[BSPRAM__PRAM_CELL_TEXT];
} pram_violation;

/* A rise of the weakest model the run needed (weakest.c): the model, the
 * first step that needed it and, where the requests were searched, the
 * cell, two VPs that needed it there and the lines of their accesses. */
typedef struct pram_need {
    bspram_pram_model model;
    uint64_t step;
    bool found;                      /* the cell and VPs below are known */
    uint32_t vp[2];                  /* vp[0] ≤ vp[1]; equal: one VP (two values or updates) */
    char at[BSPRAM__PRAM_SITE_TEXT]; /* " at f.c:42" (violation.c), or "" */
    char cell[BSPRAM__PRAM_CELL_TEXT];
} pram_need;

/* The rises a run can have: CREW, CRCW-common, CRCW-arbitrary, CRCW-combining. */
#define BSPRAM__PRAM_NEEDS 4

/* A lane's scratch for per-VP steps (step.c) and bulk phases (bulk.c: its
 * components' requests, exactly as many as the phase has): the requests its VPs issue,
 * the answers of their reads, and how many reads each VP issued. Reused
 * from step to step; only the lane touches it while a team runs. */
typedef struct pram_lane {
    bspram_request *rq;
    size_t nrq, caprq;
    pram_site *site;      /* per-VP steps: the site of each request in rq */
    size_t capsite;
    bspram_request *rq_reads; /* textbook steps: the read phase's requests, */
    size_t nrq_reads, caprq_reads; /* replayed in the write phase */
    uint64_t *res;        /* answers of the read phase, by request */
    size_t capres;
    uint32_t *nreads;     /* per VP of the lane's block (from its first VP) */
    size_t capnreads;
    /* A misuse met by this lane in a phase: its VPs (or slots) run in
     * increasing order, so the lane's first is its least; the host reports
     * the least lane's after the team (pram.h: the same error for any T). */
    bool failed;
    char error[320];
    uint64_t *saved;      /* textbook steps: a VP's registers, kept across the first run */
    size_t capsaved;
    /* per-VP steps: the handles the callbacks are given, one byte per VP of
     * the lane's block from its first VP handles_v0 (step.c: a handle's
     * address names its VP; only grown, so a kept one stays recognisable) */
    struct bspram_vp *handles;
    size_t caphandles;
    uint64_t handles_v0;
    struct own_write *own; /* EREW, CREW: a VP's many writes, sorted (machine.c) */
    size_t capown;
    jmp_buf out;          /* per-VP steps: back from the user's callback */
    char pad[64];         /* lanes' scratch on separate cache lines */
} pram_lane;

struct bspram_pram {
    bspram_pram_config cfg;
    uint64_t n, p, per;         /* per = ceil(n/p): VPs per component */
    bspram_machine *m;
    bspram_space *s;
    bspram_combiner *C;
    unsigned op;                /* CRCW_COMBINING: the write rule's operation */
    uint64_t *regs;             /* n × registers */

    pram_array *arrays;         /* by segment number; [0] unused */
    size_t narrays, caparrays;
    size_t live_arrays;

    /* buffers reused by every phase */
    bspram_batch_part *parts;   /* p entries */
    uint64_t *start;            /* per-VP steps: each component's first request in its lane's buffer */
    pram_lane *lanes;           /* T entries */
    unsigned nlanes;

    /* steps */
    uint64_t step;              /* the current (last begun) step, 1, 2, … */
    pram_phase phase;           /* what the current step has done */
    bspram_pram_step_record *trace;
    size_t ntrace, captrace;
    bspram_pram_stats stats;    /* weakest and weakest_step included (trace.c) */

    /* violations */
    bspram_conflict *conf;      /* the last batch's conflicts */
    size_t capconf;
    pram_site site;             /* the bulk call being run (bspram_pram_at) */
    bool warned_hint;           /* the degree hint's warning was given (trace.c) */
    bool per_vp;                /* the current phase is a per-VP one: sites by request */
    pram_violation kept[BSPRAM_PRAM_REPORT_KEEP];
    size_t nkept;

    /* bspram_pram_record: each phase's accesses (record.c), or NULL */
    struct bspram__pram_recorder *recorder;

    /* the weakest model's rises (weakest.c), in step order */
    pram_need needs[BSPRAM__PRAM_NEEDS];
    size_t nneeds;

    /* the run's statistics for a checker and its page (run_report.c) */
    uint64_t number;            /* the PRAM's number in the process: 0, 1, … in creation order */
    char *report_path;          /* BSPRAM_PRAM_REPORT when created, or NULL */
    char *html_path;            /* the page BSPRAM_PRAM_HTML asks of this PRAM, or NULL */
    bool fatal_pending;         /* a violation ends the run once its phase is recorded */
    bool fatal_later;           /* ... but later: a textbook step's read batch, whose reads
                                   the body's second run may prove wrong (step.c) */
    char fatal[512];            /* its line, without "bspram: " */
};

/* record.c: a phase that ended (trace.c), its requests still in P->parts;
 * and the recorder's end (bspram_pram_destroy). */
void bspram__pram_record_phase(bspram_pram *P, uint64_t step, bool is_read, uint64_t supersteps,
                               uint64_t charge, uint64_t violations);
void bspram__pram_record_free(bspram_pram *P);

/* The VPs [*v0, *v1) of component c (blocks of ceil(n/p), clipped at n). */
static inline void bspram__pram_vps(const bspram_pram *P, uint64_t c, uint64_t *v0, uint64_t *v1)
{
    uint64_t a = c * P->per;
    uint64_t b = a + P->per;
    if (a > P->n)
        a = P->n;
    if (b > P->n)
        b = P->n;
    *v0 = a;
    *v1 = b;
}

/* A lane that met a misuse: its components [lo, hi) issue nothing in the
 * batch, which still runs (a collective). */
static inline void bspram__pram_silent(bspram_pram *P, uint64_t lo, uint64_t hi)
{
    for (uint64_t c = lo; c < hi; c++) {
        P->parts[c] = (bspram_batch_part){.n = 0};
    }
}

/* After a team: the least lane's misuse, if any, ends the job — lanes hold
 * blocks of components in order, so it names the least VP or slot. */
static inline void bspram__pram_report_misuse(const bspram_pram *P)
{
    for (unsigned l = 0; l < P->nlanes; l++)
        if (P->lanes[l].failed)
            bspram__base_fatal("%s", P->lanes[l].error);
}

/* Whether `cell` names a cell of a live array (O(1)). */
static inline bool bspram__pram_cell_ok(const bspram_pram *P, uint64_t cell)
{
    uint64_t seg = cell >> BSPRAM_SEGMENT_SHIFT;
    return seg < P->narrays && P->arrays[seg].live &&
           (cell & (BSPRAM_SEGMENT_MAX_CELLS - 1)) < P->arrays[seg].cells;
}

/* step.c: the live PRAMs, among whose lanes a bspram_vp kept past its
 * callback is recognised (bspram_pram_create, bspram_pram_destroy). */
void bspram__pram_live_add(bspram_pram *P);
void bspram__pram_live_remove(bspram_pram *P);

/* machine.c */
/* The live array a, or a fatal error naming `call` and its arguments. */
const pram_array *bspram__pram_array(const bspram_pram *P, bspram_pram_array a, const char *call);
/* Fatal unless op is an operation of the PRAM's combiner. */
void bspram__pram_check_op(const bspram_pram *P, unsigned op, const char *call);
/* "A[5]" for a cell name (the array's name, or "#seg" if it has none). */
const char *bspram__pram_cell_text(const bspram_pram *P, uint64_t cell, char *buf, size_t len);
/* The request kind of the model's write rule. */
uint8_t bspram__pram_write_kind(const bspram_pram *P);
/* EREW and CREW: of one VP's writes to a cell in a step, its last in
 * program order counts (pram.h) — whatever the engine's arbitrary rule
 * picks among them, for every seed and thread count. */
bool bspram__pram_last_write_counts(const bspram_pram *P);
/* One VP's writes q[0..n) in program order: each earlier write to a cell
 * takes the value of the VP's last write there (the requests, their number
 * and the charge stay as issued). Up to 16 writes without a sort,
 * O(n log n) with L's scratch beyond. */
void bspram__pram_last_write(pram_lane *L, bspram_request *q, size_t n);

/* violation.c */
/* Set the combiner's watch for a read (is_read) or write phase of the model. */
void bspram__pram_watch(bspram_pram *P, bool is_read);
/* After a batch: read its conflicts; report mode counts and keeps them;
 * fatal mode keeps the first and marks the run to end (P->fatal_pending)
 * once the phase is recorded (bspram__pram_end_phase). Returns the number
 * of violations. */
uint64_t bspram__pram_conflicts(bspram_pram *P);
/* " at f.c:42 and g.c:57": the sites of the requests of VPs vp[0] and
 * vp[1] for `cell` in the phase just run, or "" if not known. Over MPI every
 * rank calls it alike. */
void bspram__pram_sites(bspram_pram *P, uint64_t cell, const uint32_t vp[2], char *buf, size_t len);

/* The i-th violation kept (i < P->nkept), spelled as bspram_pram_report
 * prints it. */
void bspram__pram_violation_text(const bspram_pram *P, size_t i, char *buf, size_t len);

/* weakest.c */
/* The phase just run (its requests still in P->parts) needed `model`, more
 * than the run had needed: keep the rise, and find its cell, VPs and sites
 * if they are wanted (a checker's report or a page) and the machine is not
 * spread over MPI ranks. */
void bspram__pram_note_need(bspram_pram *P, bspram_pram_model model, uint64_t step);
/* "VPs 17 and 40 both read cell A[5]": what a rise's cell saw. */
void bspram__pram_need_text(const pram_need *n, char *buf, size_t len);

/* run_report.c */
/* At create: BSPRAM_PRAM_REPORT and BSPRAM_PRAM_HTML, the PRAM's number. */
void bspram__pram_report_open(bspram_pram *P);
/* At destroy (ended = "destroy"), or at a fatal violation ("violation"):
 * the line for the checker and the page, each if asked; P stays whole. */
void bspram__pram_report_close(bspram_pram *P, const char *ended);
/* The end of a run stopped by a violation (P->fatal_pending): its line and
 * page, then the job ends with the violation's line, exit status 1. */
BSPRAM_NORETURN void bspram__pram_fatal_end(bspram_pram *P);

/* trace.c */
/* Begin a phase: a new step if `fresh` or unless this is the write phase
 * right after a read phase. Returns the step's trace record (valid until the
 * next step begins). */
bspram_pram_step_record *bspram__pram_begin_phase(bspram_pram *P, pram_phase phase, bool fresh);
/* End the step now (a per-VP step is whole: a later write phase is a new step). */
void bspram__pram_close_step(bspram_pram *P);
/* The requests the components issued in the last batch (over MPI: summed
 * over the ranks, every rank calling it alike). */
uint64_t bspram__pram_issued(const bspram_pram *P);
/* The number of records in the machine's log now (before a batch). */
size_t bspram__pram_log_mark(bspram_pram *P);
/* After a batch whose records start at `mark`: add its supersteps and charge
 * (from the router's records), its reads or writes, its ideal cost (twice
 * for a phase with answers: `answered`) and its violations to the step and
 * the statistics; clear the log if it has grown large. */
void bspram__pram_end_phase(bspram_pram *P, bspram_pram_step_record *rec, size_t mark,
                            bool is_read, bool answered, uint64_t issued, uint64_t violations);

#endif
