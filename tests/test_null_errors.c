/* NULL where a public function needs a pointer: one line naming the call,
 * exit status 1 — never a segmentation fault (docs/limits.md).
 *
 * A walk over the API: one case per pointer parameter of every function the
 * installed headers declare. A REFUSED case calls the function with that
 * parameter NULL (every other argument valid, and a size that makes the
 * pointer needed where NULL is legal with size 0) in a child process and
 * wants: exit status 1, not a signal, no hang; exactly one line on stderr,
 * "bspram: …", naming the call ("<call>(" or "<call>:") and the parameter
 * ("<param>=NULL", "<param> is NULL" or "<param> must not be NULL"). An
 * ALLOWED case is a parameter where NULL is legitimate, with the reason (the
 * header says it too); most are run with NULL as well and must end normally,
 * with nothing on stderr. BSPlib calls run inside a section of 2 processes
 * (tests/bsplib_death.h), as real programs make them.
 *
 * `test_null_errors --list` prints the cases, "refused FUNCTION PARAM" and
 * "allowed FUNCTION PARAM"; tests/null/complete.sh compares them with the
 * pointer parameters of the installed headers, both ways (ctest
 * null_errors_complete), so a new function with a pointer parameter fails
 * there until it has a case here. `test_null_errors NAME` runs the cases of
 * the functions whose names contain NAME.
 *
 * The child runner is this file's own (not check_death) so that the summary
 * can tell crashes (a signal), hangs and wrong lines apart. */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bspram.h"
#include "bsplib_death.h"
#include "check.h"
#include "hash/hash_internal.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"
#include "router/router.h"
#include "bsp/trace.h"
#include "base/error.h"

/* ---- the cases ---- */

typedef struct null_case {
    const char *fn;    /* the public function */
    const char *param; /* its parameter that is NULL */
    const char *call;  /* the call the line names: fn, or the standard name an int twin stands for */
    const char *why;   /* NULL: refused; else why NULL is legitimate there */
    int bsplib;        /* run inside a BSP section of 2 processes */
    void (*run)(void); /* calls fn with param NULL; NULL: an allowed case not run */
} null_case;

#define MAX_CASES 1024
static null_case cases[MAX_CASES];
static int ncases;

static void add_case(const char *fn, const char *param, const char *call, const char *why,
                     int bsplib, void (*run)(void))
{
    if (ncases == MAX_CASES) {
        fprintf(stderr, "test_null_errors: more than %d cases\n", MAX_CASES);
        exit(1);
    }
    cases[ncases++] = (null_case){fn, param, call, why, bsplib, run};
}

/* A case registers itself (a constructor), then its body follows:
 *   REFUSED(fn, param) { fn(..., NIL, ...); }
 * _AS: the line names `call`; _BSP: the body runs inside a BSP section. */
