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

/* What makes the file complete after the rows: JSON's closing bracket. */
static void write_closing(FILE *f, int json, int first)
{
    if (json)
        fputs(first ? "]\n" : "\n]\n", f);
}

/* fopen(path, "w"), or "r+" to append, that never blocks: O_NONBLOCK makes
 * opening a FIFO that no process reads fail at once (ENXIO) instead of
 * waiting for a reader, for ever at the end of the run. Once open, the
 * descriptor blocks again, so a pipe with a reader (BSPRAM_TRACE=/dev/stdout
 * into a pager) is written as any output is. */
static FILE *open_trace(const char *path, int append)
{
    int fd = open(path, (append ? O_RDWR : O_WRONLY | O_CREAT | O_TRUNC) | O_NONBLOCK | O_CLOEXEC |
                            O_NOCTTY, 0666);
    if (fd < 0)
        return NULL;
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0
                  ? fdopen(fd, append ? "r+" : "w")
                  : NULL;
    if (!f) {
        int err = errno;
        close(fd);
        errno = err;
    }
    return f;
}

int bspram__bsp_trace_write_file(const char *path, const bspram_log_view *log)
{
    BSPRAM_NONNULL(path);
    BSPRAM_NONNULL(log);
    FILE *f = open_trace(path, 0);
    if (!f)
        return -1;
    int json = is_json(path), first = 1;
    int rc = write_rows(f, json, 1, log, &first);
    write_closing(f, json, first);
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}

static atomic_uint next_id;

unsigned bspram__bsp_trace_next_id(void) { return atomic_fetch_add(&next_id, 1); }

/* The sink: the file it has started, and the length of its contents before
 * the closing (where the next machine's rows go). Each destroy writes only
 * its own rows, so M machines cost O(total rows) bytes of I/O, not O(M²).
 * Updated only after a fully successful append: a failed one (disk full) is
 * overwritten by the next, and the truncation below drops its leftovers. */
static pthread_mutex_t sink_lock = PTHREAD_MUTEX_INITIALIZER;
static char *sink_path;  /* NULL until a file has been started */
static long sink_end;    /* bytes before the closing */
static int sink_first;   /* JSON: no element written yet */

static int sink_append(const char *path, const bspram_log_view *log)
{
    /* A new name starts a new file; so does a file removed since. */
    int start = !sink_path || strcmp(sink_path, path) != 0;
    if (!start && sink_end < 0) {
        errno = ESPIPE; /* started on a pipe or terminal */
        return -1;
    }
    FILE *f = start ? NULL : open_trace(path, 1);
    if (!f && (start || errno == ENOENT)) {
        start = 1;
        f = open_trace(path, 0);
    }
    if (!f)
        return -1;
    int json = is_json(path), first = start ? 1 : sink_first;
    int rc = start ? 0 : fseek(f, sink_end, SEEK_SET);
    if (rc == 0)
        rc = write_rows(f, json, start, log, &first);
    /* −1 on a pipe: one machine can be traced to /dev/stdout; a second one
     * is then reported, as it cannot seek back over the closing. */
    long end = ftell(f);
    write_closing(f, json, first);
    if (rc == 0 && fflush(f) != 0)
        rc = -1;
    /* Cut anything beyond the closing, left by an earlier failed append (a
     * new file was emptied by fopen). */
    if (rc == 0 && !start && ftruncate(fileno(f), ftell(f)) != 0)
        rc = -1;
    if (fclose(f) != 0)
        rc = -1;
    if (rc != 0)
        return -1;
    if (start) {
        size_t len = strlen(path) + 1;
        free(sink_path);
        sink_path = memcpy(bspram__base_malloc(len, "BSPRAM_TRACE"), path, len);
    }
    sink_end = end;
    sink_first = first;
    return 0;
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
