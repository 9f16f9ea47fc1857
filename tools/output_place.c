/* Where a command's output file may go (commands.h): checked before the
 * work, for gnuplot's pictures and the HTML pages alike. */
#include <errno.h>
#include <stdio.h>
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
            snprintf(buf, len, "%s %s: not a regular file (%s); give a file name ending in %s",
                     option, path, bspram__base_file_kind(st.st_mode), endings);
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
