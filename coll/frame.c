/* The collectives' frame: a call's rounds as bsp_syncs (coll_internal.h).
 *
 * Each round's barrier carries, in the tag OR that every exchange computes
 * anyway (router.h), three things at no extra cost:
 *   - that the process is in a collective (the bsp layer reports a process
 *     in bsp_sync or bsp_end against it);
 *   - MORE: the process has a round after this one. Groups of different
 *     sizes need different numbers of rounds, but bsp_sync is global: a
 *     process whose schedule is done keeps ending rounds, with nothing to
 *     send, until a round's OR shows no MORE — so a group call takes exactly
 *     as many supersteps as its longest schedule, and nobody needs to know
 *     the other groups;
 *   - the arguments' 9-bit signature s, as s and its complement ~s: where
 *     every process has the same s, OR(s) & OR(~s) = 0; a bit on which two
 *     processes differ shows in both. The call's code takes 4 bits of s, so
 *     two different collectives are always told apart; the other 5 hash the
 *     arguments that must agree on the whole machine (different arguments
 *     slip through with probability 1/32, and then mostly fail otherwise).
 *     Only on a mismatch do processes exchange their calls' text (one
 *     barrier) to report both.
 */
#include <stdarg.h>
#include <stdio.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.h"
#include <unistd.h>

#include "coll/coll_internal.h"

enum {
    TAG_MORE = 1u << 9,
    SIG_SHIFT = 10,    /* s in bits 10..18 */
    NSIG_SHIFT = 19,   /* ~s in bits 19..27 */
    SIG_MASK = 0x1ffu,
};

static unsigned signature(unsigned code, const uint64_t *words, size_t n, int grouped)
{
    unsigned s = code & 15u;
    if (!grouped && n)
        s |= (unsigned)(XXH3_64bits(words, n * sizeof *words) & 31u) << 4;
    return s;
}

void coll_begin(coll_call *c, bsplib_proc *me, const char *name, const bsp_coll_group *g,
                unsigned code, const uint64_t *sig_words, size_t nsig, const coll_desc *desc)
{
    c->me = me;
    c->name = name;
    c->grouped = g != NULL;
    c->n = g ? g->n : me->p;
    c->rank = g ? g->rank : me->pid;
    c->members = g ? g->members : NULL;
    c->sig = signature(code, sig_words, nsig, c->grouped);
    c->then = 0;
    c->rounds = 0;
    c->more = 0;
    c->desc = desc;
    if (me->pid == me->world->lo) /* the rank's first process keeps the log */
        me->coll_log[0] = bspram_router_log(me->router)->n;
}

void coll_window(coll_call *c, void *base, size_t size) { bsplib_coll_window(c->me, base, size); }

void coll_put(coll_call *c, unsigned to, size_t offset, const void *src, size_t n)
{
    unsigned pid = c->members ? c->members[to] : to;
    bsplib_coll_put(c->me, pid, offset, src, n, c->name);
}

/* Processes called with different arguments: each publishes its call
 * (without its buffers, which may differ), the calls are gathered, and pid
 * 0's rank reports the pair (pid 0 and the first that differs from it). */
static _Noreturn void disagree(const coll_call *c)
{
    bsplib_proc *me = c->me;
    char args[160];
    coll_describe(c, args, sizeof args, 0);
    snprintf(me->published, sizeof me->published, "%s(%s)", c->name, args);
    const char(*calls)[sizeof me->published] =
        (const char(*)[sizeof me->published])bsplib_gather(me, me->published, sizeof me->published);
    const bsplib_world *w = me->world;
    if (!calls) /* the rank's first process reports it */
        for (;;)
            pause();
    unsigned q = 1;
    while (q < w->p && strcmp(calls[q], calls[0]) == 0)
        q++;
    if (q == w->p)
        q = 1;
    bsplib_fatal_agreed(w, "%.*s: processes disagree in superstep %llu: pid 0 called %s but pid %u "
                        "called %s; every process must pass the same arguments",
                        (int)strcspn(calls[0], "("), calls[0], (unsigned long long)me->superstep,
                        calls[0], q, calls[q]);
}

/* Right after the round's barrier, before its puts land. */
static void check_signatures(void *arg, unsigned all)
{
    if ((all >> SIG_SHIFT) & (all >> NSIG_SHIFT) & SIG_MASK)
        disagree(arg);
}

void coll_round(coll_call *c, bool last)
{
    unsigned bits = c->sig << SIG_SHIFT | (~c->sig & SIG_MASK) << NSIG_SHIFT |
                    (!last || c->then ? TAG_MORE : 0);
    unsigned all = bsplib_coll_sync(c->me, c->name, bits, c->rounds == 0, check_signatures, c);
    c->rounds++;
    c->more = all & TAG_MORE;
}

void coll_end(coll_call *c)
{
    c->then = 0;
    coll_window(c, NULL, 0); /* nothing lands here from now on */
    if (c->grouped && c->rounds == 0)
        coll_round(c, true);
    while (c->more)
        coll_round(c, true);
    bsplib_proc *me = c->me;
    if (me->pid == me->world->lo)
        me->coll_log[1] = bspram_router_log(me->router)->n;
}

void coll_fail(const coll_call *c, const char *fmt, ...)
{
    char msg[512], args[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    coll_describe(c, args, sizeof args, 1);
    bsplib_fatal(c->me, "%s(%s): %s", c->name, args, msg);
}

unsigned coll_ceil_log(uint64_t n, uint64_t base)
{
    unsigned d = 0;
    for (uint64_t span = 1; span < n; d++)
        span = span > n / base ? n : span * base;
    return d;
}
