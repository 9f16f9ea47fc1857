/* Bad input to the bulk machine and to what it stands on (router, hash basis,
 * random draws): one line naming the call, the value and the
 * valid range, then a non-zero exit — never a hang. */
#include <math.h>
#include <stdbool.h>

#include "bspram.h"
#include "check.h"
#include "bsp/machine_internal.h"
#include "router/router.h"

static void p_zero(void *a)
{
    (void)a;
    bspram_config cfg = bspram_config_default(0);
    bspram_machine_create(&cfg);
}

static void threads_zero(void *a)
{
    (void)a;
    bspram_config cfg = bspram_config_default(4);
    cfg.threads = 0;
    bspram_machine_create(&cfg);
}

/* Above BSPRAM_MAX_THREADS: refused in one line, before OpenMP is asked
 * for a team it cannot give (libgomp crashed at 70000 threads). */
static void threads_too_many(void *a)
{
    (void)a;
    bspram_config cfg = bspram_config_default(4);
    cfg.threads = BSPRAM_MAX_THREADS + 1;
    bspram_machine_create(&cfg);
}

static void threads_int_max(void *a)
{
    (void)a;
    bspram_config cfg = bspram_config_default(4);
    cfg.threads = 2147483647;
    bspram_machine_create(&cfg);
}

/* g and l price every superstep: NaN, infinity or a negative value once
 * passed, and bspram_machine_predicted_cost said nan. */
static void bad_g_l(void *a)
{
    const double *gl = a;
    bspram_config cfg = bspram_config_default(4);
    cfg.threads = 2;
    cfg.g = gl[0];
    cfg.l = gl[1];
    bspram_machine_create(&cfg);
}

static void p_too_big(void *a)
{
    (void)a;
    bspram__router_create(1ULL << 33, 1);
}

static bool send_out_of_range(bspram_component *c, void *a)
{
    (void)a;
    if (bspram_pid(c) == 2 && bspram_superstep(c) == 1)
        bspram_send(c, 9, "x", 1);
    return bspram_superstep(c) < 3;
}

static bool send_null(bspram_component *c, void *a)
{
    (void)a;
    if (bspram_pid(c) == 5)
        bspram_send(c, 1, NULL, 16);
    return false;
}

static void run_machine(bspram_step_fn fn, uint64_t p, int threads)
{
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = threads;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram_machine_run(m, fn, NULL, 0);
    bspram_machine_destroy(m);
}

static void dst_out_of_range(void *a) { (void)a; run_machine(send_out_of_range, 8, 2); }
static void dst_out_of_range_oversubscribed(void *a) { (void)a; run_machine(send_out_of_range, 8, 8); }
static void null_payload(void *a) { (void)a; run_machine(send_null, 8, 2); }

/* A length near 2^64 (a negative size): refused, not wrapped into a tiny slot. */
static bool send_huge(bspram_component *c, void *a)
{
    (void)a;
    if (bspram_pid(c) == 3)
        bspram_send_buffer(c, 1, UINT64_MAX - 20);
    return false;
}
static void huge_message(void *a) { (void)a; run_machine(send_huge, 8, 2); }

static void bad_basis(void *a)
{
    bspram_basis b;
    bspram_basis_require(&b, 4096, (const char *)a);
}

static void random_n_zero(void *a)
{
    (void)a;
    bspram_random_below(0, 1, 2, 3, 4);
}

static void spmd_p_ne_threads(void *a)
{
    (void)a;
    bspram_config cfg = bspram_config_default(4);
    cfg.threads = 2;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram__bsp_machine_spmd(m, NULL, NULL);
}

/* Component 1 ends its program while the others are still syncing. */
static void early_end(bspram_component *c, void *a)
{
    (void)a;
    if (bspram_pid(c) == 1)
        return;
    for (int i = 0; i < 3; i++)
        bspram__bsp_sync(c, 0);
}

static void spmd_early_end(void *a)
{
    bspram_config cfg = bspram_config_default(*(int *)a);
    cfg.threads = *(int *)a;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram__bsp_machine_spmd(m, early_end, NULL);
}

static bool sync_in_bulk_step(bspram_component *c, void *a)
{
    (void)a;
    if (bspram_pid(c) == 0)
        bspram__bsp_sync(c, 0);
    return false;
}

static void bulk_sync(void *a) { (void)a; run_machine(sync_in_bulk_step, 4, 2); }

/* A run of the machine from inside one of its own steps or programs: with
 * T = 1 it once ran to the end in the middle of the outer superstep. */
static bool quiet_step(bspram_component *c, void *a)
{
    (void)c;
    (void)a;
    return false;
}

static bool nested_run_step(bspram_component *c, void *a)
{
    (void)a;
    if (bspram_pid(c) == 0)
        bspram_machine_run(bspram__bsp_component_machine(c), quiet_step, NULL, 1);
    return false;
}

static void nested_run(void *a) { run_machine(nested_run_step, 4, *(int *)a); }

/* A host-side combining batch from inside a step: its line names the call
 * the program made, bspram_combine, not the machine's inside. */
static bspram_combiner *nested_combiner;
static bool nested_combine_step(bspram_component *c, void *a)
{
    (void)a;
    if (bspram_pid(c) == 0) {
        uint64_t first[5] = {0, 0, 0, 0, 0};
        bspram_request none[1];
        bspram_combine(nested_combiner, none, first, NULL, NULL);
    }
    return false;
}

static void nested_combine(void *a)
{
    bspram_config cfg = bspram_config_default(4);
    cfg.threads = *(int *)a;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram_space *s = bspram_space_create(4, BSPRAM_HASH_XXH3, 1);
    bspram_combine_options o = bspram_combine_defaults(4);
    nested_combiner = bspram_combiner_create(m, s, &o);
    bspram_machine_run(m, nested_combine_step, NULL, 1);
}

