/* A run's statistics for a checker, and its page, asked for by the
 * environment (pram.h, "Checking a run"; docs/environment.md):
 *
 *   BSPRAM_PRAM_REPORT=FILE  every PRAM appends one line of JSON to FILE
 *                            when it is destroyed, or when a violation
 *                            ends its run: the model, n and p, steps, work,
 *                            supersteps, charge, violations, the weakest
 *                            model the run needed and where each rise of it
 *                            happened, the first violation.
 *   BSPRAM_PRAM_HTML=F.html  every PRAM records its run and writes its page
 *                            then (bspram_pram_write_html): the first PRAM
 *                            of the process F.html, the k-th F-k.html.
 *
 * `bspram pram check` sets both and judges a student's program from these
 * lines alone (and its exit status), never from what the program prints.
 * The figures are those of bspram_pram_stats_of — the charge read from the
 * router's records — so a line is the same for any thread count. A line is
 * one write(2) to a file opened with O_APPEND: lines of PRAMs that end at
 * once, in threads or processes, never interleave, and a file the library
 * did not create is never truncated. A FIFO without a reader is not waited
 * for. A line that cannot be written is one warning on stderr; the program
 * goes on, as with BSPRAM_TRACE. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/environment.h"
#include "base/error.h"
#include "pram/pram_internal.h"

/* PRAMs created in this process: each one's number, in creation order. */
static atomic_uint_fast64_t created;

/* The page of PRAM number k (0, 1, …): the name for the first, "-k" (k ≥ 2,
 * counting from 1) before its ".html" for the others. */
static char *page_name(const char *path, uint64_t number)
{
    size_t len = strlen(path) + 24;
    char *name = bspram__base_malloc(len, "BSPRAM_PRAM_HTML");
    if (number == 0) {
        snprintf(name, len, "%s", path);
        return name;
    }
    size_t stem = strlen(path);
    if (stem >= 5 && !strcasecmp(path + stem - 5, ".html"))
        stem -= 5;
    snprintf(name, len, "%.*s-%" PRIu64 "%s", (int)stem, path, number + 1, path + stem);
    return name;
}

static char *copy(const char *s)
{
    size_t len = strlen(s) + 1;
    return memcpy(bspram__base_malloc(len, "BSPRAM_PRAM_REPORT"), s, len);
}

void bspram__pram_report_open(bspram_pram *P)
{
    bspram_environment e = bspram__base_environment_read();
    P->number = atomic_fetch_add(&created, 1);
    if (e.pram_report)
        P->report_path = copy(e.pram_report);
    /* The accesses are recorded on one process (bspram_pram_record). */
    if (e.pram_html && bspram_ranks() == 1) {
        P->html_path = page_name(e.pram_html, P->number);
        bspram_pram_record(P, true);
    }
}

/* ---- the line ---- */

typedef struct line {
    char buf[8192];
    size_t len;
} line;

static void put(line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->buf + l->len, sizeof l->buf - l->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n < sizeof l->buf - l->len ? (size_t)n : sizeof l->buf - 1 - l->len;
}

/* s as a JSON string; NULL or "" as null when `empty_null`. */
static void put_string(line *l, const char *s, bool empty_null)
{
    if (!s || (empty_null && !*s)) {
        put(l, "null");
        return;
    }
    put(l, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            put(l, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            put(l, "\\u%04x", c);
        else
            put(l, "%c", c);
    }
    put(l, "\"");
}

/* " at f.c:42" as "f.c:42". */
static const char *site(const char *at) { return strncmp(at, " at ", 4) ? at : at + 4; }

static void make_line(const bspram_pram *P, const char *ended, line *l)
{
    const bspram_pram_stats s = bspram_pram_stats_of(P);
    l->len = 0;
    put(l, "{\"pram\":%" PRIu64 ",\"model\":", P->number);
    put_string(l, bspram_pram_model_name(P->cfg.model), false);
    if (P->cfg.model == BSPRAM_CRCW_COMBINING) {
        put(l, ",\"op\":");
        put_string(l, bspram_op_name(P->op), false);
    }
    put(l, ",\"n\":%" PRIu64 ",\"p\":%" PRIu64 ",\"steps\":%" PRIu64 ",\"work\":%" PRIu64
           ",\"supersteps\":%" PRIu64 ",\"charge\":%" PRIu64 ",\"violations\":%" PRIu64 ",\"weakest\":",
        P->n, P->p, s.steps, s.work, s.supersteps, s.charge, s.violations);
    put_string(l, bspram_pram_model_name(s.weakest), false);
    put(l, ",\"weakest_step\":%" PRIu64 ",\"needs\":[", s.weakest_step);
    for (size_t i = 0; i < P->nneeds; i++) {
        const pram_need *n = &P->needs[i];
        char what[BSPRAM__PRAM_CELL_TEXT + 96];
        bspram__pram_need_text(n, what, sizeof what);
        put(l, "%s{\"model\":", i ? "," : "");
        put_string(l, bspram_pram_model_name(n->model), false);
        put(l, ",\"step\":%" PRIu64 ",\"at\":", n->step);
        put_string(l, site(n->at), true);
        put(l, ",\"what\":");
        put_string(l, what, true);
        put(l, "}");
    }
    put(l, "],\"violation\":");
    if (P->nkept) {
        char v[512];
        bspram__pram_violation_text(P, 0, v, sizeof v);
        put_string(l, v, false);
    } else {
        put(l, "null");
    }
    put(l, ",\"ended\":");
    put_string(l, ended, false);
    put(l, "}\n");
}

/* Append the line with one write; 0, or −1 with errno. */
static int append(const char *path, const line *l)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < l->len) {
        ssize_t w = write(fd, l->buf + done, l->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int err = w < 0 ? errno : EIO;
            close(fd);
            errno = err;
            return -1;
        }
        done += (size_t)w;
    }
    return close(fd);
}

void bspram__pram_report_close(bspram_pram *P, const char *ended)
{
    if (P->report_path && bspram_rank() == 0) {
        line l;
        make_line(P, ended, &l);
        errno = 0;
        if (append(P->report_path, &l) != 0) {
            int err = errno;
            struct stat st;
            fprintf(stderr, "bspram: BSPRAM_PRAM_REPORT=%s: cannot append the PRAM's statistics: %s\n",
                    P->report_path,
                    err == ENXIO && stat(P->report_path, &st) == 0 && S_ISFIFO(st.st_mode)
                        ? "a FIFO that no process reads (not waited for)"
                    : err ? strerror(err)
                          : "I/O error");
        }
    }
    if (P->html_path && P->recorder && bspram_pram_write_html(P, P->html_path) != 0)
        fprintf(stderr, "bspram: BSPRAM_PRAM_HTML: cannot write %s: %s\n", P->html_path, strerror(errno));
}

void bspram__pram_fatal_end(bspram_pram *P)
{
    bspram__pram_report_close(P, "violation");
    if (bspram_rank() != 0) /* over MPI every rank found it: rank 0 reports it */
        for (;;)
            pause();
    bspram__base_fatal("%s", P->fatal);
}
