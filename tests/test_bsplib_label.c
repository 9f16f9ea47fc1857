/* bsp_label and bsp_work (bsp.h, bspram's extension): the records of a
 * BSPlib program carry the names and the local work it gives them. For
 * every P of bsplib_check.h, a section of four supersteps — "scatter" with
 * no work; "compute" where process s declares s + 1 twice (so the record's
 * work is the most, 2P); a collective, which labels its own; and one more
 * "compute" (the label stays in force after the collective) — then
 * bsp_label(NULL) and a "bsp_sync"; checked in the trace (BSPRAM_TRACE)
 * that pid 0's rank writes. */
#include <bsp.h>
#include <bsp_coll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsplib_check.h"

static unsigned P;

static void spmd(void)
{
    bsp_begin(P);
    const unsigned s = bsp_pid();
    bsp_label("scatter");
    bsp_sync();
    bsp_label("compute");
    bsp_work(s + 1);
    bsp_work(s + 1);
    bsp_sync();
    uint64_t one = s, all;
    bsp_coll_allreduce(NULL, &one, &all, 1, bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64), NULL);
    SPMD_CHECK(all == (uint64_t)bsp_nprocs() * (bsp_nprocs() - 1) / 2);
    bsp_sync();
    bsp_label(NULL);
    bsp_sync();
    bsp_end();
}

/* The trace's rows as (label, work), in order. */
static size_t read_rows(const char *path, char labels[][32], unsigned long long *work, size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    size_t n = 0;
    if (!fgets(line, sizeof line, f)) { /* the header */
        fclose(f);
        return 0;
    }
    while (n < max && fgets(line, sizeof line, f)) {
        /* machine,superstep,label,messages,bytes,q,r,charge,h_bytes,max_message,work,... */
        char *field[12] = {0};
        char *at = line;
        for (int k = 0; k < 12; k++) {
            field[k] = at;
            at = strchr(at, ',');
            if (!at)
                break;
            *at++ = 0;
        }
        if (!field[10]) /* a short row: not a record */
            continue;
        snprintf(labels[n], 32, "%s", field[2]);
        work[n++] = strtoull(field[10], NULL, 10);
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    /* After bsp_init: over MPI only rank 0 gets here (and writes the trace). */
    char path[] = "/tmp/bspram_label_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    for (size_t k = 0; k < BSPLIB_TEST_NPS; k++) {
        P = bsplib_test_ps[k];
        remove(path);
        setenv("BSPRAM_TRACE", path, 1);
        spmd();
        unsetenv("BSPRAM_TRACE");
        CHECK_SPMD("labels and work");
        char labels[64][32];
        unsigned long long work[64];
        size_t n = read_rows(path, labels, work, 64);
        /* scatter, compute, the collective's supersteps, compute, bsp_sync, bsp_end */
        CHECK(n >= 5);
        if (n < 5)
            continue;
        CHECK(strcmp(labels[0], "scatter") == 0 && work[0] == 0);
        CHECK(strcmp(labels[1], "compute") == 0);
        CHECK_EQ_U64(work[1], 2 * (uint64_t)P);
        for (size_t i = 2; i + 3 < n; i++)
            CHECK(strncmp(labels[i], "bsp_coll_allreduce", 18) == 0);
        CHECK(strcmp(labels[n - 3], "compute") == 0 && work[n - 3] == 0);
        CHECK(strcmp(labels[n - 2], "bsp_sync") == 0);
        CHECK(strcmp(labels[n - 1], "bsp_end") == 0);
    }
    remove(path);
    return check_report("test_bsplib_label");
}
