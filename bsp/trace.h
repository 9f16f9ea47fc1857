/* bspram — writing superstep logs to files, and the BSPRAM_TRACE sink.
 *
 * With BSPRAM_TRACE=path.csv (or .json) in the environment (read when each
 * machine is destroyed or clears its records; base/environment.h), every
 * machine adds its log to a process-wide trace when it is destroyed, and
 * before bspram_machine_clear_records drops it: the first append writes
 * the file whole — the CSV header, or JSON's "[", and the rows — to a new
 * file beside the path and renames it over the path (base/output.h: a
 * device, FIFO, symbolic link or hard-linked file is written in place,
 * never removed); each later one appends only its own rows. After every
 * append the file is complete and valid — CSV rows, or one JSON array
 * whose closing "]" the next append writes over — so a trace can be read
 * while the program runs or after it was killed; an append that fails
 * (a full disk) is cut off again, so the file ends on a whole row. Rows carry the machine's number (0, 1, … in order
 * of creation) and appear in the order of the appends: a machine's rows in
 * superstep order, those of a machine that clears its records in several
 * pieces, between which other machines' rows may come. Cost: O(the rows)
 * of I/O per append, one open and close of the file.
 *
 * A BSPRAM_TRACE naming another file than the last one (or a trace file
 * removed since) starts that file afresh. The file must be seekable to
 * take a second machine (a pipe such as /dev/stdout takes one). Opening it
 * never waits: a FIFO that no process reads is reported at once, not
 * waited on until someone does.
 *
 * NULL: a path or a log view of NULL is refused in one line naming the call
 * and the argument ("bspram__bsp_trace_add(log=NULL): log must not be NULL"),
 * exit status 1 (base/error.h, docs/limits.md).
 */
#ifndef BSPRAM_BSP_TRACE_H
#define BSPRAM_BSP_TRACE_H

#include <stddef.h>

#include "base/api.h"
#include "router/records.h"


/* Write records to path: JSON if the name ends in ".json", else CSV.
 * Returns 0, or −1 with errno set. */
int bspram__bsp_trace_write_file(const char *path, const bspram_log_view *log);

/* The next machine number (thread-safe). */
unsigned bspram__bsp_trace_next_id(void);

/* Append a machine's log to the BSPRAM_TRACE file, if that variable is set
 * (thread-safe: concurrent destroys take turns). A file that cannot be
 * written is reported on stderr in one line per machine, not fatal: tracing
 * never changes a program's outcome. */
void bspram__bsp_trace_add(const bspram_log_view *log);

#endif
