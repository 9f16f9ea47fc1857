/* bspram — Valiant's experiment (§4): performance factor against degree.
 *
 * Patterns (§4): degree d means v/d addresses with d requests each; every
 * component issues q = v/p requests, to q distinct addresses. Here request
 * slot s of component c is x = s·p + c and goes to cell x div d of one
 * hashed segment, with value x + 1 (a REDUCE sum:u64); for d ≤ p the d
 * requests of a cell come from d distinct components, and those of one
 * component go to distinct cells.
 *
 * A run draws a new hash function H (Valiant draws the h_i anew for every
 * pattern), runs the one-phase degree-1 pattern (the baseline, ≈ 54.4 at
 * p = 2^12, v = 2^17) and then every entry, on the same address space, and
 * checks every cell against a sequential fold of the pattern. The factor of
 * an entry is its mean total charge over the runs divided by the baseline's
 * mean charge; its phase factors are its mean phase charges divided by the
 * same; its spread is the standard deviation of the per-run ratio (a run's
 * charge over that run's baseline). All charges are the router's records.
 *
 * Deterministic: a pure function of (p, v, entries, runs, seed, hash kind,
 * spread), for any thread count.
 *
 * NULL: the space, requests, first, cfg, entries (when n > 0) and baseline
 * must not be NULL; NULL is refused in one line naming the call and the
 * argument, exit status 1 (docs/limits.md). bspram_pattern_check's err may
 * be NULL (no reason wanted).
 */
#ifndef BSPRAM_COMBINE_EXPERIMENT_H
#define BSPRAM_COMBINE_EXPERIMENT_H

#include <stdint.h>

#include "base/api.h"
#include "combine/combine.h"

BSPRAM_BEGIN_DECLS

typedef struct bspram_table_entry {
    /* input */
    char basis_text[BSPRAM_BASIS_TEXT_MAX]; /* "8x8x8x8", "4096", "auto", "auto:16", "adaptive" */
    bspram_strategy strategy;
    bspram_basis basis;           /* FIXED */
    uint64_t degree_hint;         /* AUTO: the hint; BSPRAM_TABLE_HINT_DEGREE = the row's degree */
    uint64_t degree;
    /* output */
    unsigned phases;
    double phase_charge[BSPRAM_MAX_PHASES + 2]; /* [1..phases], mean over runs */
    double total;                 /* mean total charge */
    double factor_sd;             /* the spread of the factor: the standard deviation over the
                                     runs of a run's total charge over its baseline's (0 for
                                     one run) */
    double ratio_sum, ratio_sum2; /* (work) that ratio's sum and sum of squares */
    char chosen[BSPRAM_BASIS_TEXT_MAX]; /* the basis run (AUTO/ADAPTIVE), formatted */
} bspram_table_entry;

#define BSPRAM_TABLE_HINT_DEGREE UINT64_MAX

typedef struct bspram_table_config {
    uint64_t p, v;
    uint64_t runs;
    uint64_t seed;
    int threads;
    bspram_spread spread;
    bspram_hash_kind hash;
    /* Called after every run (NULL: nothing), by one thread of each process
     * while the others wait: runs done and all runs. For a progress line. */
    void (*progress)(uint64_t done, uint64_t runs, void *ctx);
    void *progress_ctx;
} bspram_table_config;

/* Check (p, v, d) as a §4 pattern: returns 0, or −1 with a one-line reason
 * (v not a multiple of p, d = 0, d > p, d not dividing v). */
int bspram_pattern_check(uint64_t p, uint64_t v, uint64_t d, char *err, size_t err_len);

/* Fill requests[0..v) and first[0..p] with the degree-d pattern on segment
 * seg of s (kind = REDUCE sum:u64). The pattern must pass the check. */
void bspram_pattern_fill(const bspram_space *s, uint32_t seg, uint64_t p, uint64_t v, uint64_t d,
                         bspram_request *requests, uint64_t *first);

/* Run the experiment; fills the outputs of entries[0..n) and *baseline (the
 * mean one-phase degree-1 charge). Errors (fatal): a bad pattern; a cell
 * that differs from the sequential reference ("verification failed").
 * Cost: runs · (1 + n) batches of v requests. */
void bspram_table_run(const bspram_table_config *cfg, bspram_table_entry *entries, size_t n,
                      double *baseline);

BSPRAM_END_DECLS
#endif
