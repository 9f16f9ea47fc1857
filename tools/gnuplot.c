/* SVG and PNG pictures by gnuplot (gnuplot.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/input.h"
#include "base/output.h"
#include "tools/commands.h"
#include "tools/gnuplot.h"

static _Noreturn void end_with(const char *command, const char *line, int status);

/* One line naming the problem and its exit status (BSPRAM_TOOL_FAILED, or
 * BSPRAM_TOOL_USAGE for a bad name): the command's error, or with end_job
 * the line of a fatal error, which ends every process of the job. */
static int refuse(int end_job, int status, const char *command, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int refuse(int end_job, int status, const char *command, const char *fmt, ...)
{
    char line[4400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (end_job)
        end_with(command, line, status);
    return status == BSPRAM_TOOL_USAGE ? bspram_tool_usage(command, "%s", line)
                                       : bspram_tool_error(command, "%s", line);
}

/* The picture's format, from the name's extension (any case). */
enum { PICTURE_NONE, PICTURE_SVG, PICTURE_PNG };
static int picture_format(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return PICTURE_NONE;
    return !strcasecmp(dot, ".svg") ? PICTURE_SVG : !strcasecmp(dot, ".png") ? PICTURE_PNG
                                                                           : PICTURE_NONE;
}

/* Whether this gnuplot has the pngcairo terminal (Debian's gnuplot-nox
 * has): it exits non-zero on an unknown terminal. */
static int has_pngcairo(void)
{
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execlp("gnuplot", "gnuplot", "-e", "set terminal pngcairo", (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int bspram_tool_gnuplot_check(const char *command, const char *option, const char *path,
                              const char *input, int end_job)
{
    char why[4400];
    if (bspram_tool_output_problem(option, path, input, ".svg or .png", why, sizeof why))
        return refuse(end_job, BSPRAM_TOOL_FAILED, command, "%s", why);
    int format = picture_format(path);
    if (format == PICTURE_NONE) /* a bad value: a usage error, before gnuplot is looked for */
        return refuse(end_job, BSPRAM_TOOL_USAGE, command,
                      "%s %s: the name must end in .svg (SVG) or .png (PNG)", option, path);
    const char *dirs = getenv("PATH");
    int found = 0;
    char exe[4096];
    for (const char *d = dirs ? dirs : ""; !found && *d;) {
        size_t len = strcspn(d, ":");
        snprintf(exe, sizeof exe, "%.*s/gnuplot", (int)len, len ? d : ".");
        found = access(exe, X_OK) == 0;
        d += len + (d[len] == ':');
    }
    if (!found)
        return refuse(end_job, BSPRAM_TOOL_FAILED, command,
                      "%s %s: gnuplot is not on PATH (Debian: apt-get install gnuplot-nox)", option, path);
    if (format == PICTURE_PNG && !has_pngcairo())
        return refuse(end_job, BSPRAM_TOOL_FAILED, command,
                      "%s %s: this gnuplot has no pngcairo terminal for PNG; give a name ending in .svg",
                      option, path);
    if (bspram_tool_output_dir_problem(option, path, why, sizeof why))
        return refuse(end_job, BSPRAM_TOOL_FAILED, command, "%s", why);
    return 0;
}

/* SIGPIPE's disposition while we write to gnuplot: ignored, so that a
 * gnuplot that stops early is a write error to report, not a signal that
 * ends this process without a word. */
static struct sigaction sigpipe_before;

/* The picture being drawn: gnuplot writes a new file beside the path,
 * renamed over it once read back whole (base/output.h). One at a time. */
static bspram_output picture;

FILE *bspram_tool_gnuplot_open(const char *command, const char *option, const char *path, int width,
                               int height)
{
    if (bspram__base_output_open(&picture, path) != 0) {
        bspram_tool_error(command, "%s %s: cannot write: %s", option, path, strerror(errno));
        return NULL;
    }
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &sigpipe_before);
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        int err = errno;
        sigaction(SIGPIPE, &sigpipe_before, NULL);
        bspram__base_output_abandon(&picture);
        bspram_tool_error(command, "%s %s: cannot run gnuplot: %s", option, path, strerror(err));
        return NULL;
    }
    /* The terminal by the name (bspram_tool_gnuplot_check refused others). */
    if (picture_format(path) == PICTURE_PNG)
        fprintf(g, "set terminal pngcairo size %d,%d background rgb 'white'\n", width, height);
    else
        fprintf(g, "set terminal svg size %d,%d dynamic background rgb 'white'\n", width, height);
    /* The path goes into a gnuplot single-quoted string (no escapes but ''
     * for a quote, doubled here; newlines were refused by the check). */
    fputs("set output '", g);
    for (const char *q = bspram__base_output_name(&picture); *q; q++)
        if (*q == '\'')
            fputs("''", g);
        else
            fputc(*q, g);
    /* Labels are literal text: "bsp_sync" is no subscript. */
    fprintf(g, "'\nset termoption noenhanced\n");
    return g;
}

/* Whether gnuplot wrote a whole picture: gnuplot exits 0 even when its
 * writes failed (a full disk leaves an empty or cut file), so the file is
 * read back: an SVG ends with </svg>, a PNG starts with the PNG signature
 * and ends with the IEND chunk — the format by path's name, the bytes read
 * from `file` (where gnuplot wrote). NULL, or what is wrong. */
static const char *incomplete(const char *path, const char *file, char *why, size_t len)
{
    bspram_input in;
    if (bspram__base_input_open(&in, file, UINT64_MAX - 1) != 0)
        return bspram__base_input_problem(&in, why, len);
    struct stat st;
    memset(&st, 0, sizeof st);
    unsigned char head[8] = {0}, tail[64] = {0};
    const char *bad = NULL;
    if (fstat(in.fd, &st) != 0 || st.st_size == 0) {
        bad = "gnuplot wrote nothing";
    } else {
        size_t t = st.st_size < (off_t)sizeof tail ? (size_t)st.st_size : sizeof tail;
        if (pread(in.fd, head, sizeof head, 0) < 0 ||
            pread(in.fd, tail, t, st.st_size - (off_t)t) != (ssize_t)t) {
            bad = "cannot read it back";
        } else if (picture_format(path) == PICTURE_PNG) {
            static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
            static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D',
                                                   0xae, 0x42, 0x60, 0x82};
            if (memcmp(head, sig, sizeof sig) || t < sizeof iend || memcmp(tail + t - 12, iend, 12))
                bad = "gnuplot wrote an incomplete PNG";
        } else {
            while (t && (tail[t - 1] == '\n' || tail[t - 1] == ' ' || tail[t - 1] == '\r'))
                t--;
            if (t < 6 || memcmp(tail + t - 6, "</svg>", 6))
                bad = "gnuplot wrote an incomplete SVG";
        }
    }
    bspram__base_input_close(&in);
    if (bad)
        snprintf(why, len, "%s (%lld bytes: is the disk full?)", bad, (long long)st.st_size);
    return bad ? why : NULL;
}

/* The picture's end when something failed: its new file removed (the path
 * as it was), then the line. */
static int failed(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failed(const char *command, const char *fmt, ...)
{
    char line[4400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    bspram__base_output_abandon(&picture);
    return bspram_tool_error(command, "%s", line);
}

int bspram_tool_gnuplot_close(const char *command, const char *option, const char *path, FILE *g)
{
    /* What we sent must have reached gnuplot (a pipe it closed: EPIPE). */
    int sent = fflush(g) == 0 && !ferror(g), send_err = errno;
    int st = pclose(g), wait_err = errno;
    sigaction(SIGPIPE, &sigpipe_before, NULL);
    if (st == -1)
        return failed(command, "%s %s: gnuplot: %s", option, path, strerror(wait_err));
    if (WIFSIGNALED(st))
        return failed(command, "%s %s: gnuplot was killed by signal %d", option, path, WTERMSIG(st));
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        return failed(command, "%s %s: cannot run gnuplot (exit code 127: not installed?)", option,
                      path);
    if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
        return failed(command, "%s %s: gnuplot failed (exit code %d)", option, path,
                      WEXITSTATUS(st));
    if (!sent)
        return failed(command, "%s %s: cannot send the picture to gnuplot: %s", option, path,
                      strerror(send_err));
    /* gnuplot exits 0 on a full disk: never give the path a picture that
     * only looks written. */
    char why[200];
    if (incomplete(path, bspram__base_output_name(&picture), why, sizeof why))
        return failed(command, "%s %s: %s", option, path, why);
    if (bspram__base_output_close(&picture) != 0)
        return bspram_tool_error(command, "%s %s: cannot write: %s", option, path, strerror(errno));
    return 0;
}

/* Under mpirun a rank that exits without MPI_Finalize makes mpirun end the
 * whole job, so one rank's failure here ends every rank. */
static _Noreturn void end_with(const char *command, const char *line, int status)
{
    fprintf(stderr, "bspram %s: %s\n", command, line);
    exit(status);
}
