/* The BSPRAM_TRACE sink: 200 machines into one CSV and one JSON file; after
 * every destroy the file is complete and valid and holds exactly the rows so
 * far, and the bytes written before are never written again (each destroy
 * appends only its own rows); concurrent destroys; a removed file starts
 * afresh; an unwritable file is reported in one line per machine, and the
 * program goes on; a machine whose rows do not fit (a full disk, made by a
 * file-size limit) is reported in one line and cut off again, the file
 * ending on the whole rows before it, and the next machine appends after
 * them; bspram_machine_write_records that fails so leaves the earlier file
 * whole. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bspram.h"
#include "check.h"

#define MACHINES 200
#define CSV_HEADER "machine,superstep,label,messages,bytes,q,r,charge,h_bytes,max_message,work,seconds,exchange_seconds,p,flows,loads\n"

/* Machines are numbered process-wide in order of creation; this test
 * creates all of its machines through new_machine, so it knows the numbers. */
static atomic_uint machines_created;

static bool ring_step(bspram_component *c, void *arg)
{
    (void)arg;
    uint64_t v = bspram_pid(c);
    bspram_send(c, (v + 1) % bspram_nprocs(c), &v, sizeof v);
    return true;
}

/* A machine on one thread that has run `supersteps` supersteps (0: no rows). */
static bspram_machine *new_machine(uint64_t supersteps)
{
    bspram_config cfg = bspram_config_default(3);
    cfg.threads = 1;
    bspram_machine *m = bspram_machine_create(&cfg);
    atomic_fetch_add(&machines_created, 1);
    bspram_machine_set_label(m, "traced");
    if (supersteps)
        bspram_machine_run(m, ring_step, NULL, supersteps);
    return m;
}

/* A growing string: the bytes the file should hold. */
typedef struct text {
    char *s;
    size_t n;
} text;

static void text_add(text *t, const char *s, size_t n)
{
    t->s = realloc(t->s, t->n + n + 1);
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = 0;
}

/* The whole file, NUL-terminated (NULL if it cannot be read). */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 4096)
            buf = realloc(buf, cap = 2 * cap + 4096);
        size_t k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

/* Overwrite one byte of the file in place (and of the expected text): a
 * sink that rewrote earlier bytes would undo it. */
static void mark(const char *path, text *expect, size_t offset, char c)
{
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0 && pwrite(fd, &c, 1, (off_t)offset) == 1);
    if (fd >= 0)
        close(fd);
    expect->s[offset] = c;
}

/* The CSV file read on its own terms: the header, then `rows` rows, each
 * machine's rows together with supersteps 0, 1, …; machine numbers in the
 * order `ids` lists them (NULL: any). */
static void check_csv(const char *buf, size_t rows, const unsigned *ids)
{
    const char *line = strchr(buf, '\n');
    CHECK(line && strncmp(buf + 1, &CSV_HEADER[1], sizeof CSV_HEADER - 2) == 0);
    if (!line)
        return;
    size_t got = 0, machines = 0;
    unsigned last = 0;
    unsigned long long next_step = 0;
    for (line++; *line; got++) {
        const char *end = strchr(line, '\n');
        unsigned id;
        unsigned long long step;
        CHECK(end != NULL && sscanf(line, "%u,%llu,traced,", &id, &step) == 2);
        if (!end)
            return;
        if (got == 0 || id != last) {
            CHECK_EQ_U64(step, 0);
            if (ids)
                CHECK_EQ_U64(id, ids[machines]);
            machines++;
        } else {
            CHECK_EQ_U64(step, next_step);
        }
        last = id;
        next_step = step + 1;
        line = end + 1;
    }
    CHECK_EQ_U64(got, rows);
}

/* The JSON file as an array: "[", elements one per line separated by
 * ",\n", "]"; each element one balanced object naming its machine. */
static void check_json(const char *buf, size_t len, size_t rows, const unsigned *ids)
{
    CHECK(len >= 4 && strncmp(buf, "[\n", 2) == 0 && strcmp(buf + len - 2, "]\n") == 0);
    if (len < 4)
        return;
    size_t got = 0, machines = 0;
    unsigned last = 0;
    for (const char *line = buf + 2; line < buf + len - 2; got++) {
        const char *end = strchr(line, '\n');
        CHECK(end != NULL);
        if (!end)
            return;
        int opens = 0, closes = 0;
        for (const char *c = line; c < end; c++) {
            opens += *c == '{';
            closes += *c == '}';
        }
        bool last_element = end + 1 == buf + len - 2;
        CHECK(opens == 1 && closes == 1 && strncmp(line, "  {", 3) == 0);
        CHECK(last_element ? end[-1] == '}' : end[-2] == '}' && end[-1] == ',');
        unsigned id;
        unsigned long long step;
        CHECK(sscanf(line, "  {\"machine\": %u, \"superstep\": %llu,", &id, &step) == 2);
        if (got == 0 || id != last) {
            if (ids)
                CHECK_EQ_U64(id, ids[machines]);
            machines++;
        }
        last = id;
        line = end + 1;
    }
    CHECK_EQ_U64(got, rows);
}

