/* Reading back a trace that BSPRAM_TRACE wrote (bsp/trace.h): CSV or JSON,
 * our own format only, with the `p` and `flows` columns, machine by
 * machine — for `bspram models --trace`. */
#ifndef BSPRAM_TOOLS_TRACE_READ_H
#define BSPRAM_TOOLS_TRACE_READ_H

#include "router/records.h"

typedef struct trace_machine {
    unsigned id;
    uint64_t p;
    bspram_log log;
    bspram_pattern pattern; /* index-aligned with log */
} trace_machine;

typedef struct trace {
    trace_machine *machines;
    size_t n, cap;
} trace;

/* Read path (JSON if its name ends in ".json"). Returns 0, or −1 after one
 * line on stderr naming the command, file and line ("bspram models:
 * FILE:LINE: …"). */
int trace_read(const char *path, const char *command, trace *t);
void trace_free(trace *t);

#endif
