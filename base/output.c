/* Files the library writes for the user (output.h). */
#include <stdio.h>
#include <sys/stat.h>

#include "base/output.h"

void bspram__base_make_parents(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(dir, 0755);
            *s = '/';
        }
}