/* MACHINES machines traced into path one after another: machine k runs
 * k % 3 supersteps, so machines without rows (the first one among them)
 * are covered. */
static void many_machines(const char *path, int json)
{
    setenv("BSPRAM_TRACE", path, 1);
    remove(path);
    text body = {NULL, 0};
    int first = 1, marked = 0;
    size_t rows = 0, with_rows = 0;
    unsigned ids[MACHINES], row_ids[MACHINES]; /* all machines; those with rows */
    for (unsigned k = 0; k < MACHINES; k++) {
        ids[k] = machines_created;
        bspram_machine *m = new_machine(k % 3);
        size_t n;
        const bspram_record *rec = bspram_machine_records(m, &n);
        /* What today's formats make of this machine after the ones before. */
        char *buf;
        size_t blen;
        FILE *mem = open_memstream(&buf, &blen);
        if (json && k == 0)
            fputs("[\n", mem);
        bspram_log_view view = {.machine = ids[k], .p = 3, .records = rec, .n = n};
        if (json)
            bspram_records_write_json(mem, &view, &first);
        else
            bspram_records_write_csv(mem, &view, k == 0);
        fclose(mem);
        text_add(&body, buf, blen);
        free(buf);
        rows += n;
        if (n)
            row_ids[with_rows++] = ids[k];
        bspram_machine_destroy(m);

        const char *closing = !json ? "" : first ? "]\n" : "\n]\n";
        size_t len;
        char *got = slurp(path, &len);
        CHECK(got != NULL);
        if (!got)
            break;
        CHECK(len == body.n + strlen(closing) && memcmp(got, body.s, body.n) == 0 &&
              strcmp(got + body.n, closing) == 0);
        if (json)
            check_json(got, len, rows, row_ids);
        else
            check_csv(got, rows, row_ids);
        free(got);

        /* Once the file has a first row, change a byte of it for good. */
        if (!marked && !json) {
            mark(path, &body, 0, 'M'); /* "Machine,superstep,…" */
            marked = 1;
        } else if (!marked && json && rows) {
            const char *seconds = strstr(body.s, "\"seconds\": ");
            mark(path, &body, (size_t)(seconds - body.s) + strlen("\"seconds\": "), '7');
            marked = 1;
        }
    }
    CHECK_EQ_U64(ids[0] + MACHINES - 1, ids[MACHINES - 1]);
    free(body.s);
    remove(path);
    unsetenv("BSPRAM_TRACE");
}

/* Destroys from several threads at once take turns: each machine's rows
 * stay together and none is lost. */
#define THREADS 4
#define PER_THREAD 25

static void *destroyer(void *arg)
{
    (void)arg;
    for (int i = 0; i < PER_THREAD; i++)
        bspram_machine_destroy(new_machine(2));
    return NULL;
}

static void concurrent(const char *path)
{
    setenv("BSPRAM_TRACE", path, 1);
    remove(path);
    unsigned base = machines_created;
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, destroyer, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    size_t len;
    char *got = slurp(path, &len);
    CHECK(got != NULL);
    if (got) {
        check_csv(got, 2 * THREADS * PER_THREAD, NULL);
        /* Every machine exactly once (two rows each, superstep 0 first). */
        unsigned seen[THREADS * PER_THREAD] = {0};
        for (const char *line = strchr(got, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
            unsigned id;
            unsigned long long step;
            if (sscanf(line + 1, "%u,%llu,", &id, &step) == 2 && step == 0 && id >= base &&
                id < base + THREADS * PER_THREAD)
                seen[id - base]++;
        }
        for (unsigned i = 0; i < THREADS * PER_THREAD; i++)
            CHECK_EQ_U64(seen[i], 1);
    }
    free(got);
    remove(path);
    unsetenv("BSPRAM_TRACE");
}

/* A trace file removed between two machines is started again. */
static void removed(const char *path)
{
    setenv("BSPRAM_TRACE", path, 1);
    bspram_machine_destroy(new_machine(1));
    remove(path);
    unsigned id = machines_created;
    bspram_machine_destroy(new_machine(2));
    size_t len;
    char *got = slurp(path, &len);
    CHECK(got != NULL);
    if (got) {
        check_csv(got, 2, &id);
        CHECK(got[0] == 'm');
    }
    free(got);
    remove(path);
    unsetenv("BSPRAM_TRACE");
}

/* A file that cannot be written: one line per machine on stderr, nothing
 * fatal; an empty BSPRAM_TRACE traces nothing and says nothing. */
static void unwritable(const char *scratch)
{
    char path[128], expect[256];
    snprintf(path, sizeof path, "/nonexistent-bspram-%d/trace.csv", (int)getpid());
    snprintf(expect, sizeof expect, "bspram: BSPRAM_TRACE=%s: cannot write the trace: %s\n", path,
             strerror(ENOENT));
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int fd = open(scratch, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(saved >= 0 && fd >= 0);
    if (saved < 0 || fd < 0)
        return;
    dup2(fd, STDERR_FILENO);
    close(fd);
    setenv("BSPRAM_TRACE", path, 1);
    for (int i = 0; i < 3; i++)
        bspram_machine_destroy(new_machine((uint64_t)i));
    setenv("BSPRAM_TRACE", "", 1);
    bspram_machine_destroy(new_machine(1));
    unsetenv("BSPRAM_TRACE");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);

    size_t len;
    char *got = slurp(scratch, &len);
    CHECK(got != NULL);
    if (got) {
        size_t one = strlen(expect);
        CHECK_EQ_U64(len, 3 * one);
        for (int i = 0; i < 3 && len == 3 * one; i++)
            CHECK(strncmp(got + i * one, expect, one) == 0);
        if (len != 3 * one)
            fprintf(stderr, "stderr was:\n%s", got);
    }
    free(got);
    remove(scratch);
}

/* Writes past `bytes` fail (EFBIG, SIGXFSZ ignored), as on a full disk;
 * 0 restores the limit there was. */
static void file_limit(rlim_t bytes)
{
    static struct rlimit was;
    static int saved;
    if (!saved) {
        getrlimit(RLIMIT_FSIZE, &was);
        signal(SIGXFSZ, SIG_IGN);
        saved = 1;
    }
    struct rlimit r = {bytes ? bytes : was.rlim_cur, was.rlim_max};
    CHECK(setrlimit(RLIMIT_FSIZE, &r) == 0);
}

/* stderr into path until the returned descriptor is given back. */
static int stderr_to(const char *path)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(saved >= 0 && fd >= 0);
    dup2(fd, STDERR_FILENO);
    close(fd);
    return saved;
}