static void noop_lane(bspram_team *t, void *a)
{
    (void)t;
    (void)a;
}

static void nested_team_program(bspram_component *c, void *a)
{
    (void)a;
    if (bspram_pid(c) == 0)
        bspram__bsp_machine_team(bspram__bsp_component_machine(c), noop_lane, NULL);
}

static void nested_team(void *a)
{
    bspram_config cfg = bspram_config_default(2);
    cfg.threads = *(int *)a;
    cfg.p = (uint64_t)cfg.threads;
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram__bsp_machine_spmd(m, nested_team_program, NULL);
    bspram_machine_destroy(m);
}

static void reserved_tag(void *a)
{
    (void)a;
    bspram_router *r = bspram__router_create(1, 1);
    bspram__router_exchange(r, 0, 0x80000000u);
}

int main(void)
{
    check_death("p = 0", p_zero, NULL, "bspram: bspram_machine_create(p=0, threads=", 1, 10);
    check_death("huge message", huge_message, NULL,
                "bspram_send_buffer(dst=1, len=18446744073709551595): message too large; at most "
                "4611686018427387904 bytes (superstep 0, component 3)", 1, 10);
    check_death("p = 0", p_zero, NULL, "p must be in [1, 4294967295]", 1, 10);
    check_death("T = 0", threads_zero, NULL, "threads=0): threads must be in [1, 65536]", 1, 10);
    check_death("T = 65537", threads_too_many, NULL,
                "bspram: bspram_machine_create(p=4, threads=65537): threads must be in [1, 65536]", 1, 10);
    check_death("T = INT_MAX", threads_int_max, NULL, "threads=2147483647): threads must be in [1, 65536]", 1, 10);
    static const double bad_gl[][2] = {{NAN, 1}, {1, NAN}, {INFINITY, 1}, {1, -INFINITY}, {-0.5, 1}, {1, -1}};
    for (int i = 0; i < 6; i++)
        check_death("g or l not finite or negative", bad_g_l, (void *)bad_gl[i],
                    "bspram: bspram_machine_create(p=4, threads=2, g=", 1, 10);
    check_death("g = NaN", bad_g_l, (void *)bad_gl[0],
                "bspram_machine_create(p=4, threads=2, g=nan, l=1): g and l must be finite and >= 0", 1, 10);
    check_death("l = -1", bad_g_l, (void *)bad_gl[5],
                "bspram_machine_create(p=4, threads=2, g=1, l=-1): g and l must be finite and >= 0", 1, 10);
    check_death("p = 2^33", p_too_big, NULL, "bspram: internal error: a router of p = 8589934592 components on 1 lanes; p must be in [1, 4294967295]", 1, 10);
    check_death("dst out of range", dst_out_of_range, NULL,
                "bspram: bspram_send(dst=9): destination outside [0, 8) (superstep 1, component 2)", 1, 10);
    check_death("dst out of range, T = p", dst_out_of_range_oversubscribed, NULL,
                "bspram_send(dst=9): destination outside [0, 8) (superstep 1, component 2)", 1, 10);
    check_death("null payload", null_payload, NULL,
                "bspram_send(dst=1, data=NULL, len=16): NULL payload with a non-zero size (superstep 0, component 5)", 1, 10);
    check_death("basis product", bad_basis, "8x8x8", "bspram_basis_require(p=4096, basis=8x8x8): basis product is 512; it must equal p = 4096", 1, 10);
    check_death("basis zero", bad_basis, "0x4096", "basis entry b_1 is 0; every entry must be >= 1", 1, 10);
    check_death("basis syntax", bad_basis, "8x-8", "cannot read '8x-8' as a basis", 1, 10);
    check_death("random n = 0", random_n_zero, NULL, "bspram_random_below(n=0): n must be >= 1", 1, 10);
    check_death("spmd p != T", spmd_p_ne_threads, NULL, "bspram: internal error: an SPMD run with p = 4 components on 2 threads; the SPMD style needs p == threads", 1, 10);
    static int two = 2, sixteen = 16;
    check_death("spmd early end", spmd_early_end, &two, "another component's program has ended", 0, 10);
    check_death("spmd early end, oversubscribed", spmd_early_end, &sixteen, "another component's program has ended", 0, 10);
    check_death("reserved tag", reserved_tag, NULL, "bits 0xf0000000 are reserved by the router", 1, 10);
    check_death("a component's sync in a bulk step", bulk_sync, NULL,
                "bspram: internal error: a sync called from a bulk-style step (component 0, superstep 0); a bulk step ends its superstep by returning", 1, 10);
    static int one = 1;
    const char *nested = ": the machine's team is already running (a call from inside one of its "
                         "steps or programs, or from another thread); a machine runs one team at a time\n";
    char want[256];
    snprintf(want, sizeof want, "bspram: bspram_machine_run%s", nested);
    check_death("nested run, T = 1", nested_run, &one, want, 1, 10);
    check_death("nested run, T = 2", nested_run, &two, want, 1, 10);
    snprintf(want, sizeof want, "bspram: a team run of the machine%s", nested);
    check_death("nested team, T = 1", nested_team, &one, want, 1, 10);
    check_death("nested team, T = 2", nested_team, &two, want, 1, 10);
    snprintf(want, sizeof want, "bspram: bspram_combine%s", nested);
    check_death("nested combining batch, T = 1", nested_combine, &one, want, 1, 10);
    check_death("nested combining batch, T = 2", nested_combine, &two, want, 1, 10);
    return check_report("test_machine_errors");
}
