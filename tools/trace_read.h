/* Reading back a trace that BSPRAM_TRACE wrote (bsp/trace.h): CSV or JSON,
 * our own format only, with the `p` and `flows` columns, machine by
 * machine — for `bspram prof` and `bspram models --trace`. */
#ifndef BSPRAM_TOOLS_TRACE_READ_H
#define BSPRAM_TOOLS_TRACE_READ_H

#include "router/records.h"

/* A trace is read only from a regular file (never a FIFO, a device or a
 * directory, which are refused without being read) of at most
 * TRACE_MAX_BYTES, and no line may be longer than TRACE_MAX_LINE (a row
 * carries its superstep's flows: 256 MiB holds an all-to-all of about
 * 3000 processes). docs/limits.md lists them. */
#define TRACE_MAX_BYTES ((uint64_t)1 << 30)
#define TRACE_MAX_LINE ((size_t)256 << 20)

typedef struct trace_machine {
    unsigned id;
    uint64_t p;
    bspram_log log;
    bspram_pattern pattern; /* index-aligned with log */
    /* Sums over the rows so far (messages, bytes, charge, h_bytes,
     * max_message, work; seconds): a row that would wrap one is refused,
     * so the commands' sums cannot. */
    uint64_t sum[6];
    double seconds;
} trace_machine;

typedef struct trace {
    trace_machine *machines;
    size_t n, cap;
} trace;

/* Read path (JSON if its name ends in ".json"). Every value is checked: a
 * whole number where the writer writes one (no sign, no overflow), p in
 * [1, 2^32 − 1] and the same on all of a machine's rows, q and r at most
 * the messages and the charge max(q, r), times finite and ≥ 0, flows
 * inside [0, p) in (src, dst) order whose messages and bytes add up to the
 * row's, no sum over a machine's rows past 2^64 − 1; an empty file, or one
 * without a superstep, is refused too. Returns 0, or −1 after one line on
 * stderr naming the command, the file and where the first problem is:
 * "bspram models: FILE:LINE:COLUMN: …" ("bspram models: FILE: …" for the
 * file as a whole). */
int trace_read(const char *path, const char *command, trace *t);
void trace_free(trace *t);

#endif
