/* Misuse of the shared memory of combine/shared.h: each case ends the
 * process with status 1 after exactly one line on stderr, naming the call,
 * its arguments, the superstep (the machine's: combining supersteps count)
 * and the component. The misuse happens in step 1, after a step 0 whose
 * reads cost one forward and one reverse superstep (p = 4: one phase), so
 * step 1 runs in superstep 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "check.h"

/* Run fn(arg) in a child: it must exit with status 1 having written exactly
 * one line to stderr, `line` (killed after 20 s). */
static void die_exactly(const char *name, void (*fn)(void *), void *arg, const char *line)
{
    check_death_status(name, fn, arg, line, 1, 20, 1);
}

enum { P = 4 };

typedef enum {
    READ_NO_SEGMENT, READ_OUT_OF_RANGE, REDUCE_NARROW, REDUCE_UNKNOWN_OP, FETCH_UNKNOWN_OP,
    FETCH_USER_OP_OK_THEN_UNKNOWN, WRITE_POLICY_0, WRITE_POLICY_4, ISSUE_UNKNOWN_KIND,
    ISSUE_UNKNOWN_COMBINING_OP, ISSUE_COMBINING_NARROW, ISSUE_NULL, READ_SELF_NULL, RUN_INSIDE,
    OTHER_OBJECT, TWO_SPECIES, COMMON_CONFLICT
} misuse;

typedef struct world {
    bspram_machine *m;
    bspram_space *s;
    bspram_shared *sh, *other;
    uint32_t seg8, seg4;
    misuse what;
} world;

static world make(int threads)
{
    world w;
    memset(&w, 0, sizeof w);
    bspram_config cfg = bspram_config_default(P);
    cfg.threads = threads;
    cfg.local_bytes = sizeof(uint64_t);
    w.m = bspram_machine_create(&cfg);
    w.s = bspram_space_create(P, BSPRAM_HASH_XXH3, 1);
    w.seg8 = bspram_segment_alloc(w.s, 10, 8, BSPRAM_LAYOUT_HASHED);
    w.seg4 = bspram_segment_alloc(w.s, 10, 4, BSPRAM_LAYOUT_HASHED);
    w.sh = bspram_shared_create(w.m, w.s, NULL);
    return w;
}

static uint64_t user_max(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    return a > b ? a : b;
}

/* Step 0: every component reads a cell. Step 1: component 2 misbehaves. */
static bool step(bspram_component *self, void *arg)
{
    world *w = arg;
    uint64_t c = bspram_pid(self), *mine = bspram_local(self);
    uint64_t s = (*mine)++;
    bspram_shared *sh = w->sh;
    const uint64_t a8 = bspram_address(w->s, w->seg8, 3), a4 = bspram_address(w->s, w->seg4, 1);
    if (s == 0) {
        bspram_shared_read(sh, self, a8);
        return true;
    }
    if (w->what == TWO_SPECIES) { /* every component: its own species on one cell */
        bspram_shared_write(sh, self, a8, 1, c == 1 ? BSPRAM_WRITE_PRIORITY : BSPRAM_WRITE_ARBITRARY);
        return false;
    }
    if (w->what == COMMON_CONFLICT) {
        bspram_shared_write(sh, self, a8, c == 3 ? 9 : 7, BSPRAM_WRITE_COMMON);
        return false;
    }
    if (c != 2)
        return false;
    bspram_request r = {a8, 5, 17, 0};
    switch (w->what) {
    case READ_NO_SEGMENT: bspram_shared_read(sh, self, UINT64_C(77) << BSPRAM_SEGMENT_SHIFT); break;
    case READ_OUT_OF_RANGE: bspram_shared_read(sh, self, a8 + 7); break;
    case REDUCE_NARROW: bspram_shared_reduce(sh, self, a4, 7, 5); break;
    case REDUCE_UNKNOWN_OP: bspram_shared_reduce(sh, self, a8, 30, 5); break;
    case FETCH_UNKNOWN_OP: bspram_shared_fetch(sh, self, a8, 21, 5); break;
    case FETCH_USER_OP_OK_THEN_UNKNOWN:
        CHECK_EQ_U64(bspram_shared_fetch(sh, self, a8, 21, 5), 0); /* the registered one */
        bspram_shared_fetch(sh, self, a8, 22, 5);
        break;
    case WRITE_POLICY_0: bspram_shared_write(sh, self, a8, 5, 0); break;
    case WRITE_POLICY_4: bspram_shared_write(sh, self, a8, 5, 4); break;
    case ISSUE_UNKNOWN_KIND: bspram_shared_issue(sh, self, &r); break;
    case ISSUE_UNKNOWN_COMBINING_OP:
        r.kind = bspram_kind_combine_write(25);
        bspram_shared_issue(sh, self, &r);
        break;
    case ISSUE_COMBINING_NARROW:
        r = (bspram_request){a4, 5, bspram_kind_combine_write(0), 0};
        bspram_shared_issue(sh, self, &r);
        break;
    case ISSUE_NULL: bspram_shared_issue(sh, self, NULL); break;
    case READ_SELF_NULL: bspram_shared_read(sh, NULL, a8); break;
    case RUN_INSIDE: bspram_shared_run(sh, step, w, 0); break;
    case OTHER_OBJECT: bspram_shared_read(w->other, self, a8); break;
    default: break;
    }
    return false;
}

