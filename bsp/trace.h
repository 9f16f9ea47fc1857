/* bspram — writing superstep logs to files, and the BSPRAM_TRACE sink.
 *
 * With BSPRAM_TRACE=path.csv (or .json) in the environment, every machine
 * adds its log to a process-wide trace when it is destroyed, and the file is
 * rewritten then with every log added so far (so it is complete after the
 * last machine is destroyed, e.g. at bsp_end). Rows carry the machine's
 * number (0, 1, … in order of creation).
 */
#ifndef BSPRAM_BSP_TRACE_H
#define BSPRAM_BSP_TRACE_H

#include <stddef.h>

#include "base/api.h"
#include "router/records.h"

BSPRAM_BEGIN_DECLS

/* Write records to path: JSON if the name ends in ".json", else CSV.
 * Returns 0, or −1 with errno set. */
int bspram_trace_write_file(const char *path, unsigned machine_id, const bspram_record *recs, size_t n);

/* The next machine number (thread-safe). */
unsigned bspram_trace_next_id(void);

/* Add a machine's log to the BSPRAM_TRACE file, if that variable is set.
 * A file that cannot be written is reported on stderr (once per machine),
 * not fatal: tracing never changes a program's outcome. */
void bspram_trace_add(unsigned machine_id, const bspram_record *recs, size_t n);

BSPRAM_END_DECLS
#endif
