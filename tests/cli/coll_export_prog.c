/* coll --tune's export (tools/coll_export.c) from made-up choices, so that a
 * test knows what each size's rule must make Open MPI or MPICH run:
 *
 *   coll_export_prog FORMAT P SIZES OP=ALG,ALG,... [OP=...]
 *
 * SIZES: block sizes, comma-separated, increasing; each OP gets one ALG per
 * size (bsp_coll names), its choice there, timed 1 against 2 for every other
 * algorithm the operation has on P processes. The rules go to stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/coll_tune.h"

static int usage(const char *why)
{
    fprintf(stderr, "coll_export_prog: %s\nusage: coll_export_prog FORMAT P SIZES OP=ALG,ALG,...\n", why);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 5)
        return usage("too few arguments");
    const unsigned p = (unsigned)strtoul(argv[2], NULL, 10);
    size_t sizes[COLL_TUNE_MAX_SIZES], n_sizes = 0, n_ops = (size_t)argc - 4;
    for (char *save = NULL, *w = strtok_r(argv[3], ",", &save); w; w = strtok_r(NULL, ",", &save))
        if (n_sizes < COLL_TUNE_MAX_SIZES)
            sizes[n_sizes++] = strtoul(w, NULL, 10);
    coll_tune_row *rows = calloc(n_ops * n_sizes, sizeof *rows);
    if (!p || !n_sizes || !rows)
        return usage("bad P or SIZES");
    for (size_t o = 0; o < n_ops; o++) {
        char *spec = argv[4 + o], *eq = strchr(spec, '=');
        if (!eq)
            return usage(spec);
        *eq = 0;
        const int op = bsp_coll_op_parse(spec);
        if (op < 0)
            return usage(spec);
        size_t s = 0;
        for (char *save = NULL, *w = strtok_r(eq + 1, ",", &save); w; w = strtok_r(NULL, ",", &save), s++) {
            const int choice = bsp_coll_algorithm_parse(w);
            if (s >= n_sizes || choice <= 0 || !bsp_coll_has((bsp_coll_op)op, (bsp_coll_algorithm)choice, p))
                return usage(w);
            coll_tune_row *r = &rows[o * n_sizes + s];
            r->op = (bsp_coll_op)op;
            r->block = sizes[s];
            r->alg[r->n_algs] = (bsp_coll_algorithm)choice;
            r->seconds[r->n_algs++] = 1;
            r->n_tied = 1;
            for (int a = BSP_COLL_AUTO + 1; a < COLL_TUNE_ALGS; a++)
                if (a != choice && bsp_coll_has((bsp_coll_op)op, (bsp_coll_algorithm)a, p)) {
                    r->alg[r->n_algs] = (bsp_coll_algorithm)a;
                    r->seconds[r->n_algs++] = 2;
                }
        }
        if (s != n_sizes)
            return usage("one algorithm per size");
    }
    if (coll_export(stdout, argv[1], p, rows, n_ops, n_sizes) < 0)
        return 1;
    free(rows);
    return 0;
}
