/* bspram — the superstep records: the only source of cost figures.
 *
 * For every exchange the router records what Valiant
 * (§2) charges — a (q, r)-pattern costs max(q, r) — and what the BSP model
 * charges — g·h + l with h the byte h-relation — plus what Bruck et al. sum
 * for C2 (the largest single message). Collectives, combining and the PRAM
 * report their costs from these records, never from a separate formula.
 *
 * Every field except those named *seconds is a deterministic function of the
 * program and its seed: identical for any thread count.
 *
 * NULL: every pointer argument here is needed, except bspram_pattern_get's
 * pat (no pattern) and bspram_records_total's recs when n = 0; NULL is
 * refused in one line naming the call and the argument
 * ("bspram_log_append(rec=NULL): rec must not be NULL"), exit status 1
 * (base/error.h, docs/limits.md).
 */
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "router/records.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
#ifndef BSPRAM_ROUTER_RECORDS_H
#define BSPRAM_ROUTER_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/api.h"

BSPRAM_BEGIN_DECLS

#define BSPRAM_LABEL_LEN 32

typedef struct bspram_record {
    uint64_t superstep;   /* index of the exchange in the log, from 0 */
    char label[BSPRAM_LABEL_LEN]; /* what the layer above called it: "superstep",
                                     "bsp_sync", "combine:forward:2", … */
    uint64_t messages;    /* messages in total */
    uint64_t bytes;       /* payload bytes in total */
    uint64_t q;           /* most messages sent by one component */
    uint64_t r;           /* most messages received by one component */
    uint64_t charge;      /* max(q, r): Valiant's cost of the (q, r)-pattern */
    uint64_t h_bytes;     /* max over components of max(bytes out, bytes in) */
    uint64_t max_message; /* largest single payload, in bytes */
    uint64_t work;        /* w: max over components of the work they declared */
    double seconds;          /* wall time since the previous exchange ended */
    double exchange_seconds; /* wall time of the exchange itself, from lane 0's entry */
} bspram_record;

/* A growable log of records. */
typedef struct bspram_log {
    bspram_record *records;
    size_t n, cap;
} bspram_log;

/* Append a copy of rec to the log, growing it (from 2 MiB on, on
 * transparent huge pages where the kernel gives them).
 *
 * @param log     the log (zero-initialised before the first append); must
 *                not be NULL
 * @param rec     the record to copy; must not be NULL
 * @pre           None.
 * @par Errors
 *     "bspram: bspram_log_append(log=NULL): log must not be NULL" (and rec);
 *     no memory: "bspram: bspram_log_append: out of memory growing to …
 *     bytes" (or "…: out of memory (… bytes)" on huge pages). Exit status 1.
 * @par BSP cost
 *     None: local, O(1) amortised (a copy of the log when it grows).
 * @par Thread safety
 *     Any thread; one at a time per log.
 */
void bspram_log_append(bspram_log *log, const bspram_record *rec);

/* Free the log's records and reset it to empty (it may be appended to
 * again).
 *
 * @param log     the log; must not be NULL
 * @pre           No pointer into log->records is used afterwards.
 * @par Errors
 *     "bspram: bspram_log_free(log=NULL): log must not be NULL", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; one at a time per log.
 */
void bspram_log_free(bspram_log *log);

/* One superstep's messages from one component to another, as the records
 * count them: how many, their bytes (a record's `bytes` is the sum of its
 * flows' bytes) and the largest. Kept only on request (the message pattern:
 * bspram_machine_keep_pattern, bsp_model_keep_pattern), so that a run can be priced afterwards on
 * other architectures (models/model.h). */
typedef struct bspram_flow {
    uint64_t src, dst;
    uint64_t messages, bytes, largest;
} bspram_flow;

/* One component's load in one superstep, kept with the pattern: the work
 * it declared (bspram_work, BSPlib's bsp_work; the record's `work` is the
 * most of these) and the wall time its thread computed, from leaving the
 * previous exchange to entering this one. A BSPlib process has a thread of
 * its own; components that share a thread (the bulk machine with p > T)
 * share its time. */
typedef struct bspram_process_load {
    uint64_t work;
    double seconds;
} bspram_process_load;

