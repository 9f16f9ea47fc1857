/* The degree hint's trap (pram.h, bspram_pram_stats_of; docs/pram.md):
 * with degree_hint = 1 AUTO runs every batch in one phase, so a step whose
 * VPs all read one cell sends a read from every component to its owner — a
 * charge of order p where combining in phases costs of order n/p + log p. The PRAM
 * warns once, on stderr, with the fix; not without the hint, not for
 * exclusive reads under the hint. The charge is the router's: the step
 * under the hint must cost 8 times its ideal and more, and more than the
 * same step without the hint. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pram/pram.h"

enum { N = 8192, P_ = 2048 };

/* Run `steps` gathers (all VPs read A[0] if hot, else A[i]) with the hint;
 * stderr's text in *err (malloc'd); the charge returned. */
static uint64_t run(uint64_t hint, bool hot, int steps, char **err)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    bspram_pram_config c = bspram_pram_config_default(N, BSPRAM_CREW);
    c.p = P_;
    c.threads = 2;
    c.combine.degree_hint = hint;
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_array A = bspram_pram_alloc(P, "A", N);
    uint64_t *cells = malloc(N * sizeof *cells), *out = malloc(N * sizeof *out);
    for (uint64_t i = 0; i < N; i++)
        cells[i] = bspram_pram_cell(P, A, hot ? 0 : i);
    for (int s = 0; s < steps; s++)
        bspram_pram_gather(P, 1, cells, out);
    uint64_t charge = bspram_pram_stats_of(P).charge;
    bspram_pram_destroy(P);
    free(cells);
    free(out);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long len = ftell(tmp);
    rewind(tmp);
    *err = calloc((size_t)len + 1, 1);
    if (len > 0 && fread(*err, 1, (size_t)len, tmp) != (size_t)len)
        (*err)[0] = 0;
    fclose(tmp);
    return charge;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

int main(void)
{
    char *err;
    uint64_t hinted = run(1, true, 3, &err);
    CHECK_EQ_U64(lines(err), 1); /* once, for three such steps */
    CHECK(strncmp(err, "bspram: warning: step 1: its concurrent reads cost a charge of ", 63) == 0);
    CHECK(strstr(err, "with degree_hint = 1 the engine runs one phase") != NULL);
    CHECK(strstr(err, "use config.combine.degree_hint = 0 or the ADAPTIVE strategy") != NULL);
    if (lines(err) != 1)
        fprintf(stderr, "stderr: %s\n", err);
    free(err);
    /* the ideal of one such step: 2 · ceil(N/p) = 8; the hinted step costs p or so */
    CHECK(hinted / 3 >= 8 * 2 * (N / P_));
    uint64_t plain = run(0, true, 3, &err);
    CHECK_EQ_U64(lines(err), 0);
    free(err);
    CHECK(plain < hinted);
    run(1, false, 3, &err); /* exclusive reads: the hint is right */
    CHECK_EQ_U64(lines(err), 0);
    free(err);
    return check_report("test_pram_hint_warning");
}
