/* Where a team's threads run (bsp/placement.h, bsp/threads.h): the places
 * from a mask and a topology, by our rule and by OpenMP's variables, checked
 * against sets written out by hand; then, on this machine, that a team's
 * lanes but the calling thread's, and BSPlib's pid 0, run on those places
 * while the team runs, that the calling thread keeps its own mask, and that
 * pid 0's thread has its own back after the section (OMP_PROC_BIND=false: no
 * binding at all). */
#include <bsp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bsp/machine.h"
#include "bsp/placement.h"
#include "check.h"

static cpu_set_t set_of(const char *cpus) /* "0 2 3" */
{
    cpu_set_t s;
    CPU_ZERO(&s);
    for (char *end; *cpus; cpus = end) {
        long c = strtol(cpus, &end, 10);
        if (end == cpus)
            break;
        CPU_SET((int)c, &s);
    }
    return s;
}

static int lane_on(const bspram_placement *pl, unsigned lane, const char *cpus)
{
    const cpu_set_t *got = bspram__bsp_placement_of(pl, lane), want = set_of(cpus);
    return got && CPU_EQUAL(got, &want);
}

/* Four CPUs, two cores of two hardware threads: {0, 1} and {2, 3}. */
static const int SMT[8] = {0, 0, 1, 1, -1, -1, -1, -1};

static void plans(void)
{
    const cpu_set_t all = set_of("0 1 2 3");
    bspram_placement pl;

    /* Our rule: a team that fits the cores, a core each. */
    bspram__bsp_placement_make_from(&pl, 2, false, NULL, NULL, &all, SMT);
    CHECK(pl.nplaces == 2 && lane_on(&pl, 0, "0 1") && lane_on(&pl, 1, "2 3"));
    bspram__bsp_placement_free(&pl);
    /* Larger than the cores, within the hardware threads: one thread each,
     * a thread of every core before the second of any. */
    bspram__bsp_placement_make_from(&pl, 3, false, NULL, NULL, &all, SMT);
    CHECK(pl.nplaces == 4 && lane_on(&pl, 0, "0") && lane_on(&pl, 1, "2") && lane_on(&pl, 2, "1"));
    bspram__bsp_placement_free(&pl);
    bspram__bsp_placement_make_from(&pl, 4, false, NULL, NULL, &all, SMT);
    CHECK(lane_on(&pl, 3, "3"));
    bspram__bsp_placement_free(&pl);
    /* Not bound: larger than the mask, one thread, spread over MPI ranks. */
    bspram__bsp_placement_make_from(&pl, 5, false, NULL, NULL, &all, SMT);
    CHECK(pl.nplaces == 0 && !bspram__bsp_placement_of(&pl, 0));
    bspram__bsp_placement_free(&pl);
    bspram__bsp_placement_make_from(&pl, 1, false, NULL, NULL, &all, SMT);
    CHECK(pl.nplaces == 0);
    bspram__bsp_placement_free(&pl);
    bspram__bsp_placement_make_from(&pl, 2, true, NULL, NULL, &all, SMT);
    CHECK(pl.nplaces == 0);
    bspram__bsp_placement_free(&pl);
    /* Only the mask's CPUs: a mask of {1, 2, 3} has cores {1} and {2, 3}. */
    const cpu_set_t three = set_of("1 2 3");
    bspram__bsp_placement_make_from(&pl, 2, false, NULL, NULL, &three, SMT);
    CHECK(lane_on(&pl, 0, "1") && lane_on(&pl, 1, "2 3"));
    bspram__bsp_placement_free(&pl);

    /* OpenMP's variables. */
    bspram__bsp_placement_make_from(&pl, 2, false, "false", NULL, &all, SMT);
    CHECK(pl.nplaces == 0);
    bspram__bsp_placement_free(&pl);
    bspram__bsp_placement_make_from(&pl, 2, false, "FALSE", "cores", &all, SMT);
    CHECK(pl.nplaces == 0);
    bspram__bsp_placement_free(&pl);
    bspram__bsp_placement_make_from(&pl, 2, false, "nonsense", NULL, &all, SMT);
    CHECK(pl.nplaces == 0);
    bspram__bsp_placement_free(&pl);
    /* true: the places default to cores; 8 lanes on 2 places, 4 each (close). */
    bspram__bsp_placement_make_from(&pl, 8, false, "true", NULL, &all, SMT);
    CHECK(pl.nplaces == 2 && lane_on(&pl, 3, "0 1") && lane_on(&pl, 4, "2 3"));
    bspram__bsp_placement_free(&pl);
    /* spread over threads: 2 lanes on 4 places, every other one. */
    bspram__bsp_placement_make_from(&pl, 2, false, "spread", "threads", &all, SMT);
    CHECK(pl.nplaces == 4 && lane_on(&pl, 0, "0") && lane_on(&pl, 1, "1"));
    bspram__bsp_placement_free(&pl);
    /* close over threads: consecutive places. */
    bspram__bsp_placement_make_from(&pl, 2, false, "close", "threads", &all, SMT);
    CHECK(lane_on(&pl, 0, "0") && lane_on(&pl, 1, "2"));
    bspram__bsp_placement_free(&pl);
    /* Lists: intervals, strides, replication; places outside the mask dropped. */
    bspram__bsp_placement_make_from(&pl, 2, false, NULL, "{0:2},{2:2}", &all, SMT);
    CHECK(pl.nplaces == 2 && lane_on(&pl, 0, "0 1") && lane_on(&pl, 1, "2 3"));
    bspram__bsp_placement_free(&pl);
    bspram__bsp_placement_make_from(&pl, 2, false, "close", "{3},{0,2}", &all, SMT);
    CHECK(pl.nplaces == 2 && lane_on(&pl, 0, "3") && lane_on(&pl, 1, "0 2"));
    bspram__bsp_placement_free(&pl);
    bspram__bsp_placement_make_from(&pl, 4, false, NULL, "{0}:4:1", &all, SMT);
    CHECK(pl.nplaces == 4 && lane_on(&pl, 2, "2"));
    bspram__bsp_placement_free(&pl);
    bspram__bsp_placement_make_from(&pl, 2, false, NULL, "{0:2:2}, {1}", &all, SMT);
    CHECK(pl.nplaces == 2 && lane_on(&pl, 0, "0 2") && lane_on(&pl, 1, "1"));
    bspram__bsp_placement_free(&pl);
    bspram__bsp_placement_make_from(&pl, 2, false, NULL, "{7},{1}", &all, SMT);
    CHECK(pl.nplaces == 1 && lane_on(&pl, 0, "1") && lane_on(&pl, 1, "1"));
    bspram__bsp_placement_free(&pl);
    const char *bad[] = {"{x}", "{0", "{0}:", "0,1", "{0},", "{0:0}", "bogus", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        bspram__bsp_placement_make_from(&pl, 2, false, NULL, bad[i], &all, SMT);
        CHECK(pl.nplaces == 0);
        bspram__bsp_placement_free(&pl);
    }
}

