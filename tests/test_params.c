/* The parameter file (bsp/params.h): whatever lies at $BSPRAM_PARAMS, loading
 * and saving never hang, loading never crashes, and a bad file is refused
 * with exactly one warning line, the outputs untouched. Before: /dev/zero
 * and a FIFO hung every program (a FIFO also the probe's save), nan, inf,
 * -1 and 1e400 were accepted, p = 1e30 was an undefined cast, a comment
 * over 255 bytes was split and its tail read as a setting, and a save cut
 * short by a full disk left half a file. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bspram.h"
#include "check.h"

static char dir[] = "/tmp/bspram-test-params-XXXXXX";
static char file[256], errfile[256];
static int real_stderr = 2; /* the test's stderr while a load's is redirected */

static void write_file(const char *text)
{
    FILE *f = fopen(file, "w");
    fputs(text, f);
    fclose(f);
}

/* Load with stderr redirected to errfile; returns the result, and the number
 * of lines written to stderr in *lines. */
static int load(double *g, double *l, int *lines)
{
    fflush(stderr);
    int saved = dup(2), fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    close(fd);
    int rc = bspram_params_load(g, l);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    *lines = 0;
    FILE *f = fopen(errfile, "r");
    for (int c; (c = fgetc(f)) != EOF;)
        *lines += c == '\n';
    fclose(f);
    return rc;
}

/* The file at BSPRAM_PARAMS is refused with exactly one warning, g and l untouched. */
static void refused(const char *what, int want_warning)
{
    double g = -7, l = -8;
    int lines = -1;
    int rc = load(&g, &l, &lines);
    CHECK(rc == -1);
    CHECK(g == -7 && l == -8);
    CHECK(lines == (want_warning ? 1 : 0));
    if (rc != -1 || g != -7 || l != -8 || lines != (want_warning ? 1 : 0))
        fprintf(stderr, "  (%.60s: rc %d, g %g, l %g, %d warning lines)\n", what, rc, g, l, lines);
}

static void refused_text(const char *text)
{
    write_file(text);
    refused(text, 1);
}

/* The last load's warning line holds want. */
static void warned(const char *want)
{
    char got[1024] = "";
    FILE *f = fopen(errfile, "r");
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    got[n] = 0;
    if (f)
        fclose(f);
    CHECK(strstr(got, want) != NULL);
    if (!strstr(got, want))
        fprintf(stderr, "  (the warning '%s' lacks '%s')\n", got, want);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_params: a load or save hung (FIFO or /dev/zero)\n";
    (void)!write(real_stderr, msg, sizeof msg - 1);
    _exit(1);
}

