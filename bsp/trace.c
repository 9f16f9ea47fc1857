/* Superstep logs to CSV/JSON files, and the process-wide BSPRAM_TRACE sink. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/environment.h"
#include "base/output.h"
#include "bsp/trace.h"

static int is_json(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && !strcmp(path + n - 5, ".json");
}

/* One machine's records at the stream's position, after the file's opening
 * (the CSV header, or JSON's "[") if `start`. *first: no JSON element has
 * been written to the file yet (JSON separates elements by ",\n"). */
static int write_rows(FILE *f, int json, int start, const bspram_log_view *log, int *first)
{
    if (json && start)
        fputs("[\n", f);
    return json ? bspram_records_write_json(f, log, first)
                : bspram_records_write_csv(f, log, start);
}

/* What makes the file complete after the rows: JSON's closing bracket
 * (after "\n" once an element is written); nothing for CSV. */
static const char *closing(int json, int first) { return !json ? "" : first ? "]\n" : "\n]\n"; }

static void write_closing(FILE *f, int json, int first) { fputs(closing(json, first), f); }

int bspram__bsp_trace_write_file(const char *path, const bspram_log_view *log)
{
    BSPRAM_NONNULL(path);
    BSPRAM_NONNULL(log);
    bspram_output out;
    if (bspram__base_output_open(&out, path) != 0)
        return -1;
    int json = is_json(path), first = 1;
    if (write_rows(out.f, json, 1, log, &first) != 0) {
        bspram__base_output_abandon(&out);
        return -1;
    }
    write_closing(out.f, json, first);
    return bspram__base_output_close(&out);
}

static atomic_uint next_id;

unsigned bspram__bsp_trace_next_id(void) { return atomic_fetch_add(&next_id, 1); }

/* The sink: the file it has started, and the length of its contents before
 * the closing (where the next machine's rows go). Each destroy writes only
 * its own rows, so M machines cost O(total rows) bytes of I/O, not O(M²).
 * Updated only after a fully successful append: a failed one (disk full) is
 * cut off again at once, so the file always ends on a whole row. */
static pthread_mutex_t sink_lock = PTHREAD_MUTEX_INITIALIZER;
static char *sink_path;  /* NULL until a file has been started */
static long sink_end;    /* bytes before the closing; −1: not a regular file */
static int sink_first;   /* JSON: no element written yet */

/* A new trace file, written whole as any output (base/output.h): the path
 * holds its old contents or the whole first piece. */
static int sink_start(const char *path, const bspram_log_view *log)
{
    bspram_output out;
    if (bspram__base_output_open(&out, path) != 0)
        return -1;
    int json = is_json(path), first = 1;
    if (write_rows(out.f, json, 1, log, &first) != 0) {
        bspram__base_output_abandon(&out);
        return -1;
    }
    write_closing(out.f, json, first);
    if (bspram__base_output_close(&out) != 0)
        return -1;
    /* Later rows go before the closing: a regular file only (a pipe such as
     * /dev/stdout takes one machine). */
    struct stat st;
    long end = stat(path, &st) == 0 && S_ISREG(st.st_mode)
                   ? (long)st.st_size - (long)strlen(closing(json, first))
                   : -1;
    size_t len = strlen(path) + 1;
    free(sink_path);
    sink_path = memcpy(bspram__base_malloc(len, "BSPRAM_TRACE"), path, len);
    sink_end = end;
    sink_first = first;
    return 0;
}

/* The rows of one more machine over the closing of the file started, and
 * the closing after them. A write that fails (a full disk) is cut off
 * again, and the closing put back: the file is as the last append left it,
 * whole rows only. Never waits: O_NONBLOCK makes opening a FIFO that no
 * process reads fail at once (ENXIO), and the descriptor blocks again once
 * open. */
static int sink_add(const char *path, const bspram_log_view *log)
{
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return -1;
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "r+") : NULL;
    int keep = f ? dup(fd) : -1; /* to cut a failed append back after fclose */
    if (!f || keep < 0) {
        int err = errno;
        if (f)
            fclose(f);
        else
            close(fd);
        errno = err;
        return -1;
    }
    int json = is_json(path), first = sink_first;
    int rc = fseek(f, sink_end, SEEK_SET);
    if (rc == 0)
        rc = write_rows(f, json, 0, log, &first);
    long end = rc == 0 ? ftell(f) : -1;
    write_closing(f, json, first);
    if (end < 0 || fflush(f) != 0 || ferror(f))
        rc = -1;
    /* Cut anything beyond the closing (the file may have been longer). */
    if (rc == 0 && ftruncate(fileno(f), ftell(f)) != 0)
        rc = -1;
    int err = errno;
    if (fclose(f) != 0 && rc == 0)
        rc = -1, err = errno;
    if (rc != 0) {
        const char *c = closing(json, sink_first);
        size_t n = strlen(c);
        /* Should this fail too, the readers refuse the row cut short. */
        if (ftruncate(keep, sink_end) == 0 && n)
            (void)!pwrite(keep, c, n, sink_end);
        close(keep);
        errno = err ? err : EIO;
        return -1;
    }
    close(keep);
    sink_end = end;
    sink_first = first;
    return 0;
}

static int sink_append(const char *path, const bspram_log_view *log)
{
    /* A new name starts a new file; so does a file removed since. */
    if (!sink_path || strcmp(sink_path, path) != 0)
        return sink_start(path, log);
    if (sink_end < 0) {
        errno = ESPIPE; /* started on a pipe or terminal */
        return -1;
    }
    if (sink_add(path, log) == 0)
        return 0;
    return errno == ENOENT ? sink_start(path, log) : -1;
}

void bspram__bsp_trace_add(const bspram_log_view *log)
{
    BSPRAM_NONNULL(log);
    const char *path = bspram__base_environment_read().trace;
    if (!path)
        return;
    pthread_mutex_lock(&sink_lock);
    errno = 0;
    if (sink_append(path, log) != 0) {
        int err = errno;
        struct stat st;
        fprintf(stderr, "bspram: BSPRAM_TRACE=%s: cannot write the trace: %s\n", path,
                err == ENXIO && stat(path, &st) == 0 && S_ISFIFO(st.st_mode)
                    ? "a FIFO that no process reads (not waited for)"
                : err ? strerror(err)
                      : "I/O error");
    }
    pthread_mutex_unlock(&sink_lock);
}
