/* The PRAM models' names (pram.h) and their parsing, for programs and the
 * command line ("crcw-combining:max:u64"). */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "base/error.h"
#include "combine/combine.h"
#include "pram/pram.h"

static const char *const names[] = {"EREW", "CREW", "CRCW-common", "CRCW-arbitrary",
                                    "CRCW-priority", "CRCW-combining"};
#define NMODELS (sizeof names / sizeof names[0])

const char *bspram_pram_model_name(bspram_pram_model model)
{
    if ((unsigned)model >= NMODELS)
        return NULL;
    return names[model];
}

/* a and b equal ignoring case, with '_' read as '-'; b is a model name. */
static int same(const char *a, size_t len, const char *b)
{
    if (strlen(b) != len)
        return 0;
    for (size_t i = 0; i < len; i++) {
        int x = (unsigned char)a[i] == '_' ? '-' : tolower((unsigned char)a[i]);
        if (x != tolower((unsigned char)b[i]))
            return 0;
    }
    return 1;
}

int bspram_pram_model_parse(const char *name, unsigned *op)
{
    BSPRAM_NONNULL(name);
    const char *colon = strchr(name, ':');
    size_t len = colon ? (size_t)(colon - name) : strlen(name);
    for (unsigned m = 0; m < NMODELS; m++) {
        if (!same(name, len, names[m]))
            continue;
        if (!colon)
            return (int)m;
        /* Only the combining model takes an operation: "sum", "max:u64", … */
        if (m != BSPRAM_CRCW_COMBINING)
            return -1;
        char lower[32]; /* operation names are lower case ("max:u64") */
        size_t n = strlen(colon + 1);
        if (n >= sizeof lower)
            return -1;
        for (size_t i = 0; i <= n; i++)
            lower[i] = (char)tolower((unsigned char)colon[1 + i]);
        int id = bspram_op_parse(lower);
        if (id < 0)
            return -1;
        if (op)
            *op = (unsigned)id;
        return (int)m;
    }
    return -1;
}
