/* The frame of the PRAM examples (examples/pram_*.c).
 *
 * Each example file holds one PRAM algorithm as a pram_example: its name,
 * the models it is correct on, and a run function that makes the input from
 * a seed, runs the algorithm on a PRAM (pram/pram.h), runs a plain
 * sequential reference of the same computation, and compares the two. The
 * same function serves three callers, so no algorithm is written twice:
 *   - the example's own program (its main calls pram_example_main);
 *   - `bspram pram --example NAME` (tools/cmd_pram.c, through the list in
 *     examples/pram/registry.c);
 *   - the benchmark bench/bench_pram.c (wall time beside the sequential code).
 */
#ifndef BSPRAM_EXAMPLES_PRAM_EXAMPLE_H
#define BSPRAM_EXAMPLES_PRAM_EXAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pram/pram.h"

/* What to run: the problem size, the machine, the model. */
typedef struct pram_example_params {
    uint64_t n;              /* problem size (the example says what n counts) */
    uint64_t seed;           /* the input and the PRAM's hashing */
    uint64_t p;              /* components; 0 = the PRAM's default, min(VPs, 4096) */
    int threads;             /* 0 = the PRAM's default */
    bspram_pram_model model;
    unsigned op;             /* CRCW-combining's write rule (config.op) */
    bool has_op;             /* op given (else the PRAM's default, sum:i64) */
    bspram_combine_options combine; /* the engine's options, if has_combine */
    bool has_combine;        /* else the PRAM's default: AUTO with the example's degree hint */
    const char *trace_path;  /* write the per-step trace there (bspram_pram_write_trace); NULL: no */
} pram_example_params;

/* What a run gives. */
typedef struct pram_example_result {
    bspram_pram_stats stats; /* bspram_pram_stats_of at the end */
    uint64_t vps, p;         /* the PRAM's n (virtual processors) and p */
    bool verified;           /* the PRAM's result equals the sequential reference's */
    double pram_seconds;     /* wall time of the PRAM's steps (not its set-up) */
    double setup_seconds;    /* wall time of create, alloc and load */
    double seq_seconds;      /* wall time of the sequential reference */
    char detail[200];        /* one phrase: the result, or what differs */
    char *report;            /* report mode: bspram_pram_report's text (malloc'd), else NULL */
    const char *trace_path;  /* prm->trace_path (set by pram_example_create) */
    int trace_errno;         /* writing the trace failed with this errno (0: written or not asked) */
} pram_example_result;

typedef struct pram_example {
    const char *name;        /* "prefix_sums": the program is pram_<name> */
    const char *title;       /* one line */
    const char *n_means;     /* what n counts, e.g. "list nodes" */
    unsigned models;         /* the models it is correct on: bits 1u << model */
    bspram_pram_model model; /* the default (the weakest it needs) */
    uint64_t min_n, max_n;   /* the sizes it takes */
    uint64_t small_n;        /* a size for quick runs (tests) */
    uint64_t (*vps)(uint64_t n); /* the PRAM's VPs for size n; NULL: n */
    void (*run)(const pram_example_params *prm, pram_example_result *res);
} pram_example;

#define PRAM_MODEL_BIT(m) (1u << (unsigned)(m))
/* Every model at least as strong as the one named. */
#define PRAM_MODELS_EREW_UP 0x3fu
#define PRAM_MODELS_CREW_UP 0x3eu
/* The concurrent-write models where equal concurrent writes give that value. */
#define PRAM_MODELS_CRCW_EQUAL \
    (PRAM_MODEL_BIT(BSPRAM_CRCW_COMMON) | PRAM_MODEL_BIT(BSPRAM_CRCW_ARBITRARY) | \
     PRAM_MODEL_BIT(BSPRAM_CRCW_PRIORITY))

/* ---- for the examples' run functions ---- */

/* A PRAM of `vps` virtual processors for these parameters (p, threads,
 * seed, model, op and the engine's options from prm; p = min(vps, 4096) if
 * prm->p is 0, min(prm->p, vps) otherwise), with `registers` registers per
 * VP and report mode as asked. Without prm->has_combine the engine runs
 * AUTO with `degree` as its hint: the concurrency most of the example's
 * steps have (combine.h; at p = 4096 one phase up to degree 8), 0 if
 * unknown. Records vps, p and the trace's path in res. */
bspram_pram *pram_example_create(const pram_example_params *prm, uint64_t vps, unsigned registers,
                                 bool report, uint64_t degree, pram_example_result *res);
/* Fill res->stats from P, write the trace if asked, then destroy P. */
void pram_example_finish(bspram_pram *P, pram_example_result *res);

/* The wall clock (seconds, monotonic). */
double pram_example_clock(void);
/* A uniform value in [0, bound) from (seed, i, stream): the inputs. */
uint64_t pram_example_random(uint64_t seed, uint64_t i, uint64_t stream, uint64_t bound);
/* The least power of two ≥ x (x ≥ 1), and its log2. */
uint64_t pram_example_pow2(uint64_t x);
unsigned pram_example_log2(uint64_t pow2);
/* A checked allocation of count 64-bit words (the program ends with one line
 * naming `what` if it fails). calloc'd: all 0. */
uint64_t *pram_example_words(uint64_t count, const char *what);

/* The exclusive prefix sums (scan) of cells [0, m) of array a, m a power of
 * two, in place on an EREW PRAM of at least m/2 VPs (max(m/2, 1)): the
 * balanced tree's up-sweep and down-sweep, 2·log2(m) + 1 steps; the total
 * goes to cell 0 of array `total`. Defined in examples/pram_prefix_sums.c;
 * used by the counting sort too. */
void pram_scan_exclusive(bspram_pram *P, bspram_pram_array a, uint64_t m, bspram_pram_array total);

/* ---- for the programs ---- */

/* The main of an example program: `pram_<name> [n] [seed] [p] [threads]`
 * (defaults: the example's small n, seed 1, the PRAM's p and T), every
 * number read strictly. Runs the example on its default model and prints
 * one line: the steps, work, charge and slowdown of bspram_pram_stats_of,
 * the detail, and "verified" or "MISMATCH" (the report first, in report
 * mode). Exit status 0 if verified, 1 on a mismatch, 2 on a bad argument. */
int pram_example_main(int argc, char **argv, const pram_example *ex);

/* Check n and the model against the example; 0, or −1 with one phrase in
 * err (e.g. "n 0 out of range [1, 65535]"). */
int pram_example_check(const pram_example *ex, const pram_example_params *prm, char *err, size_t len);
/* The number of VPs the example's PRAM has for size n. */
uint64_t pram_example_vps(const pram_example *ex, uint64_t n);
/* "EREW, CREW, ...": the models of the example (into buf). */
void pram_example_models_text(const pram_example *ex, char *buf, size_t len);

/* The list of all examples (examples/pram/registry.c: the tool and the
 * benchmark link it; a program does not). */
extern const pram_example *const pram_examples[];
extern const size_t pram_example_count;
/* The example of that name ('-' may stand for '_'); NULL if none. */
const pram_example *pram_example_find(const char *name);

#endif