static void in_run(void *arg)
{
    world w = make(2);
    w.what = *(const misuse *)arg;
    if (w.what == FETCH_USER_OP_OK_THEN_UNKNOWN)
        bspram_combiner_add_op(bspram_shared_combiner(w.sh), "umax", user_max, NULL, 0);
    if (w.what == OTHER_OBJECT)
        w.other = bspram_shared_create(w.m, w.s, NULL);
    bspram_shared_run(w.sh, step, &w, 0);
}

/* A bulk step of bspram_machine_run (not a shared run) issues a read. */
static bool plain_read(bspram_component *self, void *arg)
{
    world *w = arg;
    bspram_shared_read(w->sh, self, bspram_address(w->s, w->seg8, 3));
    return false;
}

static bool plain_answers(bspram_component *self, void *arg)
{
    world *w = arg;
    const uint64_t *a;
    bspram_shared_answers(w->sh, self, &a);
    return false;
}

static void outside_run(void *arg)
{
    world w = make(1);
    bspram_machine_run(w.m, arg ? plain_answers : plain_read, &w, 0);
}

/* A component of another machine. */
static void other_machine(void *arg)
{
    (void)arg;
    world w = make(1), v = make(1);
    v.sh = w.sh;
    v.seg8 = w.seg8;
    v.s = w.s;
    bspram_machine_run(v.m, plain_read, &v, 0);
}

static void read_self_null_host(void *arg)
{
    (void)arg;
    world w = make(1);
    bspram_shared_read(w.sh, NULL, bspram_address(w.s, w.seg8, 3));
}

static void answers_of_bad_pid(void *arg)
{
    (void)arg;
    world w = make(1);
    const uint64_t *a;
    bspram_shared_answers_of(w.sh, P, &a);
}

static void step_null(void *arg)
{
    (void)arg;
    world w = make(1);
    bspram_shared_run(w.sh, NULL, NULL, 0);
}

static void create_mismatch(void *arg)
{
    (void)arg;
    world w = make(1);
    bspram_space *s5 = bspram_space_create(P + 1, BSPRAM_HASH_XXH3, 1);
    bspram_shared_create(w.m, s5, NULL);
}