#define CASE_(fn, param, call, why, bsp)                                                    \
    static void case_##fn##_##param(void);                                                  \
    __attribute__((constructor)) static void add_##fn##_##param(void)                       \
    {                                                                                       \
        add_case(#fn, #param, call, why, bsp, case_##fn##_##param);                         \
    }                                                                                       \
    static void case_##fn##_##param(void)
#define REFUSED(fn, param) CASE_(fn, param, #fn, NULL, 0)
#define REFUSED_BSP(fn, param) CASE_(fn, param, #fn, NULL, 1)
#define REFUSED_BSP_AS(fn, param, call) CASE_(fn, param, call, NULL, 1)
#define ALLOWED(fn, param, why) CASE_(fn, param, #fn, why, 0)
#define ALLOWED_BSP(fn, param, why) CASE_(fn, param, #fn, why, 1)
/* An allowed parameter that the walk does not run (said why in `why`). */
#define ALLOWED_NOT_RUN(fn, param, why)                                                     \
    __attribute__((constructor)) static void add_##fn##_##param(void)                       \
    {                                                                                       \
        add_case(#fn, #param, #fn, why, 0, NULL);                                           \
    }

/* A null pointer the compiler cannot see (no -Wnonnull, no folding). */
static void *volatile nil_;
#define NIL ((void *)nil_)

/* A user pointer that NULL may always be: passed through untouched. */
#define OPAQUE "an opaque argument passed through to the caller's callback"

/* ---- fixtures ---- */

static bspram_machine *machine(uint64_t p, int threads)
{
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = threads;
    return bspram_machine_create(&cfg);
}

static bspram_space *space(uint64_t p) { return bspram_space_create(p, BSPRAM_HASH_XXH3, 1); }

static bool quiet_step(bspram_component *self, void *arg)
{
    (void)self;
    (void)arg;
    return false;
}

static void quiet_lane(bspram_team *t, void *arg)
{
    (void)t;
    (void)arg;
}

static void quiet_program(bspram_component *self, void *arg)
{
    (void)self;
    (void)arg;
}

static uint64_t user_op(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    return a + b;
}

/* body(component 0) inside a bulk step of a machine of p = 2 on one thread. */
static void (*step_body)(bspram_component *self);
static bool body_step(bspram_component *self, void *arg)
{
    (void)arg;
    if (bspram_pid(self) == 0)
        step_body(self);
    return false;
}
static void in_step(void (*body)(bspram_component *self))
{
    step_body = body;
    bspram_machine_run(machine(2, 1), body_step, NULL, 1);
}

/* body(lane) inside a team of one lane over p = 2 components. */
static void (*team_body)(bspram_team *t);
static void body_lane(bspram_team *t, void *arg)
{
    (void)arg;
    team_body(t);
}
static bspram_machine *team_machine;
static void in_team(void (*body)(bspram_team *t))
{
    team_body = body;
    team_machine = machine(2, 1);
    bspram__bsp_machine_team(team_machine, body_lane, NULL);
}

/* A combiner over p = 2 (one thread) with one hashed segment of 4 cells, and
 * a batch of one READ by component 0. */
static bspram_machine *cm;
static bspram_space *cs;
static bspram_combiner *cc;
static bspram_request creq[1];
static uint64_t cfirst[3] = {0, 1, 1}, cres[1];
static bspram_combine_options copt;
static void combiner_fixture(void)
{
    cm = machine(2, 1);
    cs = space(2);
    uint32_t seg = bspram_segment_alloc(cs, 4, 8, BSPRAM_LAYOUT_HASHED);
    copt = bspram_combine_defaults(2);
    cc = bspram_combiner_create(cm, cs, &copt);
    creq[0] = (bspram_request){bspram_address(cs, seg, 0), 0, BSPRAM_READ, 0};
}

/* Inside a team of the combiner's machine. */
static void (*cteam_body)(bspram_team *t);
static void cteam_lane(bspram_team *t, void *arg)
{
    (void)arg;
    cteam_body(t);
}
static void in_combiner_team(void (*body)(bspram_team *t))
{
    combiner_fixture();
    cteam_body = body;
    bspram__bsp_machine_team(cm, cteam_lane, NULL);
}

/* A shared memory over p = 2 (one thread) with a segment; body(sh, self)
 * inside a step of its run, on component 0. */
static bspram_shared *sh;
static uint64_t sh_addr;
static void (*shared_body)(bspram_component *self);
static bool shared_step(bspram_component *self, void *arg)
{
    (void)arg;
    if (bspram_pid(self) == 0)
        shared_body(self);
    return false;
}
static void shared_fixture(void)
{
    bspram_space *s = space(2);
    sh_addr = bspram_address(s, bspram_segment_alloc(s, 4, 8, BSPRAM_LAYOUT_HASHED), 0);
    sh = bspram_shared_create(machine(2, 1), s, NULL);
}
static void in_shared_step(void (*body)(bspram_component *self))
{
    shared_fixture();
    shared_body = body;
    bspram_shared_run(sh, shared_step, NULL, 1);
}

/* A PRAM of 4 VPs on 4 components, one thread, with an array of 4 cells. */
static bspram_pram *pram;
static bspram_pram_array parr;
static uint64_t pcells[4], pvals[4];
static void pram_fixture(bspram_pram_model model)
{
    bspram_pram_config cfg = bspram_pram_config_default(4, model);
    cfg.threads = 1;
    pram = bspram_pram_create(&cfg);
    parr = bspram_pram_alloc(pram, "A", 4);
    for (uint64_t i = 0; i < 4; i++)
        pcells[i] = bspram_pram_cell(pram, parr, i);
}

/* A one-record log. */
static bspram_record rec1;
static bspram_log_view view1 = {0, 2, &rec1, 1, NULL};

static FILE *devnull(void) { return fopen("/dev/null", "w"); }

/* ================================================================ base */

REFUSED(bspram__base_fatal, fmt)
{
    void (*f)(const char *, ...) = bspram__base_fatal; /* no format check of NIL */
    f(NIL);
}
static void vcall(int raw, ...)
{
    va_list ap;
    va_start(ap, raw);
    if (raw)
        bspram__base_vfatal_raw(NIL, ap);
    else
        bspram__base_vfatal(NIL, ap);
}
REFUSED(bspram__base_vfatal, fmt) { vcall(0, 1); }
REFUSED(bspram__base_vfatal_raw, fmt) { vcall(1, 1); }
ALLOWED(bspram__base_malloc, what, "names the allocation in the out-of-memory line only")
{
    free(bspram__base_malloc(16, NIL));
}
ALLOWED(bspram__base_calloc, what, "names the allocation in the out-of-memory line only")
{
    free(bspram__base_calloc(2, 8, NIL));
}
ALLOWED(bspram__base_realloc, what, "names the allocation in the out-of-memory line only")
{
    free(bspram__base_realloc(NULL, 16, NIL));
}
ALLOWED(bspram__base_realloc, ptr, "as realloc: NULL allocates anew") { free(bspram__base_realloc(NIL, 16, "x")); }

/* ================================================================ hash */

REFUSED(bspram__hash_init, h) { bspram__hash_init(NIL, BSPRAM_HASH_XXH3, 1); }
REFUSED(bspram_hash_kind_parse, name) { bspram_hash_kind_parse(NIL); }
REFUSED(bspram__hash_hash64, h) { bspram__hash_hash64(NIL, 1); }

ALLOWED(bspram_space_destroy, s, "as free: NULL is ignored") { bspram_space_destroy(NIL); }
REFUSED(bspram_space_p, s) { bspram_space_p(NIL); }
REFUSED(bspram__hash_space_hash, s) { bspram__hash_space_hash(NIL); }
REFUSED(bspram_segment_alloc, s) { bspram_segment_alloc(NIL, 4, 8, BSPRAM_LAYOUT_HASHED); }
REFUSED(bspram_segment_free, s) { bspram_segment_free(NIL, 1); }
REFUSED(bspram_segment_cells, s) { bspram_segment_cells(NIL, 1); }
REFUSED(bspram_segment_width, s) { bspram_segment_width(NIL, 1); }
REFUSED(bspram_segment_layout, s) { bspram_segment_layout(NIL, 1); }
REFUSED(bspram_address, s) { bspram_address(NIL, 1, 0); }
REFUSED(bspram__hash_address_check, s) { bspram__hash_address_check(NIL, 1, NULL, 0); }
ALLOWED(bspram__hash_address_check, err, "the reason is optional: NULL (or err_len 0) asks for none")
{
    bspram__hash_address_check(space(2), 12345, NIL, 64);
}
REFUSED(bspram_hashed_owner, s) { bspram_hashed_owner(NIL, 1); }
REFUSED(bspram_owner, s) { bspram_owner(NIL, 1); }
REFUSED(bspram_cell, s) { bspram_cell(NIL, 1); }
REFUSED(bspram_cells, s)
{
    uint64_t a = 0;
    void *c;
    bspram_cells(NIL, &a, 1, &c);
}
REFUSED(bspram_cells, addresses)
{
    void *c;
    bspram_cells(space(2), NIL, 1, &c);
}
REFUSED(bspram_cells, cells)
{
    bspram_space *s = space(2);
    uint64_t a = bspram_address(s, bspram_segment_alloc(s, 4, 8, BSPRAM_LAYOUT_HASHED), 0);
    bspram_cells(s, &a, 1, NIL);
}
REFUSED(bspram_load, s) { bspram_load(NIL, 1); }
REFUSED(bspram_holds, s) { bspram_holds(NIL, 1); }
REFUSED(bspram_store, s) { bspram_store(NIL, 1, 2); }
REFUSED(bspram_space_rehash, s) { bspram_space_rehash(NIL, 2); }

static const uint64_t b22[2] = {2, 2};
REFUSED(bspram_basis_make, out) { bspram_basis_make(NIL, 4, 2, b22, NULL, 0); }
REFUSED(bspram_basis_make, b)
{
    bspram_basis out;
    bspram_basis_make(&out, 4, 2, NIL, NULL, 0);
}
ALLOWED(bspram_basis_make, err, "the reason is optional: NULL (or err_len 0) asks for none")
{
    bspram_basis out;
    bspram_basis_make(&out, 5, 2, b22, NIL, 64);
}
REFUSED(bspram_basis_parse, out) { bspram_basis_parse(NIL, 4, "2x2", NULL, 0); }
REFUSED(bspram_basis_parse, text)
{
    bspram_basis out;
    bspram_basis_parse(&out, 4, NIL, NULL, 0);
}
ALLOWED(bspram_basis_parse, err, "the reason is optional: NULL (or err_len 0) asks for none")
{
    bspram_basis out;
    bspram_basis_parse(&out, 4, "3x3", NIL, 64);
}
REFUSED(bspram_basis_format, basis)
{
    char buf[64];
    bspram_basis_format(NIL, buf, sizeof buf);
}
REFUSED(bspram_basis_format, buf)
{
    bspram_basis_format(&(bspram_basis){0}, NIL, 64); /* NULL with len 0 is legal, as snprintf */
}
REFUSED(bspram_basis_require, out) { bspram_basis_require(NIL, 4, "2x2"); }
REFUSED(bspram_basis_require, text)
{
    bspram_basis out;
    bspram_basis_require(&out, 4, NIL);
}

/* ================================================================ router/records.h */

REFUSED(bspram_log_append, log) { bspram_log_append(NIL, &rec1); }
REFUSED(bspram_log_append, rec)
{
    bspram_log log = {0};
    bspram_log_append(&log, NIL);
}
REFUSED(bspram__router_log_clear, log) { bspram__router_log_clear(NIL); }
REFUSED(bspram_log_free, log) { bspram_log_free(NIL); }
REFUSED(bspram_pattern_append, pat) { bspram_pattern_append(NIL, 0, 1); }
ALLOWED(bspram_pattern_get, pat, "no pattern kept: returns 0")
{
    const bspram_flow *f;
    size_t n;
    bspram_pattern_get(NIL, 0, &f, &n);
}
REFUSED(bspram_pattern_get, flows)
{
    bspram_pattern pat = {0};
    size_t n;
    bspram_pattern_get(&pat, 0, NIL, &n);
}
REFUSED(bspram_pattern_get, n)
{
    bspram_pattern pat = {0};
    const bspram_flow *f;
    bspram_pattern_get(&pat, 0, &f, NIL);
}
REFUSED(bspram_pattern_append_loads, pat) { bspram_pattern_append_loads(NIL, 0, 1); }
ALLOWED(bspram_pattern_loads, pat, "no pattern kept: returns 0")
{
    const bspram_process_load *l;
    size_t n;
    bspram_pattern_loads(NIL, 0, &l, &n);
}
REFUSED(bspram_pattern_loads, loads)
{
    bspram_pattern pat = {0};
    size_t n;
    bspram_pattern_loads(&pat, 0, NIL, &n);
}
REFUSED(bspram_pattern_loads, n)
{
    bspram_pattern pat = {0};
    const bspram_process_load *l;
    bspram_pattern_loads(&pat, 0, &l, NIL);
}
REFUSED(bspram__router_pattern_clear, pat) { bspram__router_pattern_clear(NIL); }
REFUSED(bspram_pattern_free, pat) { bspram_pattern_free(NIL); }
REFUSED(bspram_records_total, recs) { bspram_records_total(NIL, 1); } /* NULL with n = 0 is legal */
REFUSED(bspram_records_write_csv, f) { bspram_records_write_csv(NIL, &view1, 1); }
REFUSED(bspram_records_write_csv, log) { bspram_records_write_csv(devnull(), NIL, 1); }
REFUSED(bspram_records_write_json, f)
{
    int first = 1;
    bspram_records_write_json(NIL, &view1, &first);
}
REFUSED(bspram_records_write_json, log)
{
    int first = 1;
    bspram_records_write_json(devnull(), NIL, &first);
}
REFUSED(bspram_records_write_json, first) { bspram_records_write_json(devnull(), &view1, NIL); }

/* ================================================================ router/router.h */

static bspram_router *router(void) { return bspram__router_create(1, 1); }
ALLOWED(bspram__router_create_on, transport, "NULL or \"\": BSPRAM_TRANSPORT, else shm")
{
    bspram__router_destroy(bspram__router_create_on(1, 1, NIL));
}
ALLOWED(bspram__router_destroy, r, "as free: NULL is ignored") { bspram__router_destroy(NIL); }
REFUSED(bspram__router_shares_memory, r) { bspram__router_shares_memory(NIL); }
REFUSED(bspram__router_read, r)
{
    uint64_t a = 1, b;
    bspram__router_read(NIL, 0, 0, &a, &b, 8);
}
REFUSED(bspram__router_read, remote)
{
    uint64_t b;
    bspram__router_read(router(), 0, 0, NIL, &b, 8); /* NULLs with n = 0 are legal */
}
REFUSED(bspram__router_read, local)
{
    uint64_t a = 1;
    bspram__router_read(router(), 0, 0, &a, NIL, 8);
}
REFUSED(bspram__router_spread, r) { bspram__router_spread(NIL); }
REFUSED(bspram__router_merge, r)
{
    uint64_t w = 1;
    bspram__router_merge(NIL, &w, 1, BSPRAM_MERGE_SUM);
}
REFUSED(bspram__router_merge, words) { bspram__router_merge(router(), NIL, 1, BSPRAM_MERGE_SUM); }
REFUSED(bspram__router_concat, r)
{
    uint64_t w = 1;
    size_t total;
    bspram__router_concat(NIL, &w, 8, &total);
}
REFUSED(bspram__router_concat, mine)
{
    size_t total;
    bspram__router_concat(router(), NIL, 8, &total); /* NULL with bytes = 0 is legal */
}
REFUSED(bspram__router_concat, total)
{
    uint64_t w = 1;
    bspram__router_concat(router(), &w, 8, NIL);
}
REFUSED(bspram__router_can_read, r) { bspram__router_can_read(NIL); }
REFUSED(bspram__router_p, r) { bspram__router_p(NIL); }
REFUSED(bspram__router_lanes, r) { bspram__router_lanes(NIL); }
REFUSED(bspram__router_lane_first, r) { bspram__router_lane_first(NIL, 0); }
REFUSED(bspram__router_lane_of, r) { bspram__router_lane_of(NIL, 0); }
REFUSED(bspram__router_local_lanes, r)
{
    unsigned lo, hi;
    bspram__router_local_lanes(NIL, &lo, &hi);
}
REFUSED(bspram__router_local_lanes, lo)
{
    unsigned hi;
    bspram__router_local_lanes(router(), NIL, &hi);
}
REFUSED(bspram__router_local_lanes, hi)
{
    unsigned lo;
    bspram__router_local_lanes(router(), &lo, NIL);
}
REFUSED(bspram__router_gather, r)
{
    uint64_t w = 1, all;
    bspram__router_gather(NIL, 0, &w, 8, &all);
}
REFUSED(bspram__router_gather, mine)
{
    uint64_t all;
    bspram__router_gather(router(), 0, NIL, 8, &all); /* NULL with n = 0 is legal */
}
REFUSED(bspram__router_gather, all)
{
    uint64_t w = 1;
    bspram__router_gather(router(), 0, &w, 8, NIL); /* lane 0 is the first: it receives */
}
REFUSED(bspram__router_post, r) { bspram__router_post(NIL, 0, 0, 0, 8, "bspram__router_post"); }
REFUSED(bspram__router_post, call) { bspram__router_post(router(), 0, 0, 0, 8, NIL); }
REFUSED(bspram__router_post_counted, r)
{
    bspram__router_post_counted(NIL, 0, 0, 0, 8, 8, "bspram__router_post_counted");
}
REFUSED(bspram__router_post_counted, call)
{
    bspram__router_post_counted(router(), 0, 0, 0, 8, 8, NIL);
}
REFUSED(bspram__router_send, r)
{
    uint64_t w = 1;
    bspram__router_send(NIL, 0, 0, 0, &w, 8, "bspram__router_send");
}
REFUSED(bspram__router_send, data) /* NULL with len = 0 is legal */
{
    bspram__router_send(router(), 0, 0, 0, NIL, 8, "bspram__router_send"); /* call: the caller's name */
}
REFUSED(bspram__router_send, call)
{
    uint64_t w = 1;
    bspram__router_send(router(), 0, 0, 0, &w, 8, NIL);
}
REFUSED(bspram__router_lane_posted, r) { bspram__router_lane_posted(NIL, 0); }
REFUSED(bspram__router_work, r) { bspram__router_work(NIL, 0, 0, 1); }
REFUSED(bspram__router_exchange, r) { bspram__router_exchange(NIL, 0, 0); }
REFUSED(bspram__router_barrier, r) { bspram__router_barrier(NIL, 0, 0); }
REFUSED(bspram__router_leave, r) { bspram__router_leave(NIL, 0); }
REFUSED(bspram__router_complete, r) { bspram__router_complete(NIL, 0); }
REFUSED(bspram__router_inbox, r)
{
    const bspram_message *m;
    bspram__router_inbox(NIL, 0, 0, &m);
}
REFUSED(bspram__router_inbox, msgs) { bspram__router_inbox(router(), 0, 0, NIL); }
REFUSED(bspram__router_set_label, r) { bspram__router_set_label(NIL, "x"); }
ALLOWED(bspram__router_set_label, label, "NULL: the empty label") { bspram__router_set_label(router(), NIL); }
REFUSED(bspram__router_label, r) { bspram__router_label(NIL); }
REFUSED(bspram__router_start_clock, r) { bspram__router_start_clock(NIL); }
REFUSED(bspram__router_flush, r) { bspram__router_flush(NIL); }
REFUSED(bspram__router_log, r) { bspram__router_log(NIL); }
REFUSED(bspram__router_keep_pattern, r) { bspram__router_keep_pattern(NIL, true); }
REFUSED(bspram__router_keeps_pattern, r) { bspram__router_keeps_pattern(NIL); }
REFUSED(bspram__router_pattern, r) { bspram__router_pattern(NIL); }
REFUSED(bspram__router_clear_log, r) { bspram__router_clear_log(NIL); }

/* ================================================================ bsp/machine.h */

REFUSED(bspram_machine_create, config) { bspram_machine_create(NIL); }
ALLOWED(bspram_machine_destroy, m, "as free: NULL is ignored") { bspram_machine_destroy(NIL); }
REFUSED(bspram_machine_p, m) { bspram_machine_p(NIL); }
REFUSED(bspram_machine_threads, m) { bspram_machine_threads(NIL); }
REFUSED(bspram_machine_seed, m) { bspram_machine_seed(NIL); }
REFUSED(bspram__bsp_machine_router, m) { bspram__bsp_machine_router(NIL); }
REFUSED(bspram__bsp_machine_spread, m) { bspram__bsp_machine_spread(NIL); }
REFUSED(bspram__bsp_machine_block, m)
{
    uint64_t first, end;
    bspram__bsp_machine_block(NIL, &first, &end);
}
REFUSED(bspram__bsp_machine_block, first)
{
    uint64_t end;
    bspram__bsp_machine_block(machine(2, 1), NIL, &end);
}
REFUSED(bspram__bsp_machine_block, end)
{
    uint64_t first;
    bspram__bsp_machine_block(machine(2, 1), &first, NIL);
}
REFUSED(bspram__bsp_machine_lanes, m)
{
    unsigned lo, hi;
    bspram__bsp_machine_lanes(NIL, &lo, &hi);
}
REFUSED(bspram__bsp_machine_lanes, lo)
{
    unsigned hi;
    bspram__bsp_machine_lanes(machine(2, 1), NIL, &hi);
}
REFUSED(bspram__bsp_machine_lanes, hi)
{
    unsigned lo;
    bspram__bsp_machine_lanes(machine(2, 1), &lo, NIL);
}
REFUSED(bspram__bsp_machine_sum, m)
{
    uint64_t w = 1;
    bspram__bsp_machine_sum(NIL, &w, 1);
}
REFUSED(bspram__bsp_machine_sum, words) { bspram__bsp_machine_sum(machine(2, 1), NIL, 1); }
REFUSED(bspram__bsp_machine_or, m)
{
    uint64_t w = 1;
    bspram__bsp_machine_or(NIL, &w, 1);
}
REFUSED(bspram__bsp_machine_or, words) { bspram__bsp_machine_or(machine(2, 1), NIL, 1); }
REFUSED(bspram__bsp_machine_concat, m)
{
    uint64_t w = 1;
    size_t total;
    bspram__bsp_machine_concat(NIL, &w, 8, &total);
}
REFUSED(bspram__bsp_machine_concat, mine)
{
    size_t total;
    bspram__bsp_machine_concat(machine(2, 1), NIL, 8, &total); /* NULL with bytes = 0 is legal */
}
REFUSED(bspram__bsp_machine_concat, total)
{
    uint64_t w = 1;
    bspram__bsp_machine_concat(machine(2, 1), &w, 8, NIL);
}
static uint64_t owner_zero(uint64_t i, const void *arg)
{
    (void)i;
    (void)arg;
    return 0;
}
REFUSED(bspram__bsp_machine_share_owned, m)
{
    uint64_t w = 1;
    bspram__bsp_machine_share_owned(NIL, &w, 1, owner_zero, NULL);
}
REFUSED(bspram__bsp_machine_share_owned, words)
{
    bspram__bsp_machine_share_owned(machine(2, 1), NIL, 1, owner_zero, NULL); /* NULL with n = 0 is legal */
}
REFUSED(bspram__bsp_machine_share_owned, owner)
{
    uint64_t w = 1;
    bspram__bsp_machine_share_owned(machine(2, 1), &w, 1, NULL, NULL);
}
ALLOWED(bspram__bsp_machine_share_owned, arg, OPAQUE)
{
    uint64_t w = 1;
    bspram__bsp_machine_share_owned(machine(2, 1), &w, 1, owner_zero, NIL);
}
REFUSED(bspram__bsp_machine_share_parts, m)
{
    uint64_t w[2] = {1, 2};
    bspram__bsp_machine_share_parts(NIL, w, 8, NULL, NULL, NULL);
}
REFUSED(bspram__bsp_machine_share_parts, base)
{
    bspram__bsp_machine_share_parts(machine(2, 1), NIL, 8, NULL, NULL, NULL); /* legal with no elements */
}
ALLOWED(bspram__bsp_machine_share_parts, at, "NULL: component c owns element c")
{
    uint64_t w[2] = {1, 2};
    bspram__bsp_machine_share_parts(machine(2, 1), w, 8, NIL, NULL, NULL);
}
ALLOWED(bspram__bsp_machine_share_parts, only, "NULL: every element is shared")
{
    uint64_t w[2] = {1, 2};
    bspram__bsp_machine_share_parts(machine(2, 1), w, 8, NULL, NULL, NULL);
}
ALLOWED(bspram__bsp_machine_share_parts, arg, OPAQUE)
{
    uint64_t w[2] = {1, 2};
    bspram__bsp_machine_share_parts(machine(2, 1), w, 8, NULL, NULL, NIL);
}
REFUSED(bspram_machine_run, m) { bspram_machine_run(NIL, quiet_step, NULL, 1); }
REFUSED(bspram_machine_run, step) { bspram_machine_run(machine(2, 1), NULL, NULL, 1); }
ALLOWED(bspram_machine_run, arg, OPAQUE) { bspram_machine_run(machine(2, 1), quiet_step, NIL, 1); }
REFUSED(bspram_machine_superstep, m) { bspram_machine_superstep(NIL, quiet_step, NULL); }
REFUSED(bspram_machine_superstep, step) { bspram_machine_superstep(machine(2, 1), NULL, NULL); }
ALLOWED(bspram_machine_superstep, arg, OPAQUE)
{
    bspram_machine_superstep(machine(2, 1), quiet_step, NIL);
}
REFUSED(bspram_machine_inbox, m)
{
    const bspram_message *msgs;
    bspram_machine_inbox(NIL, 0, &msgs);
}
REFUSED(bspram_machine_inbox, msgs) { bspram_machine_inbox(machine(2, 1), 0, NIL); }
REFUSED(bspram__bsp_machine_team, m) { bspram__bsp_machine_team(NIL, quiet_lane, NULL); }
REFUSED(bspram__bsp_machine_team, fn) { bspram__bsp_machine_team(machine(2, 1), NULL, NULL); }
ALLOWED(bspram__bsp_machine_team, arg, OPAQUE) { bspram__bsp_machine_team(machine(2, 1), quiet_lane, NIL); }
REFUSED(bspram__bsp_team_lane, t) { bspram__bsp_team_lane(NIL); }
REFUSED(bspram__bsp_team_leads, t) { bspram__bsp_team_leads(NIL); }
REFUSED(bspram__bsp_team_first, t) { bspram__bsp_team_first(NIL); }
REFUSED(bspram__bsp_team_end, t) { bspram__bsp_team_end(NIL); }
REFUSED(bspram__bsp_team_superstep, t) { bspram__bsp_team_superstep(NIL); }
REFUSED(bspram__bsp_team_machine, t) { bspram__bsp_team_machine(NIL); }
REFUSED(bspram__bsp_team_each, t) { bspram__bsp_team_each(NIL, quiet_step, NULL); }
static void each_null(bspram_team *t) { bspram__bsp_team_each(t, NULL, NULL); }
REFUSED(bspram__bsp_team_each, step) { in_team(each_null); }
static void each_arg(bspram_team *t) { bspram__bsp_team_each(t, quiet_step, NIL); }
ALLOWED(bspram__bsp_team_each, arg, OPAQUE) { in_team(each_arg); }
REFUSED(bspram__bsp_team_exchange, t) { bspram__bsp_team_exchange(NIL, 0); }
REFUSED(bspram__bsp_team_barrier, t) { bspram__bsp_team_barrier(NIL); }
REFUSED(bspram__bsp_team_flush, t) { bspram__bsp_team_flush(NIL); }
REFUSED(bspram__bsp_team_set_label, t) { bspram__bsp_team_set_label(NIL, "x"); }
static void label_null(bspram_team *t) { bspram__bsp_team_set_label(t, NIL); }
ALLOWED(bspram__bsp_team_set_label, label, "NULL: the empty label") { in_team(label_null); }
REFUSED(bspram__bsp_team_label, t) { bspram__bsp_team_label(NIL); }
REFUSED(bspram__bsp_team_inbox, t)
{
    const bspram_message *msgs;
    bspram__bsp_team_inbox(NIL, 0, &msgs);
}
static void inbox_null(bspram_team *t) { bspram__bsp_team_inbox(t, bspram__bsp_team_first(t), NIL); }
REFUSED(bspram__bsp_team_inbox, msgs) { in_team(inbox_null); }
REFUSED(bspram__bsp_team_hold_inbox, t) { bspram__bsp_team_hold_inbox(NIL); }
REFUSED(bspram__bsp_team_restore_inbox, t) { bspram__bsp_team_restore_inbox(NIL); }
REFUSED(bspram__bsp_machine_spmd, m) { bspram__bsp_machine_spmd(NIL, quiet_program, NULL); }
REFUSED(bspram__bsp_machine_spmd, program) { bspram__bsp_machine_spmd(machine(1, 1), NULL, NULL); }
ALLOWED(bspram__bsp_machine_spmd, arg, OPAQUE) { bspram__bsp_machine_spmd(machine(1, 1), quiet_program, NIL); }
REFUSED(bspram__bsp_sync, self) { bspram__bsp_sync(NIL, 0); }
REFUSED(bspram__bsp_component_team, self) { bspram__bsp_component_team(NIL); }
REFUSED(bspram_pid, self) { bspram_pid(NIL); }
REFUSED(bspram_nprocs, self) { bspram_nprocs(NIL); }
REFUSED(bspram_superstep, self) { bspram_superstep(NIL); }
REFUSED(bspram__bsp_lane, self) { bspram__bsp_lane(NIL); }
REFUSED(bspram__bsp_component_machine, self) { bspram__bsp_component_machine(NIL); }
REFUSED(bspram_inbox, self)
{
    const bspram_message *msgs;
    bspram_inbox(NIL, &msgs);
}
static void step_inbox_null(bspram_component *self) { bspram_inbox(self, NIL); }
REFUSED(bspram_inbox, msgs) { in_step(step_inbox_null); }
REFUSED(bspram_send, self)
{
    uint64_t w = 1;
    bspram_send(NIL, 0, &w, 8);
}
static void step_send_null(bspram_component *self) { bspram_send(self, 1, NIL, 8); }
REFUSED(bspram_send, data) { in_step(step_send_null); } /* NULL with len = 0 is legal */
REFUSED(bspram_send_buffer, self) { bspram_send_buffer(NIL, 0, 8); }
REFUSED(bspram__bsp_send_buffer_counted, self) { bspram__bsp_send_buffer_counted(NIL, 0, 8, 8); }
REFUSED(bspram_work, self) { bspram_work(NIL, 1); }
REFUSED(bspram_local, self) { bspram_local(NIL); }
REFUSED(bspram_machine_local, m) { bspram_machine_local(NIL, 0); }
REFUSED(bspram_machine_gather_local, m) { bspram_machine_gather_local(NIL); }
static uint64_t owned_lo, owned_hi;
REFUSED(bspram_machine_owned, m) { bspram_machine_owned(NIL, &owned_lo, &owned_hi); }
REFUSED(bspram_machine_owned, first) { bspram_machine_owned(machine(2, 1), NIL, &owned_hi); }
REFUSED(bspram_machine_owned, end) { bspram_machine_owned(machine(2, 1), &owned_lo, NIL); }
REFUSED(bspram_machine_set_label, m) { bspram_machine_set_label(NIL, "x"); }
ALLOWED(bspram_machine_set_label, label, "NULL: the empty label")
{
    bspram_machine_set_label(machine(2, 1), NIL);
}
REFUSED(bspram_machine_records, m)
{
    size_t n;
    bspram_machine_records(NIL, &n);
}
REFUSED(bspram_machine_records, n) { bspram_machine_records(machine(2, 1), NIL); }
REFUSED(bspram_machine_clear_records, m) { bspram_machine_clear_records(NIL); }
REFUSED(bspram_machine_keep_pattern, m) { bspram_machine_keep_pattern(NIL, true); }
REFUSED(bspram_machine_pattern, m) { bspram_machine_pattern(NIL); }
REFUSED(bspram_machine_predicted_cost, m) { bspram_machine_predicted_cost(NIL); }
REFUSED(bspram_machine_write_records, m) { bspram_machine_write_records(NIL, "/dev/null"); }
REFUSED(bspram_machine_write_records, path) { bspram_machine_write_records(machine(2, 1), NIL); }

/* ================================================================ bsp/params.h, bsp/trace.h */

REFUSED(bspram_params_path, buf) { bspram_params_path(NIL, 64); } /* NULL with len 0 is legal */
ALLOWED(bspram_params_load, g_ns_per_byte, "either output may be NULL: not wanted")
{
    double l;
    bspram_params_load(NIL, &l);
}
ALLOWED(bspram_params_load, l_ns, "either output may be NULL: not wanted")
{
    double g;
    bspram_params_load(&g, NIL);
}
REFUSED(bspram_params_read, out) { bspram_params_read(NIL); }
REFUSED(bspram_params_save, params) { bspram_params_save(NIL); }
REFUSED(bspram__bsp_trace_write_file, path) { bspram__bsp_trace_write_file(NIL, &view1); }
REFUSED(bspram__bsp_trace_write_file, log) { bspram__bsp_trace_write_file("/dev/null", NIL); }
REFUSED(bspram__bsp_trace_add, log) { bspram__bsp_trace_add(NIL); }

/* ================================================================ bsp/bsp.h (BSPlib) */

static void section_body(void) { cases[which].run(); }
static void spmd(void)
{
    bsp_begin(2);
    section_body();
    bsp_end();
}

/* Each process's own (the processes are threads): what it registers,
 * sends and receives. */
static _Thread_local uint64_t reg[2], buf[2];

static void registered(void)
{
    bsp_push_reg(reg, sizeof reg);
    bsp_sync();
}
static void with_tagsize(void)
{
    bsp_size_t ts = 8;
    bsp_set_tagsize(&ts);
    bsp_sync();
}
/* A message to itself, of tag size 8, in the queue. */
static void queued(void)
{
    with_tagsize();
    bsp_send(bsp_pid(), buf, buf, 8);
    bsp_sync();
}

REFUSED(bsp_init, spmd) { bsp_init(NULL, 0, NULL); }
ALLOWED_BSP(bsp_init, argv, "kept for compatibility; not read") {}
REFUSED_BSP(bsp_abort, format)
{
    void (*f)(const char *, ...) = bsp_abort; /* no format check of NIL */
    f(NIL);
}
static void vabort(int x, ...)
{
    va_list ap;
    va_start(ap, x);
    bsp_vabort(NIL, ap);
}
REFUSED_BSP(bsp_vabort, format) { vabort(0, 1); }
ALLOWED_BSP(bsp_label, name, "NULL restores the label \"bsp_sync\"")
{
    bsp_label(NIL);
    bsp_sync();
}
ALLOWED_BSP(bsp_push_reg, address, "BSPlib: NULL (or size 0) registers \"nothing here\"")
{
    bsp_push_reg(NIL, 0);
    bsp_sync();
}
ALLOWED_BSP(bsp_pop_reg, address, "BSPlib: NULL pops a slot registered with NULL")
{
    bsp_push_reg(NIL, 0);
    bsp_sync();
    bsp_pop_reg(NIL);
    bsp_sync();
}
REFUSED_BSP(bsp_put, src)
{
    registered();
    bsp_put(0, NIL, reg, 0, 8); /* NULL with nbytes = 0 is legal */
}
REFUSED_BSP(bsp_put, dst)
{
    registered();
    bsp_put(0, buf, NIL, 0, 8); /* NULL names the registration of NULL: none here */
}
REFUSED_BSP(bsp_hpput, src)
{
    registered();
    bsp_hpput(0, NIL, reg, 0, 8);
}
REFUSED_BSP(bsp_hpput, dst)
{
    registered();
    bsp_hpput(0, buf, NIL, 0, 8);
}
REFUSED_BSP(bsp_get, src)
{
    registered();
    bsp_get(0, NIL, 0, buf, 8);
}
REFUSED_BSP(bsp_get, dst)
{
    registered();
    bsp_get(0, reg, 0, NIL, 8);
}
REFUSED_BSP(bsp_hpget, src)
{
    registered();
    bsp_hpget(0, NIL, 0, buf, 8);
}
REFUSED_BSP(bsp_hpget, dst)
{
    registered();
    bsp_hpget(0, reg, 0, NIL, 8);
}
REFUSED_BSP(bsp_direct_get, src)
{
    registered();
    bsp_direct_get(0, NIL, 0, buf, 8);
}
REFUSED_BSP(bsp_direct_get, dst)
{
    registered();
    bsp_direct_get(0, reg, 0, NIL, 8);
}
REFUSED_BSP(bsp_set_tagsize, tag_bytes) { bsp_set_tagsize(NIL); }
REFUSED_BSP(bsp_send, tag)
{
    with_tagsize();
    bsp_send(0, NIL, buf, 8); /* NULL with tag size 0 is legal */
}
REFUSED_BSP(bsp_send, payload) { bsp_send(0, buf, NIL, 8); } /* NULL with nbytes = 0 is legal */
REFUSED_BSP(bsp_hpsend, tag)
{
    with_tagsize();
    bsp_hpsend(0, NIL, buf, 8);
}
REFUSED_BSP(bsp_hpsend, payload) { bsp_hpsend(0, buf, NIL, 8); }
ALLOWED_BSP(bsp_qsize, packets, "either output may be NULL: not wanted")
{
    bsp_size_t a;
    bsp_qsize(NIL, &a);
}
ALLOWED_BSP(bsp_qsize, accumulated_size, "either output may be NULL: not wanted")
{
    bsp_nprocs_t n;
    bsp_qsize(&n, NIL);
}
REFUSED_BSP(bsp_get_tag, status) { bsp_get_tag(NIL, buf); }
REFUSED_BSP(bsp_get_tag, tag)
{
    bsp_size_t status;
    queued();
    bsp_get_tag(&status, NIL); /* NULL with tag size 0 is legal */
}
REFUSED_BSP(bsp_move, payload)
{
    queued();
    bsp_move(NIL, 8); /* NULL with max_copy_size = 0 is legal */
}
REFUSED_BSP(bsp_hpmove, tag_ptr)
{
    void *p;
    bsp_hpmove(NIL, &p);
}
REFUSED_BSP(bsp_hpmove, payload_ptr)
{
    void *t;
    bsp_hpmove(&t, NIL);
}

/* The int-typed twins: their lines name the standard call. */
ALLOWED_BSP(bspram_bsplib_int_push_reg, address, "BSPlib: NULL (or size 0) registers \"nothing here\"")
{
    bspram_bsplib_int_push_reg(NIL, 0);
    bsp_sync();
}
REFUSED_BSP_AS(bspram_bsplib_int_put, src, "bsp_put")
{
    registered();
    bspram_bsplib_int_put(0, NIL, reg, 0, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_put, dst, "bsp_put")
{
    registered();
    bspram_bsplib_int_put(0, buf, NIL, 0, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_hpput, src, "bsp_hpput")
{
    registered();
    bspram_bsplib_int_hpput(0, NIL, reg, 0, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_hpput, dst, "bsp_hpput")
{
    registered();
    bspram_bsplib_int_hpput(0, buf, NIL, 0, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_get, src, "bsp_get")
{
    registered();
    bspram_bsplib_int_get(0, NIL, 0, buf, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_get, dst, "bsp_get")
{
    registered();
    bspram_bsplib_int_get(0, reg, 0, NIL, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_hpget, src, "bsp_hpget")
{
    registered();
    bspram_bsplib_int_hpget(0, NIL, 0, buf, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_hpget, dst, "bsp_hpget")
{
    registered();
    bspram_bsplib_int_hpget(0, reg, 0, NIL, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_set_tagsize, tag_bytes, "bsp_set_tagsize")
{
    bspram_bsplib_int_set_tagsize(NIL);
}
REFUSED_BSP_AS(bspram_bsplib_int_send, tag, "bsp_send")
{
    with_tagsize();
    bspram_bsplib_int_send(0, NIL, buf, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_send, payload, "bsp_send") { bspram_bsplib_int_send(0, buf, NIL, 8); }
REFUSED_BSP_AS(bspram_bsplib_int_hpsend, tag, "bsp_hpsend")
{
    with_tagsize();
    bspram_bsplib_int_hpsend(0, NIL, buf, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_hpsend, payload, "bsp_hpsend")
{
    bspram_bsplib_int_hpsend(0, buf, NIL, 8);
}
ALLOWED_BSP(bspram_bsplib_int_qsize, packets, "either output may be NULL: not wanted")
{
    int a;
    bspram_bsplib_int_qsize(NIL, &a);
}
ALLOWED_BSP(bspram_bsplib_int_qsize, accumulated_size, "either output may be NULL: not wanted")
{
    int n;
    bspram_bsplib_int_qsize(&n, NIL);
}
REFUSED_BSP_AS(bspram_bsplib_int_get_tag, status, "bsp_get_tag") { bspram_bsplib_int_get_tag(NIL, buf); }
REFUSED_BSP_AS(bspram_bsplib_int_get_tag, tag, "bsp_get_tag")
{
    int status;
    queued();
    bspram_bsplib_int_get_tag(&status, NIL);
}
REFUSED_BSP_AS(bspram_bsplib_int_move, payload, "bsp_move")
{
    queued();
    bspram_bsplib_int_move(NIL, 8);
}
REFUSED_BSP_AS(bspram_bsplib_int_hpmove, tag_ptr, "bsp_hpmove")
{
    void *p;
    bspram_bsplib_int_hpmove(NIL, &p);
}
REFUSED_BSP_AS(bspram_bsplib_int_hpmove, payload_ptr, "bsp_hpmove")
{
    void *t;
    bspram_bsplib_int_hpmove(&t, NIL);
}

/* ================================================================ combine/combine.h */

REFUSED(bspram_op_parse, name) { bspram_op_parse(NIL); }
REFUSED(bspram_combiner_create, m)
{
    bspram_combine_options o = bspram_combine_defaults(2);
    bspram_combiner_create(NIL, space(2), &o);
}
REFUSED(bspram_combiner_create, s)
{
    bspram_combine_options o = bspram_combine_defaults(2);
    bspram_combiner_create(machine(2, 1), NIL, &o);
}
REFUSED(bspram_combiner_create, o) { bspram_combiner_create(machine(2, 1), space(2), NIL); }
ALLOWED(bspram_combiner_destroy, c, "as free: NULL is ignored") { bspram_combiner_destroy(NIL); }
REFUSED(bspram_combiner_set_options, c)
{
    bspram_combine_options o = bspram_combine_defaults(2);
    bspram_combiner_set_options(NIL, &o);
}
REFUSED(bspram_combiner_set_options, o)
{
    combiner_fixture();
    bspram_combiner_set_options(cc, NIL);
}
REFUSED(bspram_combiner_add_op, c) { bspram_combiner_add_op(NIL, "x", user_op, NULL, 0); }
ALLOWED(bspram_combiner_add_op, name, "NULL names the operation \"user\"")
{
    combiner_fixture();
    bspram_combiner_add_op(cc, NIL, user_op, NULL, 0);
}
REFUSED(bspram_combiner_add_op, fn)
{
    combiner_fixture();
    bspram_combiner_add_op(cc, "x", NULL, NULL, 0);
}
ALLOWED(bspram_combiner_add_op, ctx, OPAQUE)
{
    combiner_fixture();
    bspram_combiner_add_op(cc, "x", user_op, NIL, 0);
}
REFUSED(bspram_combiner_op_count, c) { bspram_combiner_op_count(NIL); }
REFUSED(bspram_combiner_op_identity, c) { bspram_combiner_op_identity(NIL, 0); }
REFUSED(bspram_combine, c) { bspram_combine(NIL, creq, cfirst, cres, NULL); }
REFUSED(bspram_combine, requests)
{
    combiner_fixture();
    bspram_combine(cc, NIL, cfirst, cres, NULL);
}
REFUSED(bspram_combine, first)
{
    combiner_fixture();
    bspram_combine(cc, creq, NIL, cres, NULL);
}
REFUSED(bspram_combine, results)
{
    combiner_fixture();
    bspram_combine(cc, creq, cfirst, NIL, NULL); /* NULL without READ or FETCH is legal */
}
ALLOWED(bspram_combine, stats, "statistics not wanted")
{
    combiner_fixture();
    bspram_combine(cc, creq, cfirst, cres, NIL);
}
REFUSED(bspram_gather_cells, c) { bspram_gather_cells(NIL, 1, 1, cres); }
REFUSED(bspram_gather_cells, values)
{
    combiner_fixture();
    bspram_gather_cells(cc, creq[0].address, 1, NIL); /* NULL with count = 0 is legal */
}
REFUSED(bspram__combine_team, t) { bspram__combine_team(NIL, cc, creq, cfirst, cres, NULL); }
static void ct_c(bspram_team *t) { bspram__combine_team(t, NIL, creq, cfirst, cres, NULL); }
REFUSED(bspram__combine_team, c) { in_combiner_team(ct_c); }
static void ct_requests(bspram_team *t) { bspram__combine_team(t, cc, NIL, cfirst, cres, NULL); }
REFUSED(bspram__combine_team, requests) { in_combiner_team(ct_requests); }
static void ct_first(bspram_team *t) { bspram__combine_team(t, cc, creq, NIL, cres, NULL); }
REFUSED(bspram__combine_team, first) { in_combiner_team(ct_first); }
static void ct_results(bspram_team *t) { bspram__combine_team(t, cc, creq, cfirst, NIL, NULL); }
/* The engine's lines name the batch, bspram_combine (combine.h). */
CASE_(bspram__combine_team, results, "bspram_combine", NULL, 0) { in_combiner_team(ct_results); }
static void ct_stats(bspram_team *t) { bspram__combine_team(t, cc, creq, cfirst, cres, NIL); }
ALLOWED(bspram__combine_team, stats, "statistics not wanted (NULL on every lane)")
{
    in_combiner_team(ct_stats);
}
static bspram_batch_part cparts[2];
static void parts_fixture(void)
{
    cparts[0] = (bspram_batch_part){.requests = creq, .n = 1, .results = cres};
    cparts[1] = (bspram_batch_part){.n = 0};
}
REFUSED(bspram__combine_team_parts, t) { bspram__combine_team_parts(NIL, cc, cparts, NULL); }
static void cp_c(bspram_team *t)
{
    parts_fixture();
    bspram__combine_team_parts(t, NIL, cparts, NULL);
}
REFUSED(bspram__combine_team_parts, c) { in_combiner_team(cp_c); }
static void cp_parts(bspram_team *t) { bspram__combine_team_parts(t, cc, NIL, NULL); }
REFUSED(bspram__combine_team_parts, parts) { in_combiner_team(cp_parts); }
static void cp_stats(bspram_team *t)
{
    parts_fixture();
    bspram__combine_team_parts(t, cc, cparts, NIL);
}
ALLOWED(bspram__combine_team_parts, stats, "statistics not wanted (NULL on every lane)")
{
    in_combiner_team(cp_stats);
}
REFUSED(bspram_combiner_watch, c) { bspram_combiner_watch(NIL, 0); }
REFUSED(bspram_combiner_conflicts, c)
{
    bspram_conflict out[4];
    bspram_combiner_conflicts(NIL, out, 4);
}
REFUSED(bspram_combiner_conflicts, out)
{
    combiner_fixture();
    bspram_combiner_conflicts(cc, NIL, 4); /* NULL with max = 0 (the count only) is legal */
}

/* ================================================================ combine/bsp_shm.h */

static _Thread_local bsp_shm_t shm_seg;
static void shm_fixture(void)
{
    shm_seg = bsp_shm_alloc(4, 8, BSP_SHM_HASHED);
    bsp_sync();
}
#define shm_sum bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64)

ALLOWED_BSP(bsp_shm_add_op, name, "NULL names the operation \"user\"")
{
    bsp_shm_add_op(NIL, user_op, NULL, 0);
    bsp_sync();
}
REFUSED_BSP(bsp_shm_add_op, fn) { bsp_shm_add_op("x", NULL, NULL, 0); }
ALLOWED_BSP(bsp_shm_add_op, ctx, OPAQUE)
{
    bsp_shm_add_op("x", user_op, NIL, 0);
    bsp_sync();
}
REFUSED_BSP(bsp_shm_set_basis, basis) { bsp_shm_set_basis(NIL); }
REFUSED_BSP(bsp_shm_read, dst)
{
    shm_fixture();
    bsp_shm_read(shm_seg, 0, NIL);
}
REFUSED_BSP(bsp_shm_write, src)
{
    shm_fixture();
    bsp_shm_write(shm_seg, 0, BSP_SHM_ARBITRARY, NIL);
}
REFUSED_BSP(bsp_shm_reduce, value)
{
    shm_fixture();
    bsp_shm_reduce(shm_seg, 0, shm_sum, NIL);
}
REFUSED_BSP(bsp_shm_fetch_op, value)
{
    shm_fixture();
    bsp_shm_fetch_op(shm_seg, 0, shm_sum, NIL, buf);
}
REFUSED_BSP(bsp_shm_fetch_op, dst)
{
    shm_fixture();
    bsp_shm_fetch_op(shm_seg, 0, shm_sum, buf, NIL);
}
REFUSED_BSP(bsp_shm_combine_write, value)
{
    shm_fixture();
    bsp_shm_combine_write(shm_seg, 0, shm_sum, NIL);
}

/* ================================================================ combine/experiment.h */

ALLOWED(bspram_pattern_check, err, "the reason is optional: NULL (or err_len 0) asks for none")
{
    bspram_pattern_check(4, 3, 1, NIL, 64);
}
static bspram_request freq[8];
static uint64_t ffirst[5];
REFUSED(bspram_pattern_fill, s) { bspram_pattern_fill(NIL, 1, 4, 8, 1, freq, ffirst); }
REFUSED(bspram_pattern_fill, requests)
{
    bspram_space *s = space(4);
    bspram_pattern_fill(s, bspram_segment_alloc(s, 8, 8, BSPRAM_LAYOUT_HASHED), 4, 8, 1, NIL, ffirst);
}
REFUSED(bspram_pattern_fill, first)
{
    bspram_space *s = space(4);
    bspram_pattern_fill(s, bspram_segment_alloc(s, 8, 8, BSPRAM_LAYOUT_HASHED), 4, 8, 1, freq, NIL);
}
static bspram_table_config table_cfg = {4, 8, 1, 1, 1, BSPRAM_SPREAD_RANDOM, BSPRAM_HASH_XXH3, NULL, NULL,
                                        BSPRAM_SCHEDULE_SYNC, BSPRAM_ROUTER_SIMPLE};
static bspram_table_entry table_entry;
static void table_fixture(void)
{
    memset(&table_entry, 0, sizeof table_entry);
    strcpy(table_entry.basis_text, "4");
    table_entry.strategy = BSPRAM_STRATEGY_FIXED;
    bspram_basis_require(&table_entry.basis, 4, "4");
    table_entry.degree = 1;
}
REFUSED(bspram_table_run, cfg)
{
    double b;
    table_fixture();
    bspram_table_run(NIL, &table_entry, 1, &b);
}
REFUSED(bspram_table_run, entries)
{
    double b;
    bspram_table_run(&table_cfg, NIL, 1, &b); /* NULL with n = 0 is legal */
}
REFUSED(bspram_table_run, baseline)
{
    table_fixture();
    bspram_table_run(&table_cfg, &table_entry, 1, NIL);
}

/* ================================================================ combine/shared.h */

REFUSED(bspram_shared_create, m) { bspram_shared_create(NIL, space(2), NULL); }
REFUSED(bspram_shared_create, s) { bspram_shared_create(machine(2, 1), NIL, NULL); }
ALLOWED(bspram_shared_create, o, "NULL: the AUTO strategy with the machine's seed")
{
    bspram_shared_destroy(bspram_shared_create(machine(2, 1), space(2), NIL));
}
ALLOWED(bspram_shared_destroy, sh, "as free: NULL is ignored") { bspram_shared_destroy(NIL); }
REFUSED(bspram_shared_combiner, sh) { bspram_shared_combiner(NIL); }
REFUSED(bspram_shared_run, sh) { bspram_shared_run(NIL, quiet_step, NULL, 1); }
REFUSED(bspram_shared_run, step)
{
    shared_fixture();
    bspram_shared_run(sh, NULL, NULL, 1);
}
ALLOWED(bspram_shared_run, arg, OPAQUE)
{
    shared_fixture();
    bspram_shared_run(sh, quiet_step, NIL, 1);
}
static void sh_issue_sh(bspram_component *self)
{
    bspram_request r = {sh_addr, 0, BSPRAM_READ, 0};
    bspram_shared_issue(NIL, self, &r);
}
REFUSED(bspram_shared_issue, sh) { in_shared_step(sh_issue_sh); }
static void sh_issue_self(bspram_component *self)
{
    (void)self;
    bspram_request r = {sh_addr, 0, BSPRAM_READ, 0};
    bspram_shared_issue(sh, NIL, &r);
}
REFUSED(bspram_shared_issue, self) { in_shared_step(sh_issue_self); }
static void sh_issue_r(bspram_component *self) { bspram_shared_issue(sh, self, NIL); }
REFUSED(bspram_shared_issue, r) { in_shared_step(sh_issue_r); }
static void sh_read_sh(bspram_component *self) { bspram_shared_read(NIL, self, sh_addr); }
REFUSED(bspram_shared_read, sh) { in_shared_step(sh_read_sh); }
static void sh_read_self(bspram_component *self)
{
    (void)self;
    bspram_shared_read(sh, NIL, sh_addr);
}
REFUSED(bspram_shared_read, self) { in_shared_step(sh_read_self); }
static void sh_write_sh(bspram_component *self)
{
    bspram_shared_write(NIL, self, sh_addr, 1, BSPRAM_WRITE_ARBITRARY);
}
REFUSED(bspram_shared_write, sh) { in_shared_step(sh_write_sh); }
static void sh_write_self(bspram_component *self)
{
    (void)self;
    bspram_shared_write(sh, NIL, sh_addr, 1, BSPRAM_WRITE_ARBITRARY);
}
REFUSED(bspram_shared_write, self) { in_shared_step(sh_write_self); }
static void sh_reduce_sh(bspram_component *self) { bspram_shared_reduce(NIL, self, sh_addr, 7, 1); }
REFUSED(bspram_shared_reduce, sh) { in_shared_step(sh_reduce_sh); }
static void sh_reduce_self(bspram_component *self)
{
    (void)self;
    bspram_shared_reduce(sh, NIL, sh_addr, 7, 1);
}
REFUSED(bspram_shared_reduce, self) { in_shared_step(sh_reduce_self); }
static void sh_fetch_sh(bspram_component *self) { bspram_shared_fetch(NIL, self, sh_addr, 7, 1); }
REFUSED(bspram_shared_fetch, sh) { in_shared_step(sh_fetch_sh); }
static void sh_fetch_self(bspram_component *self)
{
    (void)self;
    bspram_shared_fetch(sh, NIL, sh_addr, 7, 1);
}
REFUSED(bspram_shared_fetch, self) { in_shared_step(sh_fetch_self); }
static void sh_answers_sh(bspram_component *self)
{
    const uint64_t *a;
    bspram_shared_answers(NIL, self, &a);
}
REFUSED(bspram_shared_answers, sh) { in_shared_step(sh_answers_sh); }
static void sh_answers_self(bspram_component *self)
{
    (void)self;
    const uint64_t *a;
    bspram_shared_answers(sh, NIL, &a);
}
REFUSED(bspram_shared_answers, self) { in_shared_step(sh_answers_self); }
static void sh_answers_answers(bspram_component *self) { bspram_shared_answers(sh, self, NIL); }
REFUSED(bspram_shared_answers, answers) { in_shared_step(sh_answers_answers); }
REFUSED(bspram_shared_answers_of, sh)
{
    const uint64_t *a;
    bspram_shared_answers_of(NIL, 0, &a);
}
REFUSED(bspram_shared_answers_of, answers)
{
    shared_fixture();
    bspram_shared_answers_of(sh, 0, NIL);
}

/* ================================================================ models/model.h */

static bspram_record rec_msg = {.messages = 1, .bytes = 8, .q = 1, .r = 1, .charge = 1, .h_bytes = 8,
                                .max_message = 8};
static bspram_flow flow1 = {0, 1, 1, 8, 8};
REFUSED(bspram_model_superstep, m) { bspram_model_superstep(NIL, 2, &rec_msg, &flow1, 1, 1, NULL); }
REFUSED(bspram_model_superstep, rec)
{
    bspram_model md = bspram_model_default(BSPRAM_MODEL_BUS);
    bspram_model_superstep(&md, 2, NIL, &flow1, 1, 1, NULL);
}
REFUSED(bspram_model_superstep, flows)
{
    bspram_model md = bspram_model_default(BSPRAM_MODEL_BUS);
    bspram_model_superstep(&md, 2, &rec_msg, NIL, 1, 1, NULL); /* NULL with n_flows = 0 is legal */
}
ALLOWED(bspram_model_superstep, flags, "the flags not wanted")
{
    bspram_model md = bspram_model_default(BSPRAM_MODEL_BUS);
    bspram_model_superstep(&md, 2, &rec_msg, &flow1, 1, 1, NIL);
}
REFUSED(bspram_model_price, m) { bspram_model_price(NIL, 2, &rec_msg, 1, NULL); }
REFUSED(bspram_model_price, records)
{
    bspram_model md = bspram_model_default(BSPRAM_MODEL_BSP);
    bspram_model_price(&md, 2, NIL, 1, NULL); /* NULL with n = 0 is legal */
}
ALLOWED(bspram_model_price, pattern, "no pattern kept")
{
    bspram_model md = bspram_model_default(BSPRAM_MODEL_BSP);
    bspram_model_price(&md, 2, &rec_msg, 1, NIL);
}
REFUSED(bspram_model_parse, name) { bspram_model_parse(NIL); }
REFUSED_BSP(bsp_model_price, m) { bsp_model_price(NIL); }

/* ================================================================ coll/bsp_coll.h */

static _Thread_local uint64_t csend[4], crecv[4];
#define SUM_I64 0u
REFUSED_BSP(bsp_coll_group_create, members) { bsp_coll_group_create(NIL, 2); } /* NULL with n = 0 is legal */
ALLOWED_BSP(bsp_coll_group_destroy, g, "as free: NULL is ignored") { bsp_coll_group_destroy(NIL); }
ALLOWED_BSP(bsp_coll_group_size, g, "NULL is the group of all processes") { bsp_coll_group_size(NIL); }
ALLOWED_BSP(bsp_coll_group_rank, g, "NULL is the group of all processes") { bsp_coll_group_rank(NIL); }
#define GROUP_ALL "NULL is the group of all processes"
#define OPT_ZERO "NULL: all options zero (the selection's choice)"
ALLOWED_BSP(bsp_coll_broadcast, g, GROUP_ALL) { bsp_coll_broadcast(NIL, csend, 8, 0, NULL); }
REFUSED_BSP(bsp_coll_broadcast, buf) { bsp_coll_broadcast(NULL, NIL, 8, 0, NULL); }
ALLOWED_BSP(bsp_coll_broadcast, opt, OPT_ZERO) { bsp_coll_broadcast(NULL, csend, 8, 0, NIL); }
ALLOWED_BSP(bsp_coll_scatter, g, GROUP_ALL) { bsp_coll_scatter(NIL, csend, crecv, 8, 0, NULL); }
REFUSED_BSP(bsp_coll_scatter, send) { bsp_coll_scatter(NULL, NIL, crecv, 8, 0, NULL); } /* root's */
REFUSED_BSP(bsp_coll_scatter, recv) { bsp_coll_scatter(NULL, csend, NIL, 8, 0, NULL); }
ALLOWED_BSP(bsp_coll_scatter, opt, OPT_ZERO) { bsp_coll_scatter(NULL, csend, crecv, 8, 0, NIL); }
ALLOWED_BSP(bsp_coll_gather, g, GROUP_ALL) { bsp_coll_gather(NIL, csend, crecv, 8, 0, NULL); }
REFUSED_BSP(bsp_coll_gather, send) { bsp_coll_gather(NULL, NIL, crecv, 8, 0, NULL); }
REFUSED_BSP(bsp_coll_gather, recv) { bsp_coll_gather(NULL, csend, NIL, 8, 0, NULL); } /* root's */
ALLOWED_BSP(bsp_coll_gather, opt, OPT_ZERO) { bsp_coll_gather(NULL, csend, crecv, 8, 0, NIL); }
ALLOWED_BSP(bsp_coll_allgather, g, GROUP_ALL) { bsp_coll_allgather(NIL, csend, crecv, 8, NULL); }
REFUSED_BSP(bsp_coll_allgather, send) { bsp_coll_allgather(NULL, NIL, crecv, 8, NULL); }
REFUSED_BSP(bsp_coll_allgather, recv) { bsp_coll_allgather(NULL, csend, NIL, 8, NULL); }
ALLOWED_BSP(bsp_coll_allgather, opt, OPT_ZERO) { bsp_coll_allgather(NULL, csend, crecv, 8, NIL); }
ALLOWED_BSP(bsp_coll_alltoall, g, GROUP_ALL) { bsp_coll_alltoall(NIL, csend, crecv, 8, NULL); }
REFUSED_BSP(bsp_coll_alltoall, send) { bsp_coll_alltoall(NULL, NIL, crecv, 8, NULL); }
REFUSED_BSP(bsp_coll_alltoall, recv) { bsp_coll_alltoall(NULL, csend, NIL, 8, NULL); }
ALLOWED_BSP(bsp_coll_alltoall, opt, OPT_ZERO) { bsp_coll_alltoall(NULL, csend, crecv, 8, NIL); }
ALLOWED_BSP(bsp_coll_reduce, g, GROUP_ALL) { bsp_coll_reduce(NIL, csend, crecv, 1, SUM_I64, 0, NULL); }
REFUSED_BSP(bsp_coll_reduce, send) { bsp_coll_reduce(NULL, NIL, crecv, 1, SUM_I64, 0, NULL); }
REFUSED_BSP(bsp_coll_reduce, recv) { bsp_coll_reduce(NULL, csend, NIL, 1, SUM_I64, 0, NULL); }
ALLOWED_BSP(bsp_coll_reduce, opt, OPT_ZERO) { bsp_coll_reduce(NULL, csend, crecv, 1, SUM_I64, 0, NIL); }
ALLOWED_BSP(bsp_coll_allreduce, g, GROUP_ALL) { bsp_coll_allreduce(NIL, csend, crecv, 1, SUM_I64, NULL); }
REFUSED_BSP(bsp_coll_allreduce, send) { bsp_coll_allreduce(NULL, NIL, crecv, 1, SUM_I64, NULL); }
REFUSED_BSP(bsp_coll_allreduce, recv) { bsp_coll_allreduce(NULL, csend, NIL, 1, SUM_I64, NULL); }
ALLOWED_BSP(bsp_coll_allreduce, opt, OPT_ZERO) { bsp_coll_allreduce(NULL, csend, crecv, 1, SUM_I64, NIL); }
ALLOWED_BSP(bsp_coll_scan, g, GROUP_ALL) { bsp_coll_scan(NIL, csend, crecv, 1, SUM_I64, NULL); }
REFUSED_BSP(bsp_coll_scan, send) { bsp_coll_scan(NULL, NIL, crecv, 1, SUM_I64, NULL); }
REFUSED_BSP(bsp_coll_scan, recv) { bsp_coll_scan(NULL, csend, NIL, 1, SUM_I64, NULL); }
ALLOWED_BSP(bsp_coll_scan, opt, OPT_ZERO) { bsp_coll_scan(NULL, csend, crecv, 1, SUM_I64, NIL); }
ALLOWED_BSP(bsp_coll_exscan, g, GROUP_ALL) { bsp_coll_exscan(NIL, csend, crecv, 1, SUM_I64, NULL); }
REFUSED_BSP(bsp_coll_exscan, send) { bsp_coll_exscan(NULL, NIL, crecv, 1, SUM_I64, NULL); }
REFUSED_BSP(bsp_coll_exscan, recv) { bsp_coll_exscan(NULL, csend, NIL, 1, SUM_I64, NULL); }
ALLOWED_BSP(bsp_coll_exscan, opt, OPT_ZERO) { bsp_coll_exscan(NULL, csend, crecv, 1, SUM_I64, NIL); }
ALLOWED(bsp_coll_predict, opt, OPT_ZERO) { bsp_coll_predict(BSP_COLL_BROADCAST, 4, 8, NIL); }
REFUSED(bsp_coll_op_parse, name) { bsp_coll_op_parse(NIL); }
REFUSED(bsp_coll_algorithm_parse, name) { bsp_coll_algorithm_parse(NIL); }

/* ================================================================ coll/bsp_sdp.h */

static _Thread_local bsp_sdp_layout sdp_layout;
static _Thread_local bsp_sdp_perm sdp_perm;
static void sdp_fixture(void)
{
    sdp_layout = bsp_sdp_cyclic(1, 2, 8);
    sdp_perm = bsp_sdp_identity(2);
}
REFUSED(bsp_sdp_analyze, layout)
{
    sdp_fixture();
    bsp_sdp_analyze(1, NIL, &sdp_perm);
}
REFUSED(bsp_sdp_analyze, perm)
{
    sdp_fixture();
    bsp_sdp_analyze(1, &sdp_layout, NIL);
}
REFUSED_BSP(bsp_sdp, layout)
{
    sdp_fixture();
    bsp_sdp(NIL, &sdp_perm, csend, crecv, NULL);
}
REFUSED_BSP(bsp_sdp, perm)
{
    sdp_fixture();
    bsp_sdp(&sdp_layout, NIL, csend, crecv, NULL);
}
REFUSED_BSP(bsp_sdp, src)
{
    sdp_fixture();
    bsp_sdp(&sdp_layout, &sdp_perm, NIL, crecv, NULL);
}
REFUSED_BSP(bsp_sdp, dst)
{
    sdp_fixture();
    bsp_sdp(&sdp_layout, &sdp_perm, csend, NIL, NULL);
}
ALLOWED_BSP(bsp_sdp, opt, "NULL: AUTO, one port")
{
    sdp_fixture();
    bsp_sdp(&sdp_layout, &sdp_perm, csend, crecv, NIL);
}
REFUSED(bsp_sdp_predict, layout)
{
    sdp_fixture();
    bsp_sdp_predict(1, NIL, &sdp_perm, NULL);
}
REFUSED(bsp_sdp_predict, perm)
{
    sdp_fixture();
    bsp_sdp_predict(1, &sdp_layout, NIL, NULL);
}
ALLOWED(bsp_sdp_predict, opt, "NULL: AUTO, one port")
{
    sdp_fixture();
    bsp_sdp_predict(1, &sdp_layout, &sdp_perm, NIL);
}
REFUSED(bsp_sdp_algorithm_parse, name) { bsp_sdp_algorithm_parse(NIL); }

/* ================================================================ pram/pram.h */

REFUSED(bspram_pram_model_parse, name)
{
    unsigned op;
    bspram_pram_model_parse(NIL, &op);
}
ALLOWED(bspram_pram_model_parse, op, "the operation not wanted")
{
    bspram_pram_model_parse("crcw-combining:max:u64", NIL);
}
REFUSED(bspram_pram_create, config) { bspram_pram_create(NIL); }
ALLOWED(bspram_pram_destroy, P, "as free: NULL is ignored") { bspram_pram_destroy(NIL); }
REFUSED(bspram_pram_n, P) { bspram_pram_n(NIL); }
REFUSED(bspram_pram_p, P) { bspram_pram_p(NIL); }
REFUSED(bspram_pram_model_of, P) { bspram_pram_model_of(NIL); }
REFUSED(bspram_pram_host, P) { bspram_pram_host(NIL, 0); }
REFUSED(bspram_pram_machine, P) { bspram_pram_machine(NIL); }
REFUSED(bspram_pram_combiner, P) { bspram_pram_combiner(NIL); }
REFUSED(bspram_pram_set_op, P) { bspram_pram_set_op(NIL, 0); }
REFUSED(bspram_pram_op, P) { bspram_pram_op(NIL); }
REFUSED(bspram_pram_alloc, P) { bspram_pram_alloc(NIL, "A", 4); }
ALLOWED(bspram_pram_alloc, name, "an array without a name")
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_alloc(pram, NIL, 4);
}
REFUSED(bspram_pram_free, P) { bspram_pram_free(NIL, 1); }
REFUSED(bspram_pram_cells, P) { bspram_pram_cells(NIL, 1); }
REFUSED(bspram_pram_cell, P) { bspram_pram_cell(NIL, 1, 0); }
REFUSED(bspram_pram_load, P) { bspram_pram_load(NIL, 1, pvals, 4); }
REFUSED(bspram_pram_load, values)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_load(pram, parr, NIL, 4); /* NULL with count = 0 is legal */
}
REFUSED(bspram_pram_store, P) { bspram_pram_store(NIL, 1, pvals, 4); }
REFUSED(bspram_pram_store, values)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_store(pram, parr, NIL, 4);
}
REFUSED(bspram_pram_gather, P) { bspram_pram_gather(NIL, 1, pcells, pvals); }
REFUSED(bspram_pram_gather, cells)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_gather(pram, 1, NIL, pvals);
}
REFUSED(bspram_pram_gather, out)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_gather(pram, 1, pcells, NIL);
}
REFUSED(bspram_pram_scatter, P) { bspram_pram_scatter(NIL, 1, pcells, pvals); }
REFUSED(bspram_pram_scatter, cells)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_scatter(pram, 1, NIL, pvals);
}
REFUSED(bspram_pram_scatter, values)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_scatter(pram, 1, pcells, NIL);
}
REFUSED(bspram_pram_scatter_reduce, P) { bspram_pram_scatter_reduce(NIL, 1, pcells, pvals, 0); }
REFUSED(bspram_pram_scatter_reduce, cells)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_scatter_reduce(pram, 1, NIL, pvals, 0);
}
REFUSED(bspram_pram_scatter_reduce, values)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_scatter_reduce(pram, 1, pcells, NIL, 0);
}
REFUSED(bspram_pram_fetch_op, P) { bspram_pram_fetch_op(NIL, 1, pcells, pvals, 0, pvals); }
REFUSED(bspram_pram_fetch_op, cells)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_fetch_op(pram, 1, NIL, pvals, 0, pvals);
}
REFUSED(bspram_pram_fetch_op, values)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_fetch_op(pram, 1, pcells, NIL, 0, pvals);
}
REFUSED(bspram_pram_fetch_op, out)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_fetch_op(pram, 1, pcells, pvals, 0, NIL);
}
REFUSED(bspram_pram_owned, P) { bspram_pram_owned(NIL, &owned_lo, &owned_hi); }
REFUSED(bspram_pram_owned, lo)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_owned(pram, NIL, &owned_hi);
}
REFUSED(bspram_pram_owned, hi)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_owned(pram, &owned_lo, NIL);
}
REFUSED(bspram_pram_gather_owned, P) { bspram_pram_gather_owned(NIL, 1, pcells, pvals); }
REFUSED(bspram_pram_gather_owned, cells)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_gather_owned(pram, 1, NIL, pvals);
}
REFUSED(bspram_pram_gather_owned, out)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_gather_owned(pram, 1, pcells, NIL);
}
REFUSED(bspram_pram_scatter_owned, P) { bspram_pram_scatter_owned(NIL, 1, pcells, pvals); }
REFUSED(bspram_pram_scatter_owned, cells)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_scatter_owned(pram, 1, NIL, pvals);
}
REFUSED(bspram_pram_scatter_owned, values)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_scatter_owned(pram, 1, pcells, NIL);
}
REFUSED(bspram_pram_scatter_reduce_owned, P) { bspram_pram_scatter_reduce_owned(NIL, 1, pcells, pvals, 0); }
REFUSED(bspram_pram_scatter_reduce_owned, cells)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_scatter_reduce_owned(pram, 1, NIL, pvals, 0);
}
REFUSED(bspram_pram_scatter_reduce_owned, values)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_scatter_reduce_owned(pram, 1, pcells, NIL, 0);
}
REFUSED(bspram_pram_fetch_op_owned, P) { bspram_pram_fetch_op_owned(NIL, 1, pcells, pvals, 0, pvals); }
REFUSED(bspram_pram_fetch_op_owned, cells)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_fetch_op_owned(pram, 1, NIL, pvals, 0, pvals);
}
REFUSED(bspram_pram_fetch_op_owned, values)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_fetch_op_owned(pram, 1, pcells, NIL, 0, pvals);
}
REFUSED(bspram_pram_fetch_op_owned, out)
{
    pram_fixture(BSPRAM_CRCW_COMBINING);
    bspram_pram_fetch_op_owned(pram, 1, pcells, pvals, 0, NIL);
}
static uint64_t fill_zero(uint64_t i, void *arg)
{
    (void)arg;
    return i;
}
static void visit_nothing(uint64_t i, uint64_t v, void *arg)
{
    (void)i;
    (void)v;
    (void)arg;
}
REFUSED(bspram_pram_fill, P) { bspram_pram_fill(NIL, 1, fill_zero, NULL); }
REFUSED(bspram_pram_fill, fn)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_fill(pram, parr, NULL, NULL);
}
ALLOWED(bspram_pram_fill, arg, OPAQUE)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_fill(pram, parr, fill_zero, NIL);
}
REFUSED(bspram_pram_visit, P) { bspram_pram_visit(NIL, 1, visit_nothing, NULL); }
REFUSED(bspram_pram_visit, fn)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_visit(pram, parr, NULL, NULL);
}
ALLOWED(bspram_pram_visit, arg, OPAQUE)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_visit(pram, parr, visit_nothing, NIL);
}
static void vp_nothing(bspram_vp *vp, void *arg)
{
    (void)vp;
    (void)arg;
}
REFUSED(bspram_pram_step, P) { bspram_pram_step(NIL, vp_nothing, vp_nothing, NULL); }
ALLOWED(bspram_pram_step, read, "no read phase")
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_step(pram, NULL, vp_nothing, NULL);
}
ALLOWED(bspram_pram_step, write, "no write phase")
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_step(pram, vp_nothing, NULL, NULL);
}
ALLOWED(bspram_pram_step, arg, OPAQUE)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_step(pram, vp_nothing, vp_nothing, NIL);
}
REFUSED(bspram_pram_for_all, P) { bspram_pram_for_all(NIL, vp_nothing, NULL); }
static bspram_vp_fn volatile nil_body; /* NIL for a function pointer */
REFUSED(bspram_pram_for_all, body)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_for_all(pram, nil_body, NULL);
}
ALLOWED(bspram_pram_for_all, arg, OPAQUE)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_for_all(pram, vp_nothing, NIL);
}
REFUSED(bspram_vp_get, vp) { bspram_vp_get(NIL, 1, 0); }
ALLOWED(bspram_vp_at, vp, "passed on: the call it wraps reports it") { bspram_vp_at(NIL, "f.c", 1); }
static void vp_at_no_file(bspram_vp *vp, void *arg)
{
    (void)arg;
    bspram_vp_write(bspram_vp_at(vp, NIL, 0), parr, bspram_vp_id(vp), 1);
}
ALLOWED(bspram_vp_at, file, "no site: the violation line names none")
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_step(pram, NULL, vp_at_no_file, NULL);
}
ALLOWED(bspram_pram_at, P, "passed on: the call it wraps reports it") { bspram_pram_at(NIL, "f.c", 1); }
ALLOWED(bspram_pram_at, file, "no site: the violation line names none")
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_at(pram, NIL, 0);
}
REFUSED(bspram_vp_id, vp) { bspram_vp_id(NIL); }
REFUSED(bspram_vp_n, vp) { bspram_vp_n(NIL); }
REFUSED(bspram_vp_registers, vp) { bspram_vp_registers(NIL); }
REFUSED(bspram_vp_read, vp) { bspram_vp_read(NIL, 1, 0); }
REFUSED(bspram_vp_value, vp) { bspram_vp_value(NIL, 0); }
REFUSED(bspram_vp_write, vp) { bspram_vp_write(NIL, 1, 0, 1); }
REFUSED(bspram_vp_reduce, vp) { bspram_vp_reduce(NIL, 1, 0, 1, 0); }
REFUSED(bspram_pram_stats_of, P) { bspram_pram_stats_of(NIL); }
REFUSED(bspram_pram_trace, P)
{
    size_t n;
    bspram_pram_trace(NIL, &n);
}
REFUSED(bspram_pram_trace, n)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_trace(pram, NIL);
}
REFUSED(bspram_pram_write_trace, P) { bspram_pram_write_trace(NIL, "/dev/null"); }
REFUSED(bspram_pram_write_trace, path)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_write_trace(pram, NIL);
}
REFUSED(bspram_pram_record, P) { bspram_pram_record(NIL, true); }
REFUSED(bspram_pram_write_html, P) { bspram_pram_write_html(NIL, "/dev/null"); }
REFUSED(bspram_pram_write_html, path)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_record(pram, true);
    bspram_pram_write_html(pram, NIL);
}
REFUSED(bspram_pram_report, P) { bspram_pram_report(NIL, stdout); }
REFUSED(bspram_pram_report, out)
{
    pram_fixture(BSPRAM_EREW);
    bspram_pram_report(pram, NIL);
}

