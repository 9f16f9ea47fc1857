/* Holding a lane's inboxes across supersteps (bspram__bsp_team_hold_inbox,
 * bspram__bsp_team_restore_inbox): the restored copy equals what was delivered
 * (order, sources, lengths, bytes, 8-byte alignment) after the router's
 * storage has been recycled by two more exchanges; until restored, and
 * again after the next exchange, the inbox is the router's; a hold while a
 * copy is restored keeps it; bspram__bsp_team_inbox and, after the team,
 * bspram_machine_inbox give the copy; records do not change; lanes with
 * empty blocks (T > p); the SPMD style; restore without a hold is fatal. */
#include <string.h>

#include "check.h"
#include "pattern.h"
#include "bsp/machine_internal.h"

typedef struct run {
    pattern pt;
    expected e[5]; /* the inboxes of pattern supersteps 0..4 */
} run;

typedef struct sent_step {
    run *r;
    uint64_t s;     /* the pattern superstep to send, or UINT64_MAX: none */
    uint64_t check; /* the pattern superstep the inbox must equal, or UINT64_MAX: empty */
} sent_step;

static int aligned(const bspram_message *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((uintptr_t)in[i].data % 8 != 0)
            return 0;
    return 1;
}

static bool step(bspram_component *c, void *arg)
{
    const sent_step *x = arg;
    uint64_t pid = bspram_pid(c);
    const bspram_message *in;
    size_t n = bspram_inbox(c, &in);
    if (x->check == UINT64_MAX)
        CHECK_EQ_U64(n, 0);
    else
        CHECK(inbox_matches(&x->r->e[x->check], x->check, pid, in, n) && aligned(in, n));
    if (x->s != UINT64_MAX)
        pattern_send(c, &x->r->pt, x->s, pid);
    return false;
}

/* Every component of the lane checks its inbox against pattern superstep
 * `check` through bspram__bsp_team_inbox as well. */
static void team_check(bspram_team *t, run *r, uint64_t check)
{
    for (uint64_t pid = bspram__bsp_team_first(t); pid < bspram__bsp_team_end(t); pid++) {
        const bspram_message *in;
        size_t n = bspram__bsp_team_inbox(t, pid, &in);
        CHECK(inbox_matches(&r->e[check], check, pid, in, n));
    }
}

static void superstep(bspram_team *t, run *r, uint64_t send, uint64_t check)
{
    sent_step x = {r, send, check};
    bspram__bsp_team_each(t, step, &x);
    bspram__bsp_team_exchange(t, 0);
}

static void lane(bspram_team *t, void *arg)
{
    run *r = arg;
    const uint64_t none = UINT64_MAX;
    superstep(t, r, 0, none);          /* delivers e0 */
    team_check(t, r, 0);
    bspram__bsp_team_hold_inbox(t);
    superstep(t, r, 1, 0);             /* the router's inbox until restored: e0 */
    superstep(t, r, 2, 1);             /* delivers e2: both parities recycled */
    bspram__bsp_team_restore_inbox(t);
    team_check(t, r, 0);
    sent_step x = {r, none, 0};
    bspram__bsp_team_each(t, step, &x);     /* the steps see the held e0 */
    bspram__bsp_team_hold_inbox(t);         /* restored: the copy stays */
    team_check(t, r, 0);
    superstep(t, r, 3, 0);             /* delivers e3, the copy is no longer the inbox */
    team_check(t, r, 3);
    bspram__bsp_team_hold_inbox(t);         /* holds e3 */
    superstep(t, r, 4, 3);             /* delivers e4 */
    superstep(t, r, none, 4);          /* delivers nothing */
    bspram__bsp_team_restore_inbox(t);      /* e3 again, also for the host */
}

static void check_machine(uint64_t p, int threads)
{
    run r = {.pt = {.seed = 11, .p = p, .max_per_component = 6, .max_len = 45}};
    for (uint64_t s = 0; s < 5; s++)
        expected_build(&r.e[s], &r.pt, s);
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = threads;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram__bsp_machine_team(m, lane, &r);
    for (uint64_t pid = 0; pid < p; pid++) {
        const bspram_message *in;
        size_t n = bspram_machine_inbox(m, pid, &in);
        CHECK(inbox_matches(&r.e[3], 3, pid, in, n));
    }
    /* Holding is invisible to the records: six supersteps of the pattern. */
    size_t nrec;
    const bspram_record *rec = bspram_machine_records(m, &nrec);
    CHECK_EQ_U64(nrec, 6);
    for (size_t s = 0; s < nrec && s < 5; s++) {
        CHECK_EQ_U64(rec[s].messages, r.e[s].messages);
        CHECK_EQ_U64(rec[s].q, r.e[s].q);
        CHECK_EQ_U64(rec[s].r, r.e[s].r);
    }
    /* The next run's first step sees the copy; its exchange ends that. */
    sent_step x = {&r, UINT64_MAX, 3};
    bspram_machine_superstep(m, step, &x);
    for (uint64_t pid = 0; pid < p; pid++) {
        const bspram_message *in;
        CHECK_EQ_U64(bspram_machine_inbox(m, pid, &in), 0);
    }
    bspram_machine_destroy(m);
    for (uint64_t s = 0; s < 5; s++)
        expected_free(&r.e[s]);
}

/* SPMD: p = T, each component its own lane. */
static void spmd(bspram_component *self, void *arg)
{
    run *r = arg;
    uint64_t pid = bspram_pid(self);
    const bspram_message *in;
    bspram_team *t = bspram__bsp_component_team(self);
    pattern_send(self, &r->pt, 0, pid);
    bspram__bsp_sync(self, 0);
    bspram__bsp_team_hold_inbox(t);
    pattern_send(self, &r->pt, 1, pid);
    bspram__bsp_sync(self, 0);
    pattern_send(self, &r->pt, 2, pid);
    bspram__bsp_sync(self, 0);
    size_t n = bspram_inbox(self, &in);
    CHECK(inbox_matches(&r->e[2], 2, pid, in, n));
    bspram__bsp_team_restore_inbox(t);
    n = bspram_inbox(self, &in);
    CHECK(inbox_matches(&r->e[0], 0, pid, in, n) && aligned(in, n));
    bspram__bsp_sync(self, 0);
    CHECK_EQ_U64(bspram_inbox(self, &in), 0);
}

static void check_spmd(uint64_t p)
{
    run r = {.pt = {.seed = 5, .p = p, .max_per_component = 5, .max_len = 300}};
    for (uint64_t s = 0; s < 3; s++)
        expected_build(&r.e[s], &r.pt, s);
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = (int)p;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram__bsp_machine_spmd(m, spmd, &r);
    bspram_machine_destroy(m);
    for (uint64_t s = 0; s < 3; s++)
        expected_free(&r.e[s]);
}

static void restore_first(bspram_team *t, void *arg)
{
    (void)arg;
    bspram__bsp_team_exchange(t, 0);
    bspram__bsp_team_restore_inbox(t);
}

static void restore_without_hold(void *arg)
{
    (void)arg;
    bspram_config cfg = bspram_config_default(4);
    cfg.threads = 1;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram__bsp_machine_team(m, restore_first, NULL);
}

int main(void)
{
    check_machine(7, 1);
    check_machine(7, 2);
    check_machine(7, 3);
    check_machine(40, 4);
    check_machine(2, 3); /* lane 2 serves no component */
    check_spmd(3);
    check_death("restore without hold", restore_without_hold, NULL,
                "bspram: internal error: lane 0 restores an inbox it never held (superstep 1)\n", 1, 20);
    return check_report("test_machine_hold");
}
