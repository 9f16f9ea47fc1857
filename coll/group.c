/* Groups: a partition of the processes, made collectively and checked once.
 *
 * Every process names its group's members; they agree if each member of a
 * group names the same list. Each process puts (n, hash of its list) to the
 * other members of its list, into slot `pid` of their windows, and each
 * checks it received exactly its other members' pairs, all equal to its
 * own. A process missing from a list it should be in, or in a list that
 * should not name it, or a list that differs, is then seen by some member —
 * in one superstep, whatever the partition. The lists' text is published
 * before the round so that the line can quote both lists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.h"
#include "coll/coll_internal.h"

/* A process's verdict on the lists of its group (bsp_coll_group_create). */
enum { VERDICT_NONE, VERDICT_DIFFERS, VERDICT_OUTSIDE };
typedef struct verdict {
    uint32_t kind;
    uint32_t other;  /* VERDICT_DIFFERS: the member whose list differs */
    char list[112];  /* this process's list, as text */
} verdict;

static const char CALL[] = "bsp_coll_group_create";
#define BAD_LIST (1u << 9) /* a tag bit of the verdict barrier */

void bspram__coll_list_text(char *buf, size_t len, const bsp_pid_t *m, unsigned n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (bsp_pid_t i = 0; i < n; i++) {
        int k = snprintf(buf + used, len - used, i ? " %u" : "%u", m[i]);
        if (k < 0 || (size_t)k >= len - used - 4) {
            snprintf(buf + used, len - used, " …");
            return;
        }
        used += (size_t)k;
    }
    if (n == 0)
        snprintf(buf, len, "(none)");
}

bsp_coll_group *bsp_coll_group_create(const bsp_pid_t *members, bsp_pid_t n)
{
    bsplib_proc *me = bsplib_me("bsp_coll_group_create");
    unsigned P = me->p;
    if (!members && n)
        bspram__bsp_bsplib_fatal(me, "%s(members=NULL, n=%u): members is NULL", CALL, n);
    if (n > P)
        bspram__bsp_bsplib_fatal(me, "%s(members=%p, n=%u): n is above the %u processes", CALL,
                     (const void *)members, n, P);
    unsigned char *seen = calloc(P, 1);
    if (!seen)
        bspram__base_fatal("%s: out of memory", CALL);
    unsigned rank = n;
    for (bsp_pid_t i = 0; i < n; i++) {
        if (members[i] >= P || seen[members[i]]) {
            free(seen);
            bspram__bsp_bsplib_fatal(me, "%s(members=%p, n=%u): members[%u] = %u is %s", CALL,
                         (const void *)members, n, i, members[i],
                         members[i] >= P ? "not a pid" : "repeated");
        }
        seen[members[i]] = 1;
        if (members[i] == me->pid)
            rank = i;
    }
    free(seen);
    if (n && rank == n)
        bspram__bsp_bsplib_fatal(me, "%s(members=%p, n=%u): this process (pid %u) is not in its list", CALL,
                     (const void *)members, n, me->pid);

    bsp_coll_group *g = bspram__base_malloc(sizeof *g, CALL);
    g->n = n;
    g->rank = rank;
    g->members = bspram__base_malloc((n ? n : 1) * sizeof *g->members, CALL);
    if (n)
        memcpy(g->members, members, n * sizeof *members);

    /* The round: (n, hash) to every other member, into slot pid. */
    g->hash = XXH3_64bits(members, n * sizeof *members);
    uint64_t mine[2] = {n, g->hash};
    uint64_t *slots = bspram__coll_scratch(me, 0, (size_t)P * sizeof mine);
    for (bsp_pid_t i = 0; i < n; i++)
        slots[2 * members[i]] = 0;
    char list[100];
    bspram__coll_list_text(list, sizeof list, members, n); /* short enough for two in a line */
    char text[64];
    snprintf(text, sizeof text, "members=%p, n=%u", (const void *)members, n);
    coll_desc desc = {.text = text};
    coll_call c;
    bspram__coll_begin(&c, me, CALL, NULL, COLL_CODE_GROUP, NULL, 0, &desc);
    bspram__coll_window(&c, slots, (size_t)P * sizeof mine);
    for (bsp_pid_t i = 0; i < n; i++)
        if (members[i] != me->pid)
            bspram__coll_put(&c, members[i], (size_t)me->pid * sizeof mine, mine, sizeof mine);
    bspram__coll_round(&c, true);
    bspram__coll_end(&c);

    /* This process's verdict: the first member whose list differs from
     * ours, or a list outside ours that names us (more pairs than members
     * sent: which one is not known, as slots beyond the members' are not
     * cleared, which would cost O(P) per process). If anyone has one, the
     * verdicts and the lists' text are gathered and the lowest pid's verdict
     * is the line, printed by pid 0's rank. */
    verdict mine_v = {VERDICT_NONE, 0, ""};
    for (bsp_pid_t i = 0; i < n && mine_v.kind == VERDICT_NONE; i++) {
        unsigned q = members[i];
        if (q != me->pid && (slots[2 * q] != mine[0] || slots[2 * q + 1] != mine[1]))
            mine_v = (verdict){VERDICT_DIFFERS, q, ""};
    }
    if (mine_v.kind == VERDICT_NONE && me->window_puts != (n ? n - 1 : 0))
        mine_v.kind = VERDICT_OUTSIDE;
    if (bspram__bsp_bsplib_barrier(me, mine_v.kind != VERDICT_NONE ? BAD_LIST : 0)) {
        snprintf(mine_v.list, sizeof mine_v.list, "%.100s", list);
        const verdict *all = bspram__bsp_bsplib_gather(me, &mine_v, sizeof mine_v);
        if (!all)
            for (;;)
                pause();
        const bsplib_world *w = me->world;
        unsigned s = 0;
        while (all[s].kind == VERDICT_NONE)
            s++;
        char why[320];
        if (all[s].kind == VERDICT_DIFFERS)
            snprintf(why, sizeof why, "pid %u names members %.100s but pid %u names %.100s", s,
                     all[s].list, all[s].other, all[all[s].other].list);
        else
            snprintf(why, sizeof why, "pid %u names members %.100s, but a process outside that list "
                     "names pid %u as a member", s, all[s].list, s);
        bspram__bsp_bsplib_fatal_agreed(w, "%s: %s; every member of a group must name the same list (superstep "
                            "%llu)", CALL, why, (unsigned long long)me->superstep - 1);
    }
    return g;
}

void bsp_coll_group_destroy(bsp_coll_group *g)
{
    if (!g)
        return;
    free(g->members);
    free(g);
}

bsp_pid_t bsp_coll_group_size(const bsp_coll_group *g)
{
    return g ? g->n : bsplib_me("bsp_coll_group_size")->p;
}

bsp_pid_t bsp_coll_group_rank(const bsp_coll_group *g)
{
    return g ? g->rank : bsplib_me("bsp_coll_group_rank")->pid;
}