static void stderr_back(int saved)
{
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
}

/* A machine whose rows do not fit: one line, and the file as it was before
 * it — whole rows, ending as a complete file — then the next machine's rows
 * after those. Before, the file kept the rows up to the limit, the last
 * one cut short, until another machine's append wrote over it. */
static void cut_short(const char *path, int json, const char *errpath)
{
    setenv("BSPRAM_TRACE", path, 1);
    remove(path);
    unsigned ids[2];
    ids[0] = machines_created;
    bspram_machine_destroy(new_machine(2));
    size_t before_len;
    char *before = slurp(path, &before_len);
    CHECK(before != NULL);
    if (!before)
        return;
    int saved = stderr_to(errpath);
    file_limit(before_len + 100); /* some of the next machine's 40 rows */
    bspram_machine_destroy(new_machine(40));
    file_limit(0);
    stderr_back(saved);
    size_t len, elen;
    char *got = slurp(path, &len), *err = slurp(errpath, &elen);
    char expect[256];
    snprintf(expect, sizeof expect, "bspram: BSPRAM_TRACE=%s: cannot write the trace: %s\n", path,
             strerror(EFBIG));
    CHECK(err && !strcmp(err, expect));
    if (err && strcmp(err, expect))
        fprintf(stderr, "stderr was:\n%s", err);
    CHECK(got && len == before_len && !memcmp(got, before, len));
    free(got);
    free(err);
    ids[1] = machines_created;
    bspram_machine_destroy(new_machine(3));
    got = slurp(path, &len);
    CHECK(got && len > before_len && !memcmp(got, before, before_len - (json ? 3 : 0)));
    if (got && json)
        check_json(got, len, 5, ids);
    else if (got)
        check_csv(got, 5, ids);
    free(got);
    free(before);
    remove(path);
    remove(errpath);
    unsetenv("BSPRAM_TRACE");
}

/* bspram_machine_write_records that fails midway leaves the earlier file
 * whole (it truncated it, then wrote what fitted). */
static void records_cut_short(const char *path)
{
    FILE *f = fopen(path, "w");
    fputs("the earlier log\n", f);
    fclose(f);
    bspram_machine *m = new_machine(40);
    file_limit(200);
    errno = 0;
    CHECK(bspram_machine_write_records(m, path) == -1 && errno == EFBIG);
    file_limit(0);
    size_t len;
    char *got = slurp(path, &len);
    CHECK(got && !strcmp(got, "the earlier log\n"));
    free(got);
    CHECK(bspram_machine_write_records(m, path) == 0);
    got = slurp(path, &len);
    if (got)
        check_csv(got, 40, NULL);
    free(got);
    bspram_machine_destroy(m);
    remove(path);
}

int main(void)
{
    char csv[64], json[64], conc[64], gone[64], err[64];
    int pid = (int)getpid();
    snprintf(csv, sizeof csv, "/tmp/bspram-test-trace-%d.csv", pid);
    snprintf(json, sizeof json, "/tmp/bspram-test-trace-%d.json", pid);
    snprintf(conc, sizeof conc, "/tmp/bspram-test-trace-%d-threads.csv", pid);
    snprintf(gone, sizeof gone, "/tmp/bspram-test-trace-%d-gone.csv", pid);
    snprintf(err, sizeof err, "/tmp/bspram-test-trace-%d.stderr", pid);

    many_machines(csv, 0); /* the first machines of the process: 0 … 199 */
    many_machines(json, 1);
    concurrent(conc);
    removed(gone);
    unwritable(err);
    cut_short(csv, 0, err);
    cut_short(json, 1, err);
    records_cut_short(csv);
    return check_report("test_trace");
}
