/* A run's statistics for a checker (BSPRAM_PRAM_REPORT) and its page
 * (BSPRAM_PRAM_HTML), pram.h "Checking a run":
 *   - a run built so that its figures are known (steps, work, where it
 *     first needed CREW: which step, VPs, cell and line of this file) gives
 *     exactly the expected line; its charge and supersteps are the router's
 *     records' own (Σ max(q, r) over the machine's log), not a formula;
 *   - the same line for T = 1, 2, 4;
 *   - every rise of the weakest model named (reads, one value written
 *     twice, two values, one VP's two values, combining updates at a bulk
 *     call's line);
 *   - a violation in fatal mode still appends its line, ended "violation",
 *     then ends the run with the usual line and status 1; its page is written;
 *   - lines of processes ending at once never interleave (O_APPEND, one
 *     write each), an existing file is appended to, never truncated;
 *   - the pages: the first PRAM's name, then "-2", "-3";
 *   - a FIFO without a reader: one warning line, the run goes on. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bsp/machine.h"
#include "check.h"
#include "pram/pram.h"

enum { N = 64 };

static char dir[64];

/* The file's text (malloc'd), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
        n += k;
        if (n + 1 == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* Σ max(q, r) and the supersteps of the PRAM's machine's records: the
 * router's own figures. */
static void records_of(bspram_pram *P, uint64_t *charge, uint64_t *supersteps)
{
    size_t n;
    const bspram_record *r = bspram_machine_records(bspram_pram_machine(P), &n);
    *charge = 0;
    for (size_t i = 0; i < n; i++)
        *charge += r[i].q > r[i].r ? r[i].q : r[i].r;
    *supersteps = n;
}

/* ---- a run whose line is known ---- */

static bspram_pram_array A, B;
static unsigned shared_read_line; /* the line of the read of A[3] by VPs 5 and 9 */

static void reads(bspram_vp *vp, void *arg)
{
    (void)arg;
    uint64_t i = bspram_vp_id(vp);
    if (i == 0) /* one writer: VPs run on several threads at once */
        shared_read_line = __LINE__ + 1;
    bspram_vp_read(vp, A, i == 5 || i == 9 ? 3 : i == 3 ? 5 : i); /* A[9] unread */
}

static void writes(bspram_vp *vp, void *arg)
{
    (void)arg;
    bspram_vp_write(vp, B, bspram_vp_id(vp), bspram_vp_value(vp, 0) + 1);
}

/* Step 1: every VP gathers A[i] (exclusive); step 2: per VP, VPs 5 and 9
 * both read A[3] (CREW), every VP writes B[i]. Work 64 + 64 + 64. */
static void known_run(int threads, char *line, size_t len)
{
    bspram_pram_config c = bspram_pram_config_default(N, BSPRAM_CREW);
    c.p = 8;
    c.threads = threads;
    c.seed = 11;
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", N);
    B = bspram_pram_alloc(P, "B", N);
    uint64_t cells[N], out[N];
    for (uint64_t i = 0; i < N; i++)
        cells[i] = bspram_pram_cell(P, A, i);
    bspram_pram_gather(P, 1, cells, out);
    bspram_pram_step(P, reads, writes, NULL);
    uint64_t charge, supersteps;
    records_of(P, &charge, &supersteps);
    snprintf(line, len,
             "\"model\":\"CREW\",\"n\":64,\"p\":8,\"steps\":2,\"work\":192,\"supersteps\":%" PRIu64
             ",\"charge\":%" PRIu64 ",\"violations\":0,\"weakest\":\"CREW\",\"weakest_step\":2,\"needs\":["
             "{\"model\":\"CREW\",\"step\":2,\"at\":\"test_pram_run_report.c:%u\",\"what\":\"VPs 5 and 9 both "
             "read cell A[3]\"}],\"violation\":null,\"ended\":\"destroy\"}\n",
             supersteps, charge, shared_read_line);
    CHECK(supersteps > 0 && charge > 0);
    bspram_pram_destroy(P);
}

