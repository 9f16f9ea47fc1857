/* Superstep logs to CSV/JSON files, and the process-wide BSPRAM_TRACE sink. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "bsp/trace.h"

static int is_json(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && !strcmp(path + n - 5, ".json");
}

typedef struct trace_part {
    unsigned machine;
    bspram_record *recs;
    size_t n;
} trace_part;

static int write_parts(const char *path, const trace_part *parts, size_t nparts)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = 0, json = is_json(path), first = 1;
    if (json)
        fputs("[\n", f);
    for (size_t i = 0; i < nparts && rc == 0; i++)
        rc = json ? bspram_records_write_json(f, parts[i].recs, parts[i].n, parts[i].machine, &first)
                  : bspram_records_write_csv(f, parts[i].recs, parts[i].n, parts[i].machine, i == 0);
    if (json)
        fputs(first ? "]\n" : "\n]\n", f);
    if (nparts == 0 && !json)
        rc = bspram_records_write_csv(f, NULL, 0, 0, 1);
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}

int bspram_trace_write_file(const char *path, unsigned machine_id, const bspram_record *recs, size_t n)
{
    trace_part part = {machine_id, (bspram_record *)recs, n};
    return write_parts(path, &part, 1);
}

static atomic_uint next_id;

unsigned bspram_trace_next_id(void) { return atomic_fetch_add(&next_id, 1); }

static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static trace_part *trace_parts;
static size_t trace_nparts;

void bspram_trace_add(unsigned machine_id, const bspram_record *recs, size_t n)
{
    const char *path = getenv("BSPRAM_TRACE");
    if (!path || !*path)
        return;
    pthread_mutex_lock(&trace_lock);
    trace_parts = bspram_realloc(trace_parts, (trace_nparts + 1) * sizeof *trace_parts, "BSPRAM_TRACE");
    trace_part *p = &trace_parts[trace_nparts++];
    p->machine = machine_id;
    p->n = n;
    p->recs = bspram_malloc(n * sizeof *recs, "BSPRAM_TRACE");
    if (n)
        memcpy(p->recs, recs, n * sizeof *recs);
    errno = 0;
    if (write_parts(path, trace_parts, trace_nparts) != 0) {
        int err = errno;
        fprintf(stderr, "bspram: BSPRAM_TRACE=%s: cannot write the trace: %s\n", path,
                err ? strerror(err) : "I/O error");
    }
    pthread_mutex_unlock(&trace_lock);
}
