/* Fatal errors: one line, then the whole job ends (base/abort.h). */
#include "base/error.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/abort.h"
#include "base/number.h"

static _Atomic(void (*)(int)) abort_fn;

void bspram__base_set_abort(void (*fn)(int status)) { atomic_store(&abort_fn, fn); }

/* Set by the first fatal error: several threads may meet errors at once
 * (each lane checks its own block), but the job prints one line. */
static atomic_flag dying = ATOMIC_FLAG_INIT;

/* escape: the message quotes values a user gave (a file name, a label, a
 * basis): its control characters are written as escapes (base/number.h), so
 * that the error stays one line. bsp_abort's text is the program's own and
 * printed as it is. */
static _Noreturn void die_with(int status, const char *prefix, int escape, const char *fmt,
                               va_list ap)
{
    if (atomic_flag_test_and_set(&dying))
        for (;;)
            pause(); /* another thread is printing its line and ending the job */
    char line[2048], msg[2048];
    size_t n = (size_t)snprintf(line, sizeof line, "%s", prefix);
    if (escape) {
        int m = vsnprintf(msg, sizeof msg, fmt, ap);
        if (m > 0 && (size_t)m < sizeof msg && msg[m - 1] == '\n')
            msg[m - 1] = 0; /* the line's own end */
        if (m < 0)
            msg[0] = 0;
        bspram__base_escape_controls(line + n, sizeof line - n, msg);
        n += strlen(line + n);
    } else {
        int k = vsnprintf(line + n, sizeof line - n, fmt, ap);
        if (k < 0)
            k = 0;
        n += (size_t)k;
    }
    if (n > sizeof line - 2)
        n = sizeof line - 2;
    if (n == 0 || line[n - 1] != '\n')
        line[n++] = '\n';
    /* Keep the user's earlier output: flush stdout unless another thread holds
     * its lock (it may be blocked mid-printf; waiting for it could hang). */
    if (ftrylockfile(stdout) == 0) {
        fflush(stdout);
        funlockfile(stdout);
    }
    ssize_t off = 0;
    while ((size_t)off < n) {
        ssize_t w = write(STDERR_FILENO, line + off, n - (size_t)off);
        if (w <= 0)
            break;
        off += w;
    }
    void (*end)(int) = atomic_load(&abort_fn);
    if (end)
        end(status);
    _exit(status);
}

void bspram__base_vfatal(const char *fmt, va_list ap)
{
    BSPRAM_NONNULL(fmt);
    die_with(BSPRAM_EXIT_FAILURE, "bspram: ", 1, fmt, ap);
}

void bspram__base_vfatal_raw(const char *fmt, va_list ap)
{
    BSPRAM_NONNULL(fmt);
    die_with(BSPRAM_EXIT_FAILURE, "", 0, fmt, ap);
}

void bspram__base_fatal_status(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    die_with(status, "bspram: ", 1, fmt, ap);
}

void bspram__base_fatal(const char *fmt, ...)
{
    if (!fmt) /* BSPRAM_NONNULL's own way, without the call into itself */
        fmt = "bspram__base_fatal(fmt=NULL): fmt must not be NULL";
    va_list ap;
    va_start(ap, fmt);
    die_with(BSPRAM_EXIT_FAILURE, "bspram: ", 1, fmt, ap);
}

void *bspram__base_malloc(size_t size, const char *what)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        bspram__base_fatal("%s: out of memory allocating %zu bytes", what ? what : "an allocation", size);
    return p;
}

void *bspram__base_calloc(size_t n, size_t size, const char *what)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        bspram__base_fatal("%s: out of memory allocating %zu x %zu bytes",
                     what ? what : "an allocation", n, size);
    return p;
}

void *bspram__base_pages(size_t bytes, const char *what)
{
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
        bspram__base_fatal("%s: out of memory mapping %zu bytes", what ? what : "an allocation", bytes);
#ifdef MADV_NOHUGEPAGE
    /* Where transparent huge pages are always on, one write would bring in
     * 2 MiB: the point of these pages is that few of them are written. */
    madvise(p, bytes ? bytes : 1, MADV_NOHUGEPAGE);
#endif
    return p;
}

void bspram__base_pages_free(void *pages, size_t bytes)
{
    if (pages)
        munmap(pages, bytes ? bytes : 1);
}

void *bspram__base_realloc(void *ptr, size_t size, const char *what)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        bspram__base_fatal("%s: out of memory growing to %zu bytes", what ? what : "an allocation",
                     size);
    return p;
}