static void test_known_line(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/known.jsonl", dir);
    setenv("BSPRAM_PRAM_REPORT", path, 1);
    char want[3][1024];
    const int threads[3] = {1, 2, 4};
    for (int t = 0; t < 3; t++)
        known_run(threads[t], want[t], sizeof want[t]);
    unsetenv("BSPRAM_PRAM_REPORT");
    char *got = slurp(path);
    CHECK(got != NULL);
    if (!got)
        return;
    CHECK_EQ_U64(count_lines(got), 3);
    /* Each line: {"pram":K, then what the run makes known. */
    const char *at = got;
    for (int t = 0; t < 3 && at; t++) {
        const char *end = strchr(at, '\n');
        char *body = strchr(at, ',');
        int ok = !strncmp(at, "{\"pram\":", 8) && body && end && !strncmp(body + 1, want[t], strlen(want[t]));
        if (!ok)
            fprintf(stderr, "line %d:\n  %.*s\nwant (after the number):\n  %s", t, end ? (int)(end - at + 1) : 80,
                    at, want[t]);
        CHECK(ok);
        at = end ? end + 1 : NULL;
    }
    /* The same figures for T = 1, 2, 4 (the charge is the records' own). */
    CHECK(!strcmp(want[0], want[1]) && !strcmp(want[0], want[2]));
    free(got);
}

/* ---- every kind of rise, with its cell, VPs and line ---- */

static unsigned line_read, line_write_one, line_write_two, line_reduce;

static void rise_read(bspram_vp *vp, void *arg)
{
    (void)arg;
    uint64_t i = bspram_vp_id(vp);
    if (i == 0) /* one writer: VPs run on several threads at once */
        line_read = __LINE__ + 1;
    bspram_vp_read(vp, A, i == 12 || i == 40 ? 7 : i == 7 ? 12 : i);
}

/* Step 2: VPs 3 and 33 write 5 to B[2]; step 3: VP 4 writes 1 and 2 to B[9]. */
static void rise_write(bspram_vp *vp, void *arg)
{
    const int step = *(const int *)arg;
    uint64_t i = bspram_vp_id(vp);
    if (step == 2 && (i == 3 || i == 33)) {
        if (i == 3) /* one writer */
            line_write_one = __LINE__ + 1;
        bspram_vp_write(vp, B, 2, 5);
    } else if (step == 3 && i == 4) {
        line_write_two = __LINE__ + 1;
        bspram_vp_write(vp, B, 9, 1);
        bspram_vp_write(vp, B, 9, 2);
    } else if (step == 2) { /* the others write B[i], VP 2 B[3] */
        bspram_vp_write(vp, B, i == 2 ? 3 : i, i);
    } else if (step == 3) { /* the others write B[i], VP 9 B[4] */
        bspram_vp_write(vp, B, i == 9 ? 4 : i, i);
    }
}

static void test_rises(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/rises.jsonl", dir);
    setenv("BSPRAM_PRAM_REPORT", path, 1);
    bspram_pram_config c = bspram_pram_config_default(N, BSPRAM_CRCW_ARBITRARY);
    c.p = 8;
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", N);
    B = bspram_pram_alloc(P, "B", N);
    for (int step = 1; step <= 3; step++)
        bspram_pram_step(P, step == 1 ? rise_read : NULL, rise_write, &step);
    bspram_pram_destroy(P);

    /* Combining: VPs 0 and 1 add into S[0] in one bulk call. */
    c = bspram_pram_config_default(N, BSPRAM_CRCW_COMBINING);
    c.p = 8;
    P = bspram_pram_create(&c);
    bspram_pram_array S = bspram_pram_alloc(P, "S", N);
    uint64_t cells[N], vals[N];
    for (uint64_t i = 0; i < N; i++) {
        cells[i] = bspram_pram_cell(P, S, i < 2 ? 0 : i);
        vals[i] = i;
    }
    line_reduce = __LINE__ + 1;
    bspram_pram_scatter_reduce(P, 1, cells, vals, bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64));
    bspram_pram_destroy(P);
    unsetenv("BSPRAM_PRAM_REPORT");

    char want[1024], *got = slurp(path);
    CHECK(got && count_lines(got) == 2);
    snprintf(want, sizeof want,
             "\"needs\":[{\"model\":\"CREW\",\"step\":1,\"at\":\"test_pram_run_report.c:%u\",\"what\":\"VPs 12 "
             "and 40 both read cell A[7]\"},{\"model\":\"CRCW-common\",\"step\":2,\"at\":\"test_pram_run_report.c:"
             "%u\",\"what\":\"VPs 3 and 33 both write cell B[2]\"},{\"model\":\"CRCW-arbitrary\",\"step\":3,"
             "\"at\":\"test_pram_run_report.c:%u\",\"what\":\"VP 4 writes "
             "different values to cell B[9]\"}]",
             line_read, line_write_one, line_write_two);
    if (got && !strstr(got, want))
        fprintf(stderr, "rises: want %s in\n%s", want, got);
    CHECK(got && strstr(got, want));
    snprintf(want, sizeof want,
             "\"model\":\"CRCW-combining\",\"op\":\"sum:i64\",\"n\":64,\"p\":8,\"steps\":1,\"work\":64,");
    CHECK(got && strstr(got, want));
    snprintf(want, sizeof want,
             "\"needs\":[{\"model\":\"CRCW-combining\",\"step\":1,\"at\":\"test_pram_run_report.c:%u\","
             "\"what\":\"VPs 0 and 1 both update cell S[0]\"}]", line_reduce);
    if (got && !strstr(got, want))
        fprintf(stderr, "combining: want %s in\n%s", want, got);
    CHECK(got && strstr(got, want));
    free(got);
}