/* ================================================================ the runner */

enum { PASSED, CRASHED, HUNG, WRONG };

/* Whether `line` names `name` as a call: "name(" or "name:" after a
 * non-identifier character. */
static int names_call(const char *line, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = line; (p = strstr(p, name)) != NULL; p++) {
        int before = p == line || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                                    (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9'));
        if (before && (p[n] == '(' || p[n] == ':'))
            return 1;
    }
    return 0;
}

static int names_null(const char *line, const char *param)
{
    static const char *const forms[] = {"%s=NULL", "%s is NULL", "%s must not be NULL"};
    char want[128];
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        snprintf(want, sizeof want, forms[i], param);
        for (const char *p = line; (p = strstr(p, want)) != NULL; p++)
            if (p == line || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                               (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9')))
                return 1;
    }
    return 0;
}

static void run_child(void *arg)
{
    const null_case *c = arg;
    if (c->bsplib) {
        int i = (int)(c - cases);
        bsplib_death_run(&i);
    } else {
        c->run();
    }
}

/* Run case c in a child; classify the outcome. */
static int run_case(const null_case *c, char *out, size_t len)
{
    int fds[2];
    fflush(stdout);
    fflush(stderr);
    if (pipe(fds) != 0) {
        perror("pipe");
        exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0)
            dup2(nul, STDOUT_FILENO);
        alarm(60);
        run_child((void *)c);
        _exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t k;
    while (n < len - 1 && (k = read(fds[0], out + n, len - 1 - n)) > 0)
        n += (size_t)k;
    out[n] = 0;
    char drain[256];
    while (read(fds[0], drain, sizeof drain) > 0) {
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status))
        return WTERMSIG(status) == SIGALRM ? HUNG : CRASHED;
    if (c->why) /* allowed: ends normally, silently */
        return WIFEXITED(status) && WEXITSTATUS(status) == 0 && n == 0 ? PASSED : WRONG;
    const char *nl = strchr(out, '\n');
    int one_line = nl != NULL && nl[1] == 0;
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == BSPRAM_EXIT_FAILURE && one_line &&
             strncmp(out, "bspram: ", 8) == 0 && names_call(out, c->call) &&
             names_null(out, c->param);
    return ok ? PASSED : WRONG;
}

