/* The int-typed API of the 1998 standard (-DBSPRAM_BSPLIB_INT, bsp.h; built
 * again as test_bsplib_compat_mcbsp with MulticoreBSP's switch,
 * -DMCBSP_COMPATIBILITY_MODE, alone):
 * classic programs written with ints everywhere — a sparse all-gather over
 * BSMP (bsp_set_tagsize, bsp_qsize, bsp_get_tag, bsp_move, bsp_hpmove), the
 * inner product, and "reverse" (each process puts its pid into the mirrored
 * process) — each checked against a sequential reference, at P = 1..8.
 * P = 1 matters: there a size_t stored into an int went unnoticed (exit 0,
 * wrong result), so the int out-parameters here sit next to canaries.
 * This file compiles with -Wall -Wextra -Werror (tests/CMakeLists.txt). */
#ifndef MCBSP_COMPATIBILITY_MODE
#define BSPRAM_BSPLIB_INT
#endif
#include <bsp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define SZINT ((int)sizeof(int))
#define SZDBL ((int)sizeof(double))

static int P;
static atomic_int failures;

#define SPMD_CHECK(cond)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            atomic_fetch_add(&failures, 1);                                               \
            fprintf(stderr, "%s:%d: SPMD_CHECK failed on pid %d (P=%d): %s\n", __FILE__,  \
                    __LINE__, bsp_pid(), bsp_nprocs(), #cond);                            \
        }                                                                                 \
    } while (0)

/* The standard's prototypes, spelled as a 1998 program would: each name has
 * exactly the int-typed type (an initialisation from a mismatched pointer
 * type would not compile under -Werror). */
static void (*const std_begin)(int) = bsp_begin;
static int (*const std_nprocs)(void) = &bsp_nprocs;
static void (*const std_push_reg)(const void *, int) = bsp_push_reg;
static void (*const std_put)(int, const void *, void *, int, int) = &bsp_put;
static void (*const std_hpput)(int, const void *, void *, int, int) = bsp_hpput;
static void (*const std_get)(int, const void *, int, void *, int) = bsp_get;
static void (*const std_hpget)(int, const void *, int, void *, int) = bsp_hpget;
static void (*const std_set_tagsize)(int *) = &bsp_set_tagsize;
static void (*const std_send)(int, const void *, const void *, int) = bsp_send;
static void (*const std_hpsend)(int, const void *, const void *, int) = bsp_hpsend;
static void (*const std_qsize)(int *, int *) = &bsp_qsize;
static void (*const std_get_tag)(int *, void *) = bsp_get_tag;
static void (*const std_move)(void *, int) = bsp_move;
static int (*const std_hpmove)(void **, void **) = &bsp_hpmove;

/* Process s sends to process t iff this holds: sparse, not symmetric. */
static int sends_to(int s, int t) { return (s * 7 + t * 3) % 4 != 1; }

/* Sparse all-gather: process s sends s + 1 ints {100 s, 100 s + 1, ...}
 * tagged with s to every t with sends_to(s, t); every process then knows
 * exactly which messages it must hold (the sequential reference). */
