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
 *     arguments that must agree (different arguments slip through with
 *     probability 1/32, and then mostly fail otherwise: a put past the end
 *     of a window names the disagreement too, bsplib_coll.c). A group call
 *     hashes its own arguments (what the user passed: the members of a
 *     group pick the same algorithm for the same arguments) with another
 *     seed, and a process in a group of fewer than two vouches for its code
 *     only: it has no one to agree with.
 * Where the OR shows a difference, the processes compare their calls (one
 * gather and a barrier, no record, no superstep): on the whole machine every
 * difference is fatal; in a group call only a difference between members of
 * one group is — different groups may pass different arguments (each row
 * its own root), and then the call goes on, its records those it would have
 * had, and its later rounds check the code alone. A fatal difference is one
 * line, printed before anything of the round lands: both calls in full, the
 * arguments that differ, the pids, the group and the superstep.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include <unistd.h>

#include "coll/coll_internal.h"
#include "router/router.h"

enum {
    TAG_MORE = COLL_TAG_MORE,
    SIG_SHIFT = COLL_SIG_SHIFT,   /* s in bits 10..18 */
    NSIG_SHIFT = COLL_NSIG_SHIFT, /* ~s in bits 19..27 */
    SIG_MASK = 0x1ffu,
    CODE_MASK = 15u,   /* the call's code, in the low 4 bits of s */
    TAG_FATAL = 1u << 9, /* of the agreement's barrier: a difference is fatal */
};

