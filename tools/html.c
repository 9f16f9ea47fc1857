/* Self-contained HTML pages (html.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/input.h"
#include "tools/commands.h"
#include "tools/html.h"

#define DATA_MARK "<!--BSPRAM-DATA-->"

int bspram_tool_html_check(const char *command, const char *option, const char *path,
                           const char *input)
{
    if (!*path || strpbrk(path, "\n\r"))
        return bspram_tool_error(command, "%s: the file name must be non-empty and on one line",
                                 option);
    struct stat st, in;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return bspram_tool_error(command, "%s %s: is a directory", option, path);
        if (!S_ISREG(st.st_mode))
            return bspram_tool_error(command, "%s %s: not a regular file (%s); give a file name "
                                     "ending in .html", option, path,
                                     bspram__base_file_kind(st.st_mode));
        if (input && stat(input, &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
            return bspram_tool_error(command, "%s %s: is the input %s; give another file name",
                                     option, path, input);
    }
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/') || strcasecmp(dot, ".html"))
        return bspram_tool_error(command, "%s %s: the name must end in .html", option, path);
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
        return bspram_tool_error(command, "%s %s: cannot write in %s: %s", option, path, dir,
                                 strerror(errno));
    return 0;
}

int bspram_tool_html_write(const char *command, const char *option, const char *path,
                           const char *page, void (*data)(FILE *f, void *arg), void *arg)
{
    const char *mark = strstr(page, DATA_MARK);
    FILE *f = fopen(path, "w");
    if (!f)
        return bspram_tool_error(command, "%s %s: cannot write: %s", option, path, strerror(errno));
    fwrite(page, 1, (size_t)(mark - page), f);
    data(f, arg);
    fputs(mark + strlen(DATA_MARK), f);
    int err = ferror(f) ? errno : 0;
    if (fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    if (err) {
        remove(path);
        return bspram_tool_error(command, "%s %s: cannot write: %s (removed)", option, path,
                                 strerror(err));
    }
    return 0;
}

void bspram_tool_js_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f || c == '<' || c == '>' || c == '&')
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void bspram_tool_js_number(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.9g", x);
    else
        fputs("null", f);
}