/* The flows of a log's records, index for index: record i's are
 * flows[at[i].first .. at[i].first + at[i].count) if at[i].kept; records
 * whose pattern was not kept, and records past n, have none. Record i's
 * loads, one per component, are loads[at[i].load_first ..
 * at[i].load_first + at[i].load_count) (load_count 0: none kept). */
typedef struct bspram_pattern_slot {
    size_t first, count;
    int kept;
    size_t load_first, load_count;
} bspram_pattern_slot;
typedef struct bspram_pattern {
    bspram_flow *flows;
    size_t n_flows, cap_flows;
    bspram_pattern_slot *at;
    size_t n, cap;
    bspram_process_load *loads;
    size_t n_loads, cap_loads;
} bspram_pattern;

/* Make room for the `n` flows of record `record` (the index in the log;
 * records before it that were not kept are padded) and return where the
 * caller writes them, sorted by source, then destination.
 *
 * @param pat     the pattern (zero-initialised before the first append);
 *                must not be NULL
 * @param record  the record's index in its log, at least the pattern's n
 *                so far
 * @param n       the number of flows the caller will write
 * @return        room for n flows, valid until the next append or free
 * @pre           Records are appended in increasing order of index.
 * @par Errors
 *     "bspram: bspram_pattern_append(pat=NULL): pat must not be NULL"; no
 *     memory: "bspram: bspram_pattern_append: out of memory growing to …
 *     bytes". Exit status 1.
 * @par BSP cost
 *     None: local, O(n + records padded) amortised.
 * @par Thread safety
 *     Any thread; one at a time per pattern.
 */
bspram_flow *bspram_pattern_append(bspram_pattern *pat, size_t record, size_t n);

/* Record `record`'s flows, if its pattern was kept.
 *
 * @param pat     the pattern; NULL: none kept
 * @param record  the record's index
 * @param flows   set to the record's flows (NULL if none); must not be NULL
 * @param n       set to their number (0 if none); must not be NULL
 * @return        1 if the record's pattern was kept, else 0
 * @pre           None.
 * @par Errors
 *     "bspram: bspram_pattern_get(flows=NULL): flows must not be NULL" (and
 *     n), exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not during an append to the same pattern.
 */
int bspram_pattern_get(const bspram_pattern *pat, size_t record, const bspram_flow **flows,
                       size_t *n);

/* Make room for the `n` loads (one per component, in component order) of
 * record `record`, whose flows were appended last, and return where the
 * caller writes them.
 *
 * @param pat     the pattern; must not be NULL
 * @param record  the record whose flows bspram_pattern_append made room
 *                for last (pat->n − 1)
 * @param n       the number of loads: the machine's p
 * @return        room for n loads, valid until the next append or free
 * @pre           The record's loads were not appended before.
 * @par Errors
 *     "bspram: bspram_pattern_append_loads(pat=NULL): pat must not be
 *     NULL"; another record than the last one appended, or its loads
 *     appended twice: "bspram: bspram_pattern_append_loads(record=…): the
 *     pattern's last record is …"; no memory: "bspram:
 *     bspram_pattern_append_loads: out of memory growing to … bytes". Exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(n) amortised.
 * @par Thread safety
 *     Any thread; one at a time per pattern.
 */
bspram_process_load *bspram_pattern_append_loads(bspram_pattern *pat, size_t record, size_t n);

/* Record `record`'s loads (bspram_process_load), if they were kept.
 *
 * @param pat     the pattern; NULL: none kept
 * @param record  the record's index
 * @param loads   set to the record's loads, one per component (NULL if
 *                none); must not be NULL
 * @param n       set to their number, p (0 if none); must not be NULL
 * @return        1 if the record's loads were kept, else 0
 * @pre           None.
 * @par Errors
 *     "bspram: bspram_pattern_loads(loads=NULL): loads must not be NULL"
 *     (and n), exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not during an append to the same pattern.
 */
int bspram_pattern_loads(const bspram_pattern *pat, size_t record, const bspram_process_load **loads,
                         size_t *n);

