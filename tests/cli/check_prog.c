/* A program for `bspram pram check` to judge (tests/cli/pram_check.sh):
 * `check_prog MODE N` runs a PRAM of N VPs doing what MODE says, so that
 * each way a program can fail an exercise is known in advance — its step,
 * its line, its VPs and cell:
 *   tree      the EREW tree sum of N numbers: ceil(log2 N) steps, work < 3N
 *   crew      the tree, but in step 2 VPs 0 and 4 both read A[0] (lines
 *             A_LINE and B_LINE of this file); on a CREW PRAM
 *   fatal     the same read on an EREW PRAM: the violation ends the run
 *   report    the same on EREW in report mode: 1 violation, the run goes on
 *   linear    one VP adds the numbers one by one: N − 1 steps, EREW
 *   exit      the tree, then exit status 1 with "check_prog: wrong sum 7"
 *   abort     the tree, then abort()
 *   none      no PRAM destroyed: nothing reported
 *   priority  a CRCW-priority PRAM whose VPs 0 and 1 write 1 and 2 to A[0]
 *   two       the tree twice, two PRAMs (the second for the page -2)
 * Exit status 0 but for exit and abort (and fatal: the library's 1).
 * `check_prog lines` prints A_LINE, B_LINE and PRIORITY_LINE. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pram/pram.h"

static bspram_pram_array A;
static uint64_t stride;
static int concurrent; /* crew, fatal, report: step 2's reads meet at A[0] */

/* In step 2 (stride 2) of crew, fatal and report, VP 4 reads A[0] (line
 * B_LINE), which VP 0 reads too (line A_LINE). */
enum { A_LINE = __LINE__ + 7, B_LINE = A_LINE + 1 };
static void add(bspram_vp *vp, void *arg)
{
    (void)arg;
    uint64_t i = bspram_vp_id(vp), n = bspram_vp_n(vp);
    if (i % (2 * stride) != 0 || i + stride >= n)
        return;
    uint64_t a = bspram_vp_get(vp, A, i);
    uint64_t b = bspram_vp_get(vp, A, concurrent && stride == 2 && i == 4 ? 0 : i + stride);
    bspram_vp_write(vp, A, i, a + b);
}

static uint64_t tree(uint64_t n, bspram_pram_model model, bool report)
{
    bspram_pram_config c = bspram_pram_config_default(n, model);
    c.report = report;
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", n);
    uint64_t *x = calloc(n, sizeof *x), sum = 0;
    for (uint64_t i = 0; i < n; i++)
        x[i] = i + 1;
    bspram_pram_load(P, A, x, n);
    for (stride = 1; stride < n; stride *= 2)
        bspram_pram_for_all(P, add, NULL);
    bspram_pram_store(P, A, &sum, 1);
    bspram_pram_destroy(P);
    free(x);
    return sum;
}

static void serial(bspram_vp *vp, void *arg)
{
    const uint64_t k = *(const uint64_t *)arg;
    if (bspram_vp_id(vp) == 0)
        bspram_vp_write(vp, A, 0, bspram_vp_get(vp, A, 0) + bspram_vp_get(vp, A, k));
}

enum { PRIORITY_LINE = __LINE__ + 5 };
static void priority(bspram_vp *vp, void *arg)
{
    (void)arg;
    uint64_t i = bspram_vp_id(vp);
    bspram_vp_write(vp, A, i < 2 ? 0 : i, i + 1);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "lines")) {
        printf("%d %d %d\n", A_LINE, B_LINE, PRIORITY_LINE);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: check_prog MODE N\n");
        return 2;
    }
    const char *mode = argv[1];
    uint64_t n = strtoull(argv[2], NULL, 10);
    if (n < 8) {
        fprintf(stderr, "check_prog: N must be at least 8\n");
        return 2;
    }
    if (!strcmp(mode, "tree") || !strcmp(mode, "exit") || !strcmp(mode, "abort")) {
        uint64_t s = tree(n, BSPRAM_EREW, false);
        if (!strcmp(mode, "exit")) {
            fprintf(stderr, "check_prog: wrong sum 7\n");
            return 1;
        }
        if (!strcmp(mode, "abort"))
            abort();
        return s == n * (n + 1) / 2 ? 0 : 1;
    }
    if (!strcmp(mode, "crew") || !strcmp(mode, "fatal") || !strcmp(mode, "report")) {
        concurrent = 1;
        tree(n, !strcmp(mode, "crew") ? BSPRAM_CREW : BSPRAM_EREW, !strcmp(mode, "report"));
        return 0;
    }
    if (!strcmp(mode, "two")) {
        tree(n, BSPRAM_EREW, false);
        tree(n, BSPRAM_EREW, false);
        return 0;
    }
    if (!strcmp(mode, "linear") || !strcmp(mode, "none")) {
        bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_EREW);
        bspram_pram *P = bspram_pram_create(&c);
        A = bspram_pram_alloc(P, "A", n);
        for (uint64_t k = 1; k < n; k++)
            bspram_pram_for_all(P, serial, &k);
        if (!strcmp(mode, "none"))
            _exit(0); /* not destroyed: no report (and no leak check: the PRAM is left on purpose) */
        bspram_pram_destroy(P);
        return 0;
    }
    if (!strcmp(mode, "priority")) {
        bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CRCW_PRIORITY);
        bspram_pram *P = bspram_pram_create(&c);
        A = bspram_pram_alloc(P, "A", n);
        bspram_pram_for_all(P, priority, NULL);
        bspram_pram_destroy(P);
        return 0;
    }
    fprintf(stderr, "check_prog: unknown mode %s\n", mode);
    return 2;
}