/* ---- a violation in fatal mode ---- */

/* The line of the read below (the child that runs it cannot tell us). */
enum { LINE_FATAL = __LINE__ + 5 };
static void fatal_read(bspram_vp *vp, void *arg)
{
    (void)arg;
    uint64_t i = bspram_vp_id(vp);
    bspram_vp_read(vp, B, i == 2 || i == 6 ? 1 : i == 1 ? 2 : i);
}

static void writes_only(bspram_vp *vp, void *arg)
{
    (void)arg;
    bspram_vp_write(vp, B, bspram_vp_id(vp), 1);
}

/* Step 1 writes B (64 writes); step 2's reads meet at B[1]: fatal on EREW. */
static void fatal_run(void *arg)
{
    (void)arg;
    bspram_pram_config c = bspram_pram_config_default(N, BSPRAM_EREW);
    c.p = 8;
    c.threads = 1; /* libgomp cannot start a team in a child forked after the parent's */
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", N);
    B = bspram_pram_alloc(P, "B", N);
    bspram_pram_step(P, NULL, writes_only, NULL);
    bspram_pram_step(P, fatal_read, NULL, NULL);
    bspram_pram_destroy(P);
}

static void test_fatal(void)
{
    char path[128], page[128], want[512];
    snprintf(path, sizeof path, "%s/fatal.jsonl", dir);
    snprintf(page, sizeof page, "%s/fatal.html", dir);
    setenv("BSPRAM_PRAM_REPORT", path, 1);
    setenv("BSPRAM_PRAM_HTML", page, 1);
    char violation[256];
    snprintf(violation, sizeof violation,
             "EREW violation in step 2 at test_pram_run_report.c:%d: VPs 2 and 6 both read cell B[1]", LINE_FATAL);
    snprintf(want, sizeof want, "bspram: %s\n", violation);
    check_death_status("fatal violation", fatal_run, NULL, violation, 1, 60, 1);
    unsetenv("BSPRAM_PRAM_REPORT");
    unsetenv("BSPRAM_PRAM_HTML");
    char *got = slurp(path);
    snprintf(want, sizeof want,
             "\"model\":\"EREW\",\"n\":64,\"p\":8,\"steps\":2,\"work\":128,");
    CHECK(got && count_lines(got) == 1 && strstr(got, want));
    snprintf(want, sizeof want,
             "\"violations\":1,\"weakest\":\"CREW\",\"weakest_step\":2,\"needs\":[{\"model\":\"CREW\","
             "\"step\":2,\"at\":\"test_pram_run_report.c:%d\",\"what\":\"VPs 2 and 6 both read cell B[1]\"}],"
             "\"violation\":\"%s\",\"ended\":\"violation\"}\n", LINE_FATAL, violation);
    if (got && !strstr(got, want))
        fprintf(stderr, "fatal: want %s in\n%s", want, got);
    CHECK(got && strstr(got, want));
    free(got);
    /* Its page, with the violation. */
    char *html = slurp(page);
    CHECK(html && strstr(html, "<!DOCTYPE html>") && strstr(html, "\"model\":\"EREW\"") &&
          strstr(html, "\"vps\":[2,6]"));
    free(html);
}

/* ---- concurrent appends, and an existing file ---- */

static void small_runs(int k)
{
    for (int r = 0; r < k; r++) {
        bspram_pram_config c = bspram_pram_config_default(16, BSPRAM_EREW);
        c.threads = 1;
        bspram_pram *P = bspram_pram_create(&c);
        bspram_pram_array X = bspram_pram_alloc(P, "X", 16);
        uint64_t cells[16], out[16];
        for (uint64_t i = 0; i < 16; i++)
            cells[i] = bspram_pram_cell(P, X, i);
        bspram_pram_gather(P, 1, cells, out);
        bspram_pram_destroy(P);
    }
}

