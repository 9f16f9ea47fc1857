/* bspram — fatal errors and checked allocation.
 *
 * Every misuse the library detects ends the same way:
 * one line on stderr, "bspram: <call>(<arguments>): <what is wrong>; <valid range>",
 * then the whole process exits with status 1. Exiting the process stops every
 * thread at once, so an error never leaves a process waiting in a barrier.
 */
#ifndef BSPRAM_BASE_ERROR_H
#define BSPRAM_BASE_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#include "base/api.h"


/* Exit status of every bspram fatal error and of bsp_abort. */
#define BSPRAM_EXIT_FAILURE 1

/* Print "bspram: " followed by the formatted message and a newline on stderr
 * (as one write; control characters in the message — a newline in a value
 * it quotes, say — are printed as escapes such as \n, so it stays one line),
 * flush what the program had buffered on stdout if that can be done without
 * blocking, and end the job with BSPRAM_EXIT_FAILURE (the whole process;
 * every process of a job spread over several). Safe to call from any
 * thread; if several threads fail at once, only the first prints. */
BSPRAM_NORETURN void bspram__base_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
BSPRAM_NORETURN void bspram__base_vfatal(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

/* Same, but without the "bspram: " prefix and with the message as it is
 * (bsp_abort prints the user's text). A NULL fmt, here as in bspram__base_fatal,
 * ends the job with the line "bspram: bspram__base_vfatal_raw(fmt=NULL): fmt must
 * not be NULL" (the internal functions' own argument checks, which only a
 * fault of the library reaches, name them). */
BSPRAM_NORETURN void bspram__base_vfatal_raw(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

/* malloc/calloc/realloc that never return NULL for a non-zero size: on failure
 * they call bspram__base_fatal naming `what` (NULL: the function's own name) and
 * the size asked for. bspram__base_realloc(NULL, …) allocates anew, as realloc. */
void *bspram__base_malloc(size_t size, const char *what);
void *bspram__base_calloc(size_t n, size_t size, const char *what);
void *bspram__base_realloc(void *ptr, size_t size, const char *what);

/* Zero-filled memory straight from the kernel (an anonymous private mapping,
 * not reserved against swap): a page costs memory only once it is written,
 * whatever malloc's mmap threshold has become. For tables indexed by
 * destination of which a run touches a few pages (the router's per-lane
 * outboxes: O(p) each, O(p x lanes) in all). Page-aligned; on failure
 * bspram__base_fatal naming `what` and the size. Free with
 * bspram__base_pages_free and the same size. */
void *bspram__base_pages(size_t bytes, const char *what);
void bspram__base_pages_free(void *pages, size_t bytes);

/* The library's check of a pointer argument that must not be NULL (the rule
 * of docs/limits.md: every public function refuses NULL where it needs a
 * pointer): one predictable branch, and if p is NULL one line naming the
 * call and the argument,
 *     bspram: bspram_combine(requests=NULL): requests must not be NULL
 * BSPRAM_NONNULL(p) names the function it stands in (__func__) and p as
 * written; BSPRAM_NONNULL_AS(call, name, p) names `call` and `name` (string
 * literals: the header's name of a parameter the source calls otherwise).
 * For the library's own sources (compiled with BSPRAM_BUILDING_LIBRARY). */
#ifdef BSPRAM_BUILDING_LIBRARY
#define BSPRAM_NONNULL_AS(call, name, p)                                                  \
    do {                                                                                  \
        if (__builtin_expect(!(p), 0))                                                    \
            bspram__base_fatal("%s(" name "=NULL): " name " must not be NULL", call);           \
    } while (0)
#define BSPRAM_NONNULL(p) BSPRAM_NONNULL_AS(__func__, #p, p)
#endif

#endif