/* ---- on this machine ---- */

static cpu_set_t before;       /* the program's mask */
static cpu_set_t seen[2];      /* each lane's mask inside the team */
static bspram_placement want;  /* what the lanes should have */

static bool note_mask(bspram_component *c, void *arg)
{
    (void)arg;
    if (bspram_superstep(c) == 0)
        sched_getaffinity(0, sizeof seen[0], &seen[bspram_pid(c)]);
    return false;
}

static void team_run(const char *proc_bind)
{
    if (proc_bind)
        setenv("OMP_PROC_BIND", proc_bind, 1);
    else
        unsetenv("OMP_PROC_BIND");
    bspram__bsp_placement_make(&want, 2, false);
    bspram_config cfg = bspram_config_default(2);
    cfg.threads = 2;
    for (int run = 0; run < 3; run++) { /* the pool's threads, each time */
        bspram_machine *m = bspram_machine_create(&cfg);
        memset(seen, 0, sizeof seen);
        bspram_machine_run(m, note_mask, NULL, 0);
        /* Lane 0 runs on the calling thread, where it is; lane 1 on its place. */
        CHECK(CPU_EQUAL(&seen[0], &before));
        const cpu_set_t *w = bspram__bsp_placement_of(&want, 1);
        CHECK(CPU_EQUAL(&seen[1], w ? w : &before));
        cpu_set_t after;
        sched_getaffinity(0, sizeof after, &after);
        CHECK(CPU_EQUAL(&after, &before)); /* the calling thread's own mask again */
        bspram_machine_destroy(m);
    }
    if (!proc_bind) /* bound when the team fits: here it does */
        CHECK(want.nplaces >= 2 && CPU_COUNT(bspram__bsp_placement_of(&want, 0)) >= 1);
    else
        CHECK(want.nplaces == 0);
}

static cpu_set_t pid0_mask;

static void spmd(void)
{
    bsp_begin(2);
    if (bsp_pid() == 0)
        sched_getaffinity(0, sizeof pid0_mask, &pid0_mask);
    bsp_sync();
    bsp_end();
}

int main(void)
{
    plans();
    sched_getaffinity(0, sizeof before, &before);
    if (CPU_COUNT(&before) < 2) {
        printf("test_placement: one CPU in the mask: the runs on this machine are skipped\n");
        return check_report("test_placement");
    }
    team_run(NULL);
    const cpu_set_t lane0 = *bspram__bsp_placement_of(&want, 0);
    bspram__bsp_placement_free(&want);
    /* BSPlib's pid 0 runs on the program's thread: bound in the section, its
     * own mask after. */
    bsp_init(spmd, 0, NULL);
    spmd();
    CHECK(CPU_EQUAL(&pid0_mask, &lane0));
    cpu_set_t after;
    sched_getaffinity(0, sizeof after, &after);
    CHECK(CPU_EQUAL(&after, &before));
    /* The user says no: nothing bound, the pool's threads unbound again. */
    team_run("false");
    bspram__bsp_placement_free(&want);
    return check_report("test_placement");
}