void bspram__coll_signature(const bsp_coll_group *g, unsigned code, const uint64_t *sig_words, size_t nsig,
                            unsigned *sig, unsigned *mask)
{
    const unsigned nwords = nsig < COLL_SIG_WORDS ? (unsigned)nsig : COLL_SIG_WORDS; /* the callers' ≤ 7 */
    *sig = code & CODE_MASK;
    *mask = CODE_MASK;
    if (nsig && (!g || g->n >= 2)) {
        /* 5 bits of the arguments: the words folded by rotate-and-xor (a
         * difference in one word always changes the fold), then
         * SplitMix64's finalizer (every bit reaches the top 5, which are
         * kept) — a third of the instructions of XXH3 on 56 bytes; the
         * check rides on every call, the 8-byte ones too. */
        uint64_t h = g ? 0x67 : 0;
        for (unsigned i = 0; i < nwords; i++)
            h = (h << 9 | h >> 55) ^ sig_words[i];
        h = (h ^ (h >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        h = (h ^ (h >> 27)) * UINT64_C(0x94D049BB133111EB);
        h ^= h >> 31;
        *sig |= (unsigned)(h >> 59) << 4;
        *mask = SIG_MASK;
    }
}

void bspram__coll_begin(coll_call *c, bsplib_proc *me, const char *name, const bsp_coll_group *g,
                unsigned code, const uint64_t *sig_words, size_t nsig, const coll_desc *desc)
{
    c->me = me;
    c->name = name;
    c->grouped = g != NULL;
    c->n = g ? g->n : me->p;
    c->rank = g ? g->rank : me->pid;
    c->members = g ? g->members : NULL;
    c->group = g;
    c->desc = desc;
    unsigned sig, mask;
    bspram__coll_signature(g, code, sig_words, nsig, &sig, &mask);
    bspram__coll_open(c, sig, mask, sig_words, nsig);
}

void bspram__coll_put_ref(coll_call *c, unsigned to, size_t offset, const void *src, size_t n)
{
    unsigned pid = c->members ? c->members[to] : to;
    bspram__bsp_bsplib_coll_put_ref(c->me, pid, offset, src, n, c->name);
}

/* ---- the agreement, where the signatures differ ----
 * Every process brings its claim (what its call is, on which group, with
 * which arguments); the first process of each rank judges them all alike.
 * Only if the judgement is fatal do the processes bring their calls' text
 * too, for the line. */

typedef struct claim {
    uint32_t code, grouped;
    uint32_t n, first;   /* the group's size and first member (no group: this pid) */
    uint64_t group_hash; /* of its member list */
    uint32_t nwords, pad;
    uint64_t words[COLL_SIG_WORDS];
} claim;

enum { SAME, CALLS, ARGS, GROUPS, GROUP_ARGS }; /* what differs */

typedef struct judgement {
    int kind;
    unsigned p, q;   /* the two pids of the line */
    char names[96];  /* the arguments that differ: "size and root" */
} judgement;

typedef struct call_text {
    char call[200];  /* bsp_coll_broadcast(size=8, root=0) */
    char group[112]; /* 0 1 2 3, or "" on the whole machine */
} call_text;

static int words_differ(const claim *a, const claim *b)
{
    return a->nwords != b->nwords || memcmp(a->words, b->words, a->nwords * sizeof *a->words) != 0;
}

/* "size", "size and root", "size, root and ports": the words that differ. */
static void differing_names(const coll_call *c, const claim *a, const claim *b, char *buf,
                            size_t len)
{
    const char *const *names = c->desc ? c->desc->names : NULL;
    unsigned idx[COLL_SIG_WORDS], k = 0;
    for (unsigned i = 0; i < a->nwords && i < b->nwords; i++)
        if (a->words[i] != b->words[i])
            idx[k++] = i;
    buf[0] = '\0';
    size_t used = 0;
    for (unsigned j = 0; j < k && used < len; j++) {
        char unnamed[16];
        const char *name = names && names[idx[j]] ? names[idx[j]] : unnamed;
        if (name == unnamed)
            snprintf(unnamed, sizeof unnamed, "argument %u", idx[j] + 1);
        int w = snprintf(buf + used, len - used, "%s%s", j == 0 ? "" : j + 1 == k ? " and " : ", ",
                         name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

static judgement judge(const coll_call *c, const claim *all, unsigned p)
{
    judgement v = {SAME, 0, 0, ""};
    for (unsigned q = 1; q < p; q++)
        if (all[q].code != all[0].code || all[q].grouped != all[0].grouped)
            return (judgement){CALLS, 0, q, ""};
    for (unsigned q = 0; q < p && v.kind == SAME; q++) {
        unsigned f = all[0].grouped ? all[q].first : 0;
        if (f >= p || f == q)
            continue;
        if (all[q].n != all[f].n || all[q].group_hash != all[f].group_hash)
            v = (judgement){GROUPS, f, q, ""};
        else if (words_differ(&all[q], &all[f]))
            v = (judgement){all[0].grouped ? GROUP_ARGS : ARGS, f, q, ""};
    }
    if (v.kind == ARGS || v.kind == GROUP_ARGS)
        differing_names(c, &all[v.p], &all[v.q], v.names, sizeof v.names);
    return v;
}

static _Noreturn void report(const coll_call *c, const judgement *v, const call_text *t)
{
    const bsplib_world *w = c->me->world;
    unsigned long long step = (unsigned long long)c->me->superstep;
    const call_text *a = &t[v->p], *b = &t[v->q];
    int name = (int)strcspn(a->call, "(");
    const char *one = v->names[0] && !strstr(v->names, " and ") ? " differs" : " differ";
    switch (v->kind) {
    case CALLS:
        if (!a->group[0] == !b->group[0]) /* two different collectives */
            bspram__bsp_bsplib_fatal_agreed(w, "%.*s: processes disagree in superstep %llu: pid %u called %s "
                                "but pid %u called %s; every process must pass the same arguments",
                                name, a->call, step, v->p, a->call, v->q, b->call);
        bspram__bsp_bsplib_fatal_agreed(w, "%.*s: processes disagree in superstep %llu: pid %u called %s %s%s "
                            "but pid %u called %s %s%s; every process must call it on all "
                            "processes, or every one on its group",
                            name, a->call, step, v->p, a->call,
                            a->group[0] ? "on the group " : "on all processes", a->group, v->q,
                            b->call, b->group[0] ? "on the group " : "on all processes", b->group);
    case ARGS:
        bspram__bsp_bsplib_fatal_agreed(w, "%.*s: processes disagree in superstep %llu: pid %u called %s but "
                            "pid %u called %s (the %s%s); every process must pass the same "
                            "arguments", name, a->call, step, v->p, a->call, v->q, b->call,
                            v->names, one);
    case GROUPS:
        bspram__bsp_bsplib_fatal_agreed(w, "%.*s: members of a group disagree in superstep %llu: pid %u called "
                            "%s on the group %s but pid %u called it on the group %s; every "
                            "member of a group must pass that group", name, a->call, step, v->q,
                            b->call, b->group, v->p, a->group);
    default:
        bspram__bsp_bsplib_fatal_agreed(w, "%.*s: members of a group disagree in superstep %llu: pid %u called "
                            "%s but pid %u called %s (the %s%s; the group: %s); every member of a "
                            "group must pass the same arguments", name, a->call, step, v->p,
                            a->call, v->q, b->call, v->names, one, a->group);
    }
}

/* The signatures differ: compare the calls. Returns if only different
 * groups differ; else one line, and the job ends. Collective. */
static void calls_agree(coll_call *c)
{
    bsplib_proc *me = c->me;
    const bsp_coll_group *g = c->group;
    claim mine;
    memset(&mine, 0, sizeof mine);
    mine.code = c->sig & CODE_MASK;
    mine.grouped = (uint32_t)c->grouped;
    mine.n = c->n;
    mine.first = g && g->n ? g->members[0] : me->pid;
    mine.group_hash = g ? g->hash : 0;
    mine.nwords = c->nwords;
    if (c->nwords)
        memcpy(mine.words, c->words, c->nwords * sizeof *c->words);
    const claim *all = bspram__bsp_bsplib_gather(me, &mine, sizeof mine);
    judgement v = {SAME, 0, 0, ""};
    if (all) /* the rank's first process: every rank's judges alike */
        v = judge(c, all, me->world->p);
    if (!bspram__bsp_bsplib_barrier(me, v.kind != SAME ? TAG_FATAL : 0))
        return;
    call_text t;
    char args[160];
    bspram__coll_describe(c, args, sizeof args, 0);
    snprintf(t.call, sizeof t.call, "%s(%s)", c->name, args);
    t.group[0] = '\0';
    if (g)
        bspram__coll_list_text(t.group, 100, g->members, g->n);
    const call_text *texts = bspram__bsp_bsplib_gather(me, &t, sizeof t);
    if (!texts) /* the rank's first process reports it */
        for (;;)
            pause();
    report(c, &v, texts);
}

void bspram__coll_check_signatures(void *arg, unsigned all)
{
    if ((all >> SIG_SHIFT) & (all >> NSIG_SHIFT) & SIG_MASK) {
        coll_call *c = arg;
        calls_agree(c);
        c->mask = CODE_MASK; /* different groups differ: the later rounds check the code */
        c->tag = coll_sig_tag(c->sig, c->mask);
    }
}

/* ---- the process's state (BSPLIB_EXT_COLL) ---- */

static void coll_state_free(void *state)
{
    coll_state *s = state;
    for (unsigned k = 0; k < 3; k++)
        free(s->scratch[k]);
    free(s);
}

coll_state *bspram__coll_state_make(bsplib_proc *me)
{
    coll_state *s = bsplib_ext(me, BSPLIB_EXT_COLL);
    if (!s) {
        s = bspram__base_calloc(1, sizeof *s, "bsp_coll: state");
        bsplib_ext_set(me, BSPLIB_EXT_COLL, s, coll_state_free);
    }
    return s;
}

void *bspram__coll_scratch(bsplib_proc *me, unsigned which, size_t size)
{
    coll_state *s = coll_state_of(me);
    if (size > s->scratch_cap[which]) {
        free(s->scratch[which]);
        size_t cap = size < 4096 ? 4096 : size + size / 2;
        s->scratch[which] = bspram__base_malloc(cap, "bsp_coll: scratch");
        s->scratch_cap[which] = cap;
    }
    return s->scratch[which];
}

void bspram__coll_fail(const coll_call *c, const char *fmt, ...)
{
    char msg[512], args[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bspram__coll_describe(c, args, sizeof args, 1);
    bspram__bsp_bsplib_fatal(c->me, "%s(%s): %s", c->name, args, msg);
}

unsigned bspram__coll_ceil_log(uint64_t n, uint64_t base)
{
    unsigned d = 0;
    for (uint64_t span = 1; span < n; d++)
        span = span > n / base ? n : span * base;
    return d;
}
