/* The host collectives (machine_internal.h): over MPI a rank holds its own
 * components' state, and these give every rank everyone's, in the machine's
 * words — which components a rank holds — on the router's merge and concat.
 * Unless the machine is spread they return at once: a machine on one
 * process, or run whole on every rank, holds everything already. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "bsp/machine_internal.h"
#include "router/router.h"

static void merge(bspram_machine *m, uint64_t *words, size_t n, bspram_merge_op op, const char *call)
{
    BSPRAM_NONNULL_AS(call, "m", m);
    if (n > 0) /* nothing to merge: NULL is fine */
        BSPRAM_NONNULL_AS(call, "words", words);
    if (bspram__bsp_machine_spread(m))
        bspram__router_merge(bspram__bsp_machine_router(m), words, n, op);
}

void bspram__bsp_machine_sum(bspram_machine *m, uint64_t *words, size_t n)
{
    merge(m, words, n, BSPRAM_MERGE_SUM, __func__);
}

void bspram__bsp_machine_or(bspram_machine *m, uint64_t *words, size_t n)
{
    merge(m, words, n, BSPRAM_MERGE_OR, __func__);
}

void *bspram__bsp_machine_concat(bspram_machine *m, const void *mine, size_t bytes, size_t *total)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(total);
    if (bytes > 0) /* nothing of its own: NULL is fine */
        BSPRAM_NONNULL(mine);
    if (bspram__bsp_machine_spread(m))
        return bspram__router_concat(bspram__bsp_machine_router(m), mine, bytes, total);
    void *all = bspram__base_malloc(bytes ? bytes : 1, "gathering the ranks' parts");
    if (bytes)
        memcpy(all, mine, bytes);
    *total = bytes;
    return all;
}

/* The words other ranks own are zeroed, so the OR of the ranks' copies is
 * each word's owner's value (and the value every rank holds of a word owned
 * by none). */
void bspram__bsp_machine_share_owned(bspram_machine *m, uint64_t *words, size_t n,
                                     uint64_t (*owner)(uint64_t i, const void *arg), const void *arg)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(owner);
    if (n > 0)
        BSPRAM_NONNULL(words);
    if (!bspram__bsp_machine_spread(m))
        return;
    uint64_t first, end;
    bspram__bsp_machine_block(m, &first, &end);
    for (size_t i = 0; i < n; i++) {
        const uint64_t c = owner(i, arg);
        if (c != BSPRAM__BSP_EVERY_RANK && (c < first || c >= end))
            words[i] = 0;
    }
    bspram__bsp_machine_or(m, words, n);
}

/* The ranks' blocks of components are in rank order, so are their parts:
 * concatenated, they are the whole array. */
void bspram__bsp_machine_share_parts(bspram_machine *m, void *base, size_t size, const uint64_t *at,
                                     bool (*only)(uint64_t i, const void *arg), const void *arg)
{
    BSPRAM_NONNULL(m);
    const uint64_t p = bspram_machine_p(m);
    const size_t n = (size_t)(at ? at[p] : p);
    if (n > 0 && size > 0) /* nothing to share: NULL is fine */
        BSPRAM_NONNULL(base);
    if (!bspram__bsp_machine_spread(m))
        return;
    uint64_t first, end;
    bspram__bsp_machine_block(m, &first, &end);
    const size_t lo = (size_t)(at ? at[first] : first), hi = (size_t)(at ? at[end] : end);
    unsigned char *whole = base;
    size_t total;
    unsigned char *all = bspram__bsp_machine_concat(m, whole + lo * size, (hi - lo) * size, &total);
    if (total != n * size)
        bspram__base_fatal("sharing the ranks' parts: they make %zu bytes, not the "
                           "%zu of %zu elements of %zu bytes (offsets that differ between ranks?)",
                           total, n * size, n, size);
    if (!only) {
        if (total)
            memcpy(whole, all, total);
        free(all);
        return;
    }
    uint8_t *mine = bspram__base_malloc(hi - lo + 1, "sharing the ranks' parts");
    for (size_t i = lo; i < hi; i++)
        mine[i - lo] = only(i, arg);
    size_t nf;
    uint8_t *flags = bspram__bsp_machine_concat(m, mine, hi - lo, &nf);
    for (size_t i = 0; i < nf; i++)
        if (flags[i] && (i < lo || i >= hi))
            memcpy(whole + i * size, all + i * size, size);
    free(flags);
    free(mine);
    free(all);
}