static void allgather(void)
{
    int p = bsp_nprocs(), s = bsp_pid();
    struct {
        int tagsize, canary;
    } ts = {SZINT, 0x5a5a5a5a};
    bsp_set_tagsize(&ts.tagsize);
    SPMD_CHECK(ts.tagsize == 0); /* the tag size in force before */
    SPMD_CHECK(ts.canary == 0x5a5a5a5a);
    bsp_sync();

    int *data = malloc((size_t)(s + 1) * sizeof *data);
    for (int k = 0; k <= s; k++)
        data[k] = 100 * s + k;
    for (int t = 0; t < p; t++)
        if (sends_to(s, t))
            (t % 2 ? bsp_send : std_send)(t, &s, data, (s + 1) * SZINT);
    bsp_sync();

    int expect_n = 0, expect_bytes = 0;
    for (int q = 0; q < p; q++)
        if (sends_to(q, s)) {
            expect_n++;
            expect_bytes += (q + 1) * SZINT;
        }
    struct {
        int packets, canary1, bytes, canary2;
    } qs = {-7, 0x5a5a5a5a, -7, 0x5a5a5a5a};
    bsp_qsize(&qs.packets, &qs.bytes);
    SPMD_CHECK(qs.packets == expect_n);
    SPMD_CHECK(qs.bytes == expect_bytes);
    SPMD_CHECK(qs.canary1 == 0x5a5a5a5a && qs.canary2 == 0x5a5a5a5a);

    int *seen = calloc((size_t)p, sizeof *seen);
    int *buf = malloc((size_t)p * sizeof *buf);
    for (int k = 0; k < qs.packets; k++) {
        struct {
            int status, canary;
        } st = {-7, 0x5a5a5a5a};
        int tag = -1;
        bsp_get_tag(&st.status, &tag);
        SPMD_CHECK(st.canary == 0x5a5a5a5a);
        SPMD_CHECK(tag >= 0 && tag < p && sends_to(tag, s) && !seen[tag]);
        if (!(tag >= 0 && tag < p))
            break;
        seen[tag] = 1;
        SPMD_CHECK(st.status == (tag + 1) * SZINT);
        memset(buf, 0xff, (size_t)p * sizeof *buf);
        (k % 2 ? bsp_move : std_move)(buf, st.status);
        for (int j = 0; j <= tag; j++)
            SPMD_CHECK(buf[j] == 100 * tag + j);
    }
    int status = 0;
    std_get_tag(&status, NULL);
    SPMD_CHECK(status == -1); /* the queue is empty: the standard's −1 */
    std_qsize(&qs.packets, NULL);
    SPMD_CHECK(qs.packets == 0);
    /* The standard's types are int here (as in BSPonMPI): the whole of
     * each variable is written, whatever was in it before. */
    bsp_size_t empty_n = -7, empty_bytes = -7;
    bsp_pid_t me = bsp_pid();
    bsp_nprocs_t procs = bsp_nprocs();
    SPMD_CHECK(sizeof empty_n == sizeof(int) && sizeof me == sizeof(int) &&
               sizeof procs == sizeof(int) && me == s && procs == p);
    bsp_qsize(&empty_n, &empty_bytes);
    SPMD_CHECK(empty_n == 0 && empty_bytes == 0);

    /* The same exchange once more, read with bsp_hpmove (and the hp twins). */
    for (int t = 0; t < p; t++)
        if (sends_to(s, t))
            std_hpsend(t, &s, data, (s + 1) * SZINT);
    bsp_sync();
    int got = 0;
    void *tagp, *payp;
    int n;
    while ((n = std_hpmove(&tagp, &payp)) != -1) {
        int tag;
        memcpy(&tag, tagp, sizeof tag);
        SPMD_CHECK(tag >= 0 && tag < p && n == (tag + 1) * SZINT);
        if (tag >= 0 && tag < p)
            for (int j = 0; j <= tag; j++)
                SPMD_CHECK(((const int *)payp)[j] == 100 * tag + j);
        got++;
    }
    SPMD_CHECK(got == expect_n);

    ts.tagsize = 0;
    std_set_tagsize(&ts.tagsize);
    SPMD_CHECK(ts.tagsize == SZINT);
    bsp_sync();
    free(buf);
    free(seen);
    free(data);
}

/* The inner product of 1..N with itself, cyclically distributed (BSPedupack's
 * bspinprod), against n(n+1)(2n+1)/6. */
static void inprod(void)
{
    const int n = 1001;
    int p = bsp_nprocs(), s = bsp_pid();
    double *partial = calloc((size_t)p, sizeof *partial);
    bsp_push_reg(partial, p * SZDBL);
    bsp_sync();
    double alpha = 0;
    for (int i = s; i < n; i += p)
        alpha += (double)(i + 1) * (i + 1);
    for (int t = 0; t < p; t++)
        bsp_put(t, &alpha, partial, s * SZDBL, SZDBL);
    bsp_sync();
    double sum = 0;
    for (int t = 0; t < p; t++)
        sum += partial[t];
    SPMD_CHECK(sum == (double)n * (n + 1) * (2 * n + 1) / 6);
    bsp_pop_reg(partial);
    bsp_sync();
    free(partial);
}

/* reverse: x on process s ends up holding p − 1 − s, put there by its mirror;
 * then each process reads its mirror's x back with a get (and an hpget). */
static void reverse(void)
{
    int p = bsp_nprocs(), s = bsp_pid();
    int x = s, back = -1, hback = -1;
    std_push_reg(&x, SZINT);
    bsp_sync();
    std_put(p - 1 - s, &x, &x, 0, SZINT);
    bsp_sync();
    SPMD_CHECK(x == p - 1 - s);
    std_get(p - 1 - s, &x, 0, &back, SZINT);
    std_hpget(p - 1 - s, &x, 0, &hback, SZINT);
    bsp_sync();
    SPMD_CHECK(back == s && hback == s);
    /* An int array: process s writes its pid at index s of its mirror's. */
    int *a = malloc((size_t)p * sizeof *a);
    for (int k = 0; k < p; k++)
        a[k] = -1;
    bsp_push_reg(a, p * SZINT);
    bsp_sync();
    std_hpput(p - 1 - s, &s, a, s * SZINT, SZINT);
    bsp_sync();
    for (int k = 0; k < p; k++)
        SPMD_CHECK(a[k] == (k == p - 1 - s ? k : -1));
    bsp_pop_reg(a);
    bsp_pop_reg(&x);
    bsp_sync();
    free(a);
}

static void spmd(void)
{
    std_begin(P);
    if (bsp_pid() == 0) /* main's P is pid 0's: BSPlib gives the others its value */
        SPMD_CHECK(std_nprocs() == P);
    SPMD_CHECK(bsp_pid() >= 0 && bsp_pid() < std_nprocs());
    allgather();
    inprod();
    reverse();
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    CHECK(bsp_nprocs() >= 1); /* outside a section: the cores, as an int */
    for (P = 1; P <= 8; P++) {
        spmd();
        int f = atomic_exchange(&failures, 0);
        if (f)
            fprintf(stderr, "P=%d: %d failed checks in the processes\n", P, f);
        CHECK(f == 0);
    }
    return check_report("test_bsplib_compat");
}