int main(void)
{
    real_stderr = dup(2);
    signal(SIGALRM, on_alarm);
    alarm(20); /* a hang is a failure, not a stuck test */
    CHECK(mkdtemp(dir) != NULL);
    snprintf(file, sizeof file, "%s/params", dir);
    snprintf(errfile, sizeof errfile, "%s/stderr", dir);
    setenv("BSPRAM_PARAMS", file, 1);

    /* A good regular file: read, comments and unknown keys skipped. */
    write_file("# bspram BSP parameters\n\np = 4\ng_ns_per_byte = 2.5\n  l_ns=1e3  \r\n"
               "future_key = 12\nflops_per_ns = 0.5\n");
    double g = 0, l = 0;
    int lines = -1;
    CHECK(load(&g, &l, &lines) == 0 && g == 2.5 && l == 1000 && lines == 0);
    bspram_params all;
    CHECK(bspram_params_read(&all) == 0 && all.p == 4 && all.flops_per_ns == 0.5);
    CHECK(load(NULL, NULL, &lines) == 0);

    /* No file: −1 without a warning. */
    remove(file);
    refused("no file", 0);

    /* Not regular files: refused at once, never read. */
    setenv("BSPRAM_PARAMS", "/dev/zero", 1);
    refused("/dev/zero", 1);
    setenv("BSPRAM_PARAMS", dir, 1);
    refused("a directory", 1);
    char fifo[300];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    setenv("BSPRAM_PARAMS", fifo, 1);
    refused("a FIFO", 1);
    remove(fifo);
    setenv("BSPRAM_PARAMS", file, 1);

    /* Bad values. */
    refused_text("g_ns_per_byte = nan\nl_ns = 1\n");
    refused_text("g_ns_per_byte = inf\nl_ns = 1\n");
    refused_text("g_ns_per_byte = 1\nl_ns = -inf\n");
    refused_text("g_ns_per_byte = -1\nl_ns = 1\n");
    refused_text("g_ns_per_byte = 1e400\nl_ns = 1\n");
    refused_text("g_ns_per_byte = 1\nl_ns = 1\np = 1e30\n");
    refused_text("g_ns_per_byte = 1\nl_ns = 1\np = 0\n");
    refused_text("g_ns_per_byte = 1\nl_ns = 1\np = 65537\n");
    refused_text("g_ns_per_byte = 1\nl_ns = 1\np = 2.5\n");
    refused_text("g_ns_per_byte = 5x\nl_ns = 1\n");
    refused_text("g_ns_per_byte = \nl_ns = 1\n");
    refused_text("g_ns_per_byte 5\nl_ns = 1\n");
    refused_text("l_ns = 1\n"); /* g missing */
    refused_text("bytes_per_put = 1e-400\ng_ns_per_byte = 1\nl_ns = 1\n");

    /* A key set twice: which value holds? Neither; flagged like the file's
     * other problems (it once passed, the last value silently winning). */
    refused_text("g_ns_per_byte = 1\nl_ns = 1\ng_ns_per_byte = 2\n");
    warned("parameter file ");
    warned(": g_ns_per_byte is set twice; ignored");
    refused_text("p = 2\ng_ns_per_byte = 1\nl_ns = 1\np = 2\n");
    warned(": p is set twice; ignored");
    refused_text("g_ns_per_byte = 1\nl_ns=1\nflops_per_ns = 3\n  l_ns = 1\n");
    warned(": l_ns is set twice; ignored");
    /* An unknown key twice is still ignored (newer probes may write more). */
    write_file("g_ns_per_byte = 1\nl_ns = 1\nfuture = 1\nfuture = 2\n");
    g = l = 0;
    CHECK(load(&g, &l, &lines) == 0 && g == 1 && l == 1 && lines == 0);

    /* The warning quotes the file's text and names the file on one line:
     * control characters are escaped (an ESC once reached the terminal). */
    refused_text("g_ns_per_byte = 5\x1b[2J\nl_ns = 1\n");
    warned("g_ns_per_byte must be a finite number >= 0, not 5\\x1b[2J; ignored");
    char odd[300];
    snprintf(odd, sizeof odd, "%s/two\nlines", dir);
    setenv("BSPRAM_PARAMS", odd, 1);
    FILE *of = fopen(odd, "w");
    fputs("g_ns_per_byte = -1\nl_ns = 1\n", of);
    fclose(of);
    refused("a file name with a newline", 1);
    warned("/two\\nlines: g_ns_per_byte must be");
    remove(odd);
    setenv("BSPRAM_PARAMS", file, 1);

    /* A 1000-byte comment ending in a setting is one comment: nothing set. */
    char text[2048];
    memset(text, 0, sizeof text);
    text[0] = '#';
    memset(text + 1, 'x', 979);
    strcat(text, "g_ns_per_byte = 5\n");
    CHECK(strlen(text) == 998);
    strcat(text, "l_ns = 3\n");
    refused_text(text); /* g_ns_per_byte is missing */
    text[998] = 0;
    strcat(text, "g_ns_per_byte = 7\nl_ns = 3\n");
    write_file(text);
    g = l = 0;
    CHECK(load(&g, &l, &lines) == 0 && g == 7 && l == 3 && lines == 0);

    /* A line of any length is read whole: a 5000-byte value is refused. */
    char *huge = malloc(6000);
    strcpy(huge, "g_ns_per_byte = 1\nl_ns = ");
    size_t at = strlen(huge);
    memset(huge + at, '1', 5000);
    strcpy(huge + at + 5000, "\n");
    refused_text(huge); /* 1e4999: overflows */
    free(huge);

    /* A file over 64 KiB (100 KiB of comments and good values) is refused. */
    FILE *f = fopen(file, "w");
    fputs("g_ns_per_byte = 1\nl_ns = 1\n", f);
    for (int i = 0; i < 100 * 1024 / 64; i++)
        fprintf(f, "# %061d\n", i);
    fclose(f);
    refused("a 100 KiB file", 1);

    /* save refuses what read would refuse: a negative g of a noisy fit. */
    bspram_params bad;
    memset(&bad, 0, sizeof bad);
    bad.p = 2;
    bad.g_ns_per_byte = -0.5;
    bad.l_ns = 100;
    remove(file);
    CHECK(bspram_params_save(&bad) == -1);
    CHECK(access(file, F_OK) != 0);
    bad.g_ns_per_byte = 0.5;
    bad.p = 0;
    CHECK(bspram_params_save(&bad) == -1);
    bad.p = 2;
    CHECK(bspram_params_save(&bad) == 0);
    g = l = 0;
    CHECK(load(&g, &l, &lines) == 0 && g == 0.5 && l == 100 && lines == 0);

    /* save never blocks either, whatever lies at the path: a FIFO that no
     * process reads is refused at once (opening it to write waited for a
     * reader for ever: `bspram probe` hung), one with a reader and a device
     * are refused before a byte is written. */
    CHECK(mkfifo(fifo, 0600) == 0);
    setenv("BSPRAM_PARAMS", fifo, 1);
    errno = 0;
    CHECK(bspram_params_save(&bad) == -1 && errno == ENXIO);
    int reader = open(fifo, O_RDONLY | O_NONBLOCK);
    CHECK(reader >= 0);
    errno = 0;
    CHECK(bspram_params_save(&bad) == -1 && errno == EINVAL);
    char byte;
    CHECK(read(reader, &byte, 1) == 0); /* nothing was written */
    close(reader);
    remove(fifo);
    setenv("BSPRAM_PARAMS", "/dev/null", 1);
    errno = 0;
    CHECK(bspram_params_save(&bad) == -1 && errno == EINVAL);
    setenv("BSPRAM_PARAMS", file, 1);

    /* A save that fails midway (a file-size limit, as a full disk) leaves
     * the earlier set whole: it truncated the file, then wrote what fitted. */
    CHECK(bspram_params_save(&bad) == 0);
    f = fopen(file, "r");
    char before[1024] = {0}, after[1024] = {0};
    CHECK(f && fread(before, 1, sizeof before - 1, f) > 0);
    if (f)
        fclose(f);
    struct rlimit was, small;
    getrlimit(RLIMIT_FSIZE, &was);
    small = (struct rlimit){60, was.rlim_max};
    signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    bad.p = 3;
    errno = 0;
    CHECK(bspram_params_save(&bad) == -1 && errno == EFBIG);
    CHECK(setrlimit(RLIMIT_FSIZE, &was) == 0);
    f = fopen(file, "r");
    CHECK(f && fread(after, 1, sizeof after - 1, f) > 0 && !strcmp(before, after));
    if (f)
        fclose(f);

    remove(file);
    remove(errfile);
    rmdir(dir);
    unsetenv("BSPRAM_PARAMS");
    return check_report("test_params");
}
