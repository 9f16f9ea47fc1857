/* bspram — how a fatal error ends the job. Internal (not installed).
 *
 * On one machine, _exit ends every thread of the process at once (the
 * default). A transport whose lanes live in several processes (MPI ranks)
 * installs its own way to end them all (router/transport.h, `abort`); the
 * error line is printed before it is called. The setting is process-wide
 * because a fatal error is: whichever thread meets it ends everything. */
#ifndef BSPRAM_BASE_ABORT_H
#define BSPRAM_BASE_ABORT_H

/* Make fatal errors end the job with fn(status) (NULL: back to _exit).
 * fn must not return; if it does, _exit follows. */
void bspram__base_set_abort(void (*fn)(int status));

/* bspram__base_fatal's line, ending the job with `status` instead of
 * BSPRAM_EXIT_FAILURE: a program that exits inside a section keeps its own
 * exit status. */
_Noreturn void bspram__base_fatal_status(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
