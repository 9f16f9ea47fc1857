/* SVG pictures by gnuplot (gnuplot.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/error.h"
#include "tools/commands.h"
#include "tools/gnuplot.h"

static _Noreturn void end_with(const char *command, const char *line);

/* One line naming the problem: the command's error (1), or with end_job
 * the line of a fatal error, which ends every process of the job. */
static int refuse(int end_job, const char *command, const char *fmt, ...)
{
    char line[4400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (end_job)
        end_with(command, line);
    return bspram_tool_error(command, "%s", line);
}

int bspram_tool_gnuplot_check(const char *command, const char *option, const char *path, int end_job)
{
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
        return refuse(end_job, command, "%s %s: gnuplot is not on PATH (Debian: apt-get install "
                                        "gnuplot-nox)", option, path);
    if (!*path || strpbrk(path, "\n\r"))
        return refuse(end_job, command, "%s: the file name must be non-empty and on one line", option);
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return refuse(end_job, command, "%s %s: is a directory", option, path);
        /* A terminal, a FIFO or a device: gnuplot could block on it, or fail
         * to open it after the run and print the SVG on stdout. */
        if (!S_ISREG(st.st_mode))
            return refuse(end_job, command, "%s %s: not a regular file (a terminal, FIFO or "
                          "device); give a file name ending in .svg", option, path);
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    if (access(dir, W_OK) != 0)
        return refuse(end_job, command, "%s %s: cannot write in %s: %s", option, path, dir,
                      strerror(errno));
    return 0;
}

FILE *bspram_tool_gnuplot_open(const char *command, const char *option, const char *path, int width,
                               int height)
{
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        bspram_tool_error(command, "%s %s: cannot run gnuplot: %s", option, path, strerror(errno));
        return NULL;
    }
    /* The path goes into a gnuplot single-quoted string (no escapes but ''
     * for a quote, doubled here; newlines were refused by the check). */
    fprintf(g, "set terminal svg size %d,%d dynamic background rgb 'white'\nset output '", width,
            height);
    for (const char *q = path; *q; q++)
        if (*q == '\'')
            fputs("''", g);
        else
            fputc(*q, g);
    /* Labels are literal text: "bsp_sync" is no subscript. */
    fprintf(g, "'\nset termoption noenhanced\n");
    return g;
}

int bspram_tool_gnuplot_close(const char *command, const char *option, const char *path, FILE *g)
{
    int st = pclose(g);
    if (st == -1)
        return bspram_tool_error(command, "%s %s: gnuplot: %s", option, path, strerror(errno));
    if (WIFSIGNALED(st))
        return bspram_tool_error(command, "%s %s: gnuplot was killed by signal %d", option, path,
                                 WTERMSIG(st));
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        return bspram_tool_error(command, "%s %s: cannot run gnuplot (exit code 127: not installed?)",
                                 option, path);
    if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
        return bspram_tool_error(command, "%s %s: gnuplot failed (exit code %d)", option, path,
                                 WEXITSTATUS(st));
    return 0;
}

/* bspram_vfatal_raw takes a va_list: this gives it one. */
static _Noreturn void fatal_raw(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bspram_vfatal_raw(fmt, ap);
}

static _Noreturn void end_with(const char *command, const char *line)
{
    fatal_raw("bspram %s: %s", command, line);
}