static int by_name(const void *a, const void *b)
{
    const null_case *x = a, *y = b;
    int k = strcmp(x->fn, y->fn);
    return k ? k : strcmp(x->param, y->param);
}

int main(int argc, char **argv)
{
    qsort(cases, (size_t)ncases, sizeof *cases, by_name);
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (int i = 0; i < ncases; i++)
            printf("%s %s %s\n", cases[i].why ? "allowed" : "refused", cases[i].fn, cases[i].param);
        return 0;
    }
    const char *only = argc > 1 ? argv[1] : NULL;
    int count[4] = {0}, allowed_run = 0, allowed_not_run = 0, refused = 0;
    static const char *const what[] = {"passed", "CRASHED (signal)", "HUNG", "WRONG"};
    for (int i = 0; i < ncases; i++) {
        const null_case *c = &cases[i];
        if (only && !strstr(c->fn, only))
            continue;
        if (!c->run) {
            allowed_not_run++;
            continue;
        }
        char out[8192];
        int r = run_case(c, out, sizeof out);
        count[r]++;
        if (c->why)
            allowed_run++;
        else
            refused++;
        check_count++;
        if (r != PASSED) {
            check_failures++;
            fprintf(stderr, "%s %s(%s=NULL): %s; stderr: %s%s", c->why ? "allowed" : "refused", c->fn,
                    c->param, what[r], out[0] ? out : "(empty)\n",
                    out[0] && out[strlen(out) - 1] != '\n' ? "\n" : "");
        }
    }
    printf("test_null_errors: %d refused cases, %d allowed cases run (%d allowed not run): "
           "%d passed, %d crashed with a signal, %d hung, %d wrong\n",
           refused, allowed_run, allowed_not_run, count[PASSED], count[CRASHED], count[HUNG],
           count[WRONG]);
    return check_report("test_null_errors");
}