static void test_concurrent(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/many.jsonl", dir);
    FILE *f = fopen(path, "w");
    CHECK(f && fputs("kept\n", f) >= 0 && fclose(f) == 0);
    setenv("BSPRAM_PRAM_REPORT", path, 1);
    enum { CHILDREN = 4, RUNS = 25 };
    pid_t pid[CHILDREN];
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < CHILDREN; k++)
        if ((pid[k] = fork()) == 0) {
            small_runs(RUNS);
            _exit(0);
        }
    for (int k = 0; k < CHILDREN; k++) {
        int status = 0;
        waitpid(pid[k], &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    unsetenv("BSPRAM_PRAM_REPORT");
    char *got = slurp(path);
    CHECK(got && !strncmp(got, "kept\n", 5));
    CHECK_EQ_U64(count_lines(got), 1 + CHILDREN * RUNS);
    /* Every line whole: {"pram":K,... ,"ended":"destroy"}; each K CHILDREN times. */
    unsigned seen[RUNS] = {0};
    int whole = 1;
    for (char *l = got ? strchr(got, '\n') + 1 : NULL; l && *l;) {
        char *end = strchr(l, '\n');
        unsigned k;
        if (!end || sscanf(l, "{\"pram\":%u,\"model\":\"EREW\",\"n\":16,", &k) != 1 || k >= RUNS ||
            strncmp(end - 18, "\"ended\":\"destroy\"}", 18))
            whole = 0;
        else
            seen[k]++;
        l = end ? end + 1 : NULL;
    }
    CHECK(whole);
    for (int k = 0; k < RUNS; k++)
        CHECK_EQ_U64(seen[k], CHILDREN);
    free(got);
}

/* ---- pages: the first PRAM's name, then -2, -3 ---- */

static void test_pages(void)
{
    char page[128], p2[128], p3[128];
    snprintf(page, sizeof page, "%s/run.html", dir);
    snprintf(p2, sizeof p2, "%s/run-2.html", dir);
    snprintf(p3, sizeof p3, "%s/run-3.html", dir);
    setenv("BSPRAM_PRAM_HTML", page, 1);
    /* In a child: a process numbers its PRAMs from 0. */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        small_runs(3);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    unsetenv("BSPRAM_PRAM_HTML");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    const char *names[3] = {page, p2, p3};
    for (int i = 0; i < 3; i++) {
        char *html = slurp(names[i]);
        if (!html)
            fprintf(stderr, "no page %s\n", names[i]);
        CHECK(html && strstr(html, "<!DOCTYPE html>") && strstr(html, "\"n\":16"));
        free(html);
    }
}

/* ---- a FIFO without a reader: a warning, and the run goes on ---- */

static void test_fifo(void)
{
    char path[128], err[128];
    snprintf(path, sizeof path, "%s/fifo", dir);
    snprintf(err, sizeof err, "%s/stderr", dir);
    CHECK(mkfifo(path, 0600) == 0);
    setenv("BSPRAM_PRAM_REPORT", path, 1);
    fflush(stderr);
    int saved = dup(STDERR_FILENO), fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, STDERR_FILENO);
    close(fd);
    small_runs(1);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    unsetenv("BSPRAM_PRAM_REPORT");
    char *got = slurp(err), want[256];
    snprintf(want, sizeof want, "bspram: BSPRAM_PRAM_REPORT=%s: cannot append the PRAM's statistics: a FIFO "
             "that no process reads (not waited for)\n", path);
    if (got && strcmp(got, want))
        fprintf(stderr, "fifo: got '%s'\n", got);
    CHECK(got && !strcmp(got, want));
    free(got);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/bspram-run-report-%d", (int)getpid());
    if (mkdir(dir, 0700) != 0) {
        perror(dir);
        return 1;
    }
    /* First the tests whose children run PRAMs of several threads: libgomp
     * cannot start a team in a child forked after the parent started one. */
    test_concurrent();
    test_pages();
    test_fatal(); /* before this process makes a PRAM: its child's is number 0, its page fatal.html */
    test_known_line();
    test_rises();
    test_fifo();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
    return check_report("test_pram_run_report");
}