/* Free the pattern's flows and reset it to empty.
 *
 * @param pat     the pattern; must not be NULL
 * @pre           No pointer into its flows is used afterwards.
 * @par Errors
 *     "bspram: bspram_pattern_free(pat=NULL): pat must not be NULL", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; one at a time per pattern.
 */
void bspram_pattern_free(bspram_pattern *pat);

/* Sums over a range of records [first, first+n): supersteps that moved at
 * least one message (Bruck's C1), Σ charge, Σ h_bytes, Σ max_message (C2). */
typedef struct bspram_totals {
    uint64_t supersteps;           /* records in the range */
    uint64_t communicating;        /* records with messages > 0 */
    uint64_t messages, bytes;
    uint64_t charge;               /* Σ max(q, r) */
    uint64_t h_bytes;              /* Σ h */
    uint64_t max_message;          /* Σ largest message */
    uint64_t work;                 /* Σ w */
    double seconds;
} bspram_totals;

/* The sums over the records recs[0..n) (see bspram_totals).
 *
 * @param recs    the records; NULL only with n = 0
 * @param n       the number of records
 * @return        the totals (all 0 for n = 0)
 * @pre           None.
 * @par Errors
 *     recs NULL with n > 0: "bspram: bspram_records_total(recs=NULL): recs
 *     must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(n).
 * @par Thread safety
 *     Any thread.
 */
bspram_totals bspram_records_total(const bspram_record *recs, size_t n);

/* One machine's log as the writers see it: its number, its p, its records
 * and their pattern (NULL, or index-aligned with records: record i's flows
 * are pattern record i's). */
typedef struct bspram_log_view {
    unsigned machine;
    uint64_t p;
    const bspram_record *records;
    size_t n;
    const bspram_pattern *pattern;
} bspram_log_view;

/* Write a log's records as CSV rows, after a header line if `header`,
 * each with a leading `machine` field. The columns are the record's fields
 * in the order of bspram_record, then `p` and `flows`: the superstep's
 * message pattern if it was kept — `-` if not, else space-separated
 * src:dst:messages:bytes:largest entries (an empty field: no message). A
 * label may hold any bytes: it is quoted when it holds a comma, a quote or a
 * control character (RFC 4180: in double quotes, a quote doubled).
 *
 * @param f       the stream written; must not be NULL
 * @param log     the log and its machine's number and p; must not be NULL
 * @param header  non-zero: write the header line first
 * @return        0, or −1 (errno set) on an I/O error of f
 * @pre           log's records (and pattern, if not NULL) are valid.
 * @par Errors
 *     "bspram: bspram_records_write_csv(f=NULL): f must not be NULL" (and
 *     log), exit status 1; an I/O error is the −1 above.
 * @par BSP cost
 *     None: local, O(records + flows) work and output.
 * @par Thread safety
 *     Any thread; one at a time per stream.
 */
int bspram_records_write_csv(FILE *f, const bspram_log_view *log, int header);

/* Write a log's records as JSON objects, elements of an array whose
 * brackets the caller writes, each with a leading `machine` key. The keys
 * are the record's fields in the order of bspram_record, then `p` and
 * `flows`: null, or an array of [src, dst, messages, bytes, largest]
 * arrays. A label may hold any bytes: the quote, the backslash and every
 * control character are escaped (`\n`, `\t`, …, `\u00XX`); other bytes are
 * written as they are, so a label that is not UTF-8 is not valid JSON text.
 *
 * @param f       the stream written; must not be NULL
 * @param log     the log and its machine's number and p; must not be NULL
 * @param first   1 before the first element of the array, cleared once an
 *                element is written (the separators follow it); must not be
 *                NULL
 * @return        0, or −1 (errno set) on an I/O error of f
 * @pre           log's records (and pattern, if not NULL) are valid.
 * @par Errors
 *     "bspram: bspram_records_write_json(f=NULL): f must not be NULL" (and
 *     log, first), exit status 1; an I/O error is the −1 above.
 * @par BSP cost
 *     None: local, O(records + flows) work and output.
 * @par Thread safety
 *     Any thread; one at a time per stream.
 */
int bspram_records_write_json(FILE *f, const bspram_log_view *log, int *first);

BSPRAM_END_DECLS
#endif
