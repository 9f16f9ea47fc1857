/* Where a command's output file may go (commands.h): checked before the
 * work, for gnuplot's pictures and the HTML pages alike. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/input.h"
#include "tools/commands.h"

const char *bspram_tool_output_problem(const char *option, const char *path, const char *input,
                                       const char *endings, char *buf, size_t len)
{
    if (!*path || strpbrk(path, "\n\r")) {
        snprintf(buf, len, "%s: the file name must be non-empty and on one line", option);
        return buf;
    }
    struct stat st, in;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(buf, len, "%s %s: is a directory", option, path);
            return buf;
        }
        /* A terminal, a FIFO or a device: a writer could block on it, or
         * fail to open it after the run. */
        if (!S_ISREG(st.st_mode)) {
            if (endings)
                snprintf(buf, len, "%s %s: not a regular file (%s); give a file name ending in %s",
                         option, path, bspram__base_file_kind(st.st_mode), endings);
            else
                snprintf(buf, len, "%s %s: not a regular file (%s); give the name of a regular file",
                         option, path, bspram__base_file_kind(st.st_mode));
            return buf;
        }
        /* The same file by any name (a link, ./x): it would be emptied
         * before it is read. */
        if (input && stat(input, &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino) {
            snprintf(buf, len, "%s %s: is the input %s; give another file name", option, path, input);
            return buf;
        }
    }
    return NULL;
}

const char *bspram_tool_output_dir_problem(const char *option, const char *path, char *buf,
                                           size_t len)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    if (access(dir, W_OK) == 0)
        return NULL;
    snprintf(buf, len, "%s %s: cannot write in %s: %s", option, path, dir, strerror(errno));
    return buf;
}

/* path with its directory resolved (realpath of the directory part, then
 * '/' and the last part): one spelling for every name of a file that may
 * not exist yet (x.html, ./x.html, d/../x.html). The directory as given
 * when it cannot be resolved (it does not exist: the writer's checks
 * refuse it). */
static void resolved(const char *path, char *out, size_t len)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    snprintf(out, len, "%s/%s", realpath(dir, real) ? real : dir, base);
}

const char *bspram_tool_outputs_clash(const char *option_a, const char *a, const char *option_b,
                                      const char *b, char *buf, size_t len)
{
    char ra[2 * PATH_MAX + 2], rb[2 * PATH_MAX + 2];
    resolved(a, ra, sizeof ra);
    resolved(b, rb, sizeof rb);
    struct stat sa, sb; /* two names of one existing file: a link */
    int same = !strcmp(ra, rb) || (stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
                                   sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
    if (!same)
        return NULL;
    if (!strcmp(a, b))
        snprintf(buf, len, "%s and %s name the same file %s; give each its own", option_a, option_b, a);
    else
        snprintf(buf, len, "%s %s and %s %s name the same file; give each its own", option_a, a,
                 option_b, b);
    return buf;
}