int main(void)
{
    static const struct {
        misuse what;
        const char *line;
    } cases[] = {
        {READ_NO_SEGMENT, "bspram: bspram_shared_read(address=0x4d0000000000): address 0x4d0000000000 is in no "
                          "live segment (segment 77) (superstep 3, component 2)"},
        {READ_OUT_OF_RANGE, "bspram: bspram_shared_read(address=0x1000000000a): address 0x1000000000a: segment 1 "
                            "index 10 out of range [0, 10) (superstep 3, component 2)"},
        {REDUCE_NARROW, "bspram: bspram_shared_reduce(address=0x20000000001, op=7, value=5): reduce needs cells "
                        "of 8 bytes; segment 2 has cells of 4 bytes (superstep 3, component 2)"},
        {REDUCE_UNKNOWN_OP, "bspram: bspram_shared_reduce(address=0x10000000003, op=30, value=5): unknown "
                            "operation; valid: 0..20 (21 built in, then the combiner's user operations) "
                            "(superstep 3, component 2)"},
        {FETCH_UNKNOWN_OP, "bspram: bspram_shared_fetch(address=0x10000000003, op=21, value=5): unknown "
                           "operation; valid: 0..20 (21 built in, then the combiner's user operations) "
                           "(superstep 3, component 2)"},
        {FETCH_USER_OP_OK_THEN_UNKNOWN,
         "bspram: bspram_shared_fetch(address=0x10000000003, op=22, value=5): unknown operation; valid: "
         "0..21 (21 built in, then the combiner's user operations) (superstep 3, component 2)"},
        {WRITE_POLICY_0, "bspram: bspram_shared_write(address=0x10000000003, value=5, policy=0): unknown "
                         "policy; valid: 1 arbitrary, 2 priority, 3 common (superstep 3, component 2)"},
        {WRITE_POLICY_4, "bspram: bspram_shared_write(address=0x10000000003, value=5, policy=4): unknown "
                         "policy; valid: 1 arbitrary, 2 priority, 3 common (superstep 3, component 2)"},
        {ISSUE_UNKNOWN_KIND, "bspram: bspram_shared_issue(address=0x10000000003, value=5, kind=17): unknown "
                             "species or operation (kind 17); valid: 0 read, 1-3 write, 32+op reduce, 64+op "
                             "fetch, 96+op combining write, with op < 21 (superstep 3, component 2)"},
        {ISSUE_UNKNOWN_COMBINING_OP,
         "bspram: bspram_shared_issue(address=0x10000000003, value=5, kind=121): unknown species or "
         "operation (kind 121); valid: 0 read, 1-3 write, 32+op reduce, 64+op fetch, 96+op combining "
         "write, with op < 21 (superstep 3, component 2)"},
        {ISSUE_COMBINING_NARROW, "bspram: bspram_shared_issue(address=0x20000000001, value=5, kind=96): a "
                                 "combining write needs cells of 8 bytes; segment 2 has cells of 4 bytes "
                                 "(superstep 3, component 2)"},
        {ISSUE_NULL, "bspram: bspram_shared_issue(r=NULL): no request (superstep 3, component 2)"},
        {READ_SELF_NULL, "bspram: bspram_shared_read(address=0x10000000003): self is NULL; pass the handle "
                         "the step was given (superstep 3, component 2)"},
        {RUN_INSIDE, "bspram: bspram_shared_run(max_supersteps=0): called from inside a step (superstep 3, "
                     "component 2); a step issues requests and returns"},
        {OTHER_OBJECT, "bspram: bspram_shared_read(address=0x10000000003): called outside the steps of "
                       "bspram_shared_run on this object; a component issues requests and reads answers "
                       "in its own step of the run (superstep 3, component 2)"},
        {TWO_SPECIES, "bspram: bspram_combine: two update species at address 0x10000000003 in one batch: "
                      "write(arbitrary) and write(priority)"},
        {COMMON_CONFLICT, "bspram: bspram_combine: common-write conflict at address 0x10000000003 "
                          "(segment 1, cell 3): origin 0 writes 7, origin 3 writes 9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "misuse %zu", i);
        die_exactly(name, in_run, (void *)&cases[i].what, cases[i].line);
    }
    die_exactly("read outside a run", outside_run, NULL,
                "bspram: bspram_shared_read(address=0x10000000003): called outside the steps of "
                "bspram_shared_run on this object; a component issues requests and reads answers in "
                "its own step of the run (superstep 0, component 0)");
    die_exactly("answers outside a run", outside_run, "answers",
                "bspram: bspram_shared_answers(): called outside the steps of bspram_shared_run on "
                "this object; a component issues requests and reads answers in its own step of the "
                "run (superstep 0, component 0)");
    die_exactly("component of another machine", other_machine, NULL,
                "bspram: bspram_shared_read(address=0x10000000003): the component belongs to another "
                "machine than the shared memory's (superstep 0, component 0)");
    die_exactly("self NULL from the host", read_self_null_host, NULL,
                "bspram: bspram_shared_read(address=0x10000000003): self is NULL; pass the handle "
                "the step was given");
    die_exactly("answers_of: pid out of range", answers_of_bad_pid, NULL,
                "bspram: bspram_shared_answers_of(pid=4): component outside [0, 4)");
    die_exactly("run without a step", step_null, NULL,
                "bspram: bspram_shared_run(max_supersteps=0): step is NULL");
    die_exactly("create: p differs", create_mismatch, NULL,
                "bspram: bspram_shared_create: the machine has p = 4 components but the address "
                "space has p = 5");
    return check_report("test_shared_errors");
}
