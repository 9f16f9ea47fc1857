/* Memory for the bspram command: out of memory is one line and exit status
 * 1, as everywhere in the tool. The tool is built against the installed
 * package, whose allocation helpers stay inside the library. */
#include <stdio.h>
#include <stdlib.h>

#include "tools/commands.h"

static _Noreturn void out_of_memory(const char *what, size_t bytes)
{
    fprintf(stderr, "bspram: out of memory (%s: %zu bytes)\n", what, bytes);
    exit(1);
}

void *bspram_tool_realloc(void *ptr, size_t bytes, const char *what)
{
    void *p = realloc(ptr, bytes ? bytes : 1);
    if (!p)
        out_of_memory(what, bytes);
    return p;
}

void *bspram_tool_calloc(size_t n, size_t size, const char *what)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(what, n * size);
    return p;
}

void *bspram_tool_grow(void *ptr, size_t *cap, size_t need, size_t elem, size_t initial,
                       const char *what)
{
    if (need <= *cap)
        return ptr;
    size_t c = *cap ? *cap : initial;
    while (c < need)
        c *= 2;
    if (c > SIZE_MAX / elem)
        out_of_memory(what, SIZE_MAX);
    *cap = c;
    return bspram_tool_realloc(ptr, c * elem, what);
}
