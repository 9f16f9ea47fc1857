/* The g and l the automatic choice prices rounds with (select.c), and where
 * they come from, the first that applies (docs/collectives.md, "Selection"):
 *   1. $BSPRAM_PARAMS: that parameter file (bsp/params.h) — its g and l, or
 *      the defaults if it is missing or unusable; never a probe;
 *   2. the file `bspram probe` saved ($XDG_CONFIG_HOME/bspram/params or
 *      ~/.config/bspram/params), if there is one: a measurement asked for;
 *   3. BSPRAM_PROBE=0: the defaults (g = 1 ns per byte, l = 1 µs), for
 *      deterministic choices in tests;
 *   4. the cache of earlier probes (gl_cache.c), the line of this CPU model,
 *      core count and P, if this version of the library measured it on a
 *      quiet machine (other work kept at most LOAD_MAX of the cores busy);
 *   5. the defaults, if this version measured P's line under load less than
 *      RETRY_S ago: a loaded figure is not used, and a machine that was
 *      loaded a moment ago is not measured again at every program's start;
 *   6. inside a section, at the first call that may select: the probe
 *      (gl_probe.c), whose result is cached, with one notice on stderr, and
 *      used if it was measured quietly (else the defaults);
 *   7. the defaults.
 * 1–3 are read once per program; 4–6 once per P (a program's sections may
 * differ in P), the first process to ask deciding for all: every process of
 * a section must price alike, or they would pick different algorithms. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/environment.h"
#include "bsp/params.h"
#include "coll/coll_internal.h"

/* Without a probe: l ≈ 1 µs and g ≈ 1 ns per byte, the order of an
 * oversubscribed bsp_sync and of a copy through the router on a small
 * machine (bench/RESULTS.md). */
#define DEFAULT_G_NS 1.0
#define DEFAULT_L_NS 1000.0

/* A line measured under load (coll_internal.h) is measured again after
 * RETRY_S. */
#define LOAD_MAX BSPRAM__COLL_GL_LOAD_MAX
#define RETRY_S 3600

#ifndef BSPRAM_VERSION
#error "BSPRAM_VERSION (the library's version) must be defined by the build"
#endif

static struct {
    int fixed; /* 1–3 decided: g and l below, for every P */
    double g, l;
} once_per_program;
static pthread_once_t program_once = PTHREAD_ONCE_INIT;

static void read_files(void)
{
    bspram_environment env = bspram__base_environment_read();
    double g = DEFAULT_G_NS, l = DEFAULT_L_NS;
    /* bspram_params_load: $BSPRAM_PARAMS, else the probe's file; untouched if absent. */
    int loaded = bspram_params_load(&g, &l) == 0;
    once_per_program.fixed = env.params || loaded || env.probe_off;
    once_per_program.g = g;
    once_per_program.l = l;
}

/* Per P: what was decided. */
enum { UNKNOWN, PROBING, KNOWN };
#define MEMO_P 64
static struct {
    unsigned p;
    int state;
    double g, l;
} memo[MEMO_P];
static unsigned memo_n;
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

/* The entry of P (made UNKNOWN if new; the last one reused when full). */
static unsigned slot(unsigned p)
{
    for (unsigned i = 0; i < memo_n; i++)
        if (memo[i].p == p)
            return i;
    unsigned i = memo_n < MEMO_P ? memo_n++ : MEMO_P - 1;
    memo[i].p = p;
    memo[i].state = UNKNOWN;
    return i;
}

static int loaded(const coll_gl_load *load) { return load->busy > LOAD_MAX; }

/* Under the lock: what 4–7 give for P; *probe set if this caller is to probe. */
static void decide(unsigned p, int may_probe, double *g, double *l, int *probe)
{
    unsigned i = slot(p);
    *probe = 0;
    if (memo[i].state == UNKNOWN) {
        coll_gl_entry e;
        int found = bspram__coll_gl_cache_read(p, &e) == 1 && !strcmp(e.version, BSPRAM_VERSION);
        const int64_t now = (int64_t)time(NULL);
        if (found && !loaded(&e.load)) {
            memo[i].state = KNOWN;
            memo[i].g = e.g;
            memo[i].l = e.l;
        } else if (found && e.when <= now && now - e.when < RETRY_S) {
            memo[i].state = KNOWN; /* loaded a moment ago: not used */
            memo[i].g = DEFAULT_G_NS;
            memo[i].l = DEFAULT_L_NS;
        } else if (may_probe && p >= 2) {
            memo[i].state = PROBING;
        } else {
            *g = DEFAULT_G_NS;
            *l = DEFAULT_L_NS;
            return; /* not remembered: a section may probe later */
        }
    }
    if (memo[i].state == PROBING) {
        *probe = 1;
        return;
    }
    *g = memo[i].g;
    *l = memo[i].l;
}

void bspram__coll_gl_static(unsigned p, double *g, double *l)
{
    pthread_once(&program_once, read_files);
    *g = once_per_program.g;
    *l = once_per_program.l;
    if (once_per_program.fixed)
        return;
    if (p == 0) /* outside a section, asked only now: over MPI it starts MPI */
        p = bsp_nprocs();
    int probe;
    pthread_mutex_lock(&memo_lock);
    decide(p, 0, g, l, &probe);
    pthread_mutex_unlock(&memo_lock);
    if (probe) { /* a section is probing P right now: the defaults meanwhile */
        *g = DEFAULT_G_NS;
        *l = DEFAULT_L_NS;
    }
}

/* The tag bit of the agreement over MPI ranks (the collectives' bits of the
 * barrier's OR, bsp/bsplib_internal.h): some rank is to probe. */
#define TAG_PROBE (1u << 9)

/* The probe's one line on stderr (pid 0): what it measured, whether the
 * figures are used, and where they are cached. */
static void tell(unsigned p, const coll_gl_entry *e, int saved, const char *path)
{
    char load[160] = "";
    if (loaded(&e->load))
        snprintf(load, sizeof load, " while other work kept %.0f %% of the cores busy: not used "
                 "(the defaults instead, until measured again in an hour);", 100 * e->load.busy);
    else
        snprintf(load, sizeof load, ";");
    fprintf(stderr, "bspram: measured g = %.3g ns/byte, l = %.3g µs for P = %u%s %s%s\n", e->g,
            e->l / 1000, p, load, saved ? "cached in " : "not cached (no writable cache file: "
            "set XDG_CACHE_HOME or HOME)", saved ? path : "");
}

void bspram__coll_gl_resolve(bsplib_proc *me, coll_state *cs)
{
    pthread_once(&program_once, read_files);
    double g = once_per_program.g, l = once_per_program.l;
    int probe = 0;
    if (!once_per_program.fixed) {
        pthread_mutex_lock(&memo_lock);
        decide(me->p, 1, &g, &l, &probe);
        pthread_mutex_unlock(&memo_lock);
        /* One process image decides for all (the lock); MPI ranks each read
         * their own host's cache, so they agree in a barrier whether anyone
         * probes — then all do, and take pid 0's figures. */
        if (bsplib_world_spread(me->world))
            probe = (bspram__bsp_bsplib_barrier(me, probe ? TAG_PROBE : 0) & TAG_PROBE) != 0;
    }
    if (probe) {
        coll_gl_entry e = {.when = (int64_t)time(NULL)};
        bspram__coll_gl_probe(me, &e.g, &e.l, &e.load);
        snprintf(e.version, sizeof e.version, "%s", BSPRAM_VERSION);
        g = loaded(&e.load) ? DEFAULT_G_NS : e.g;
        l = loaded(&e.load) ? DEFAULT_L_NS : e.l;
        if (me->pid == 0) {
            char path[4096];
            int saved = bspram__coll_gl_cache_write(me->p, &e, path, sizeof path) == 0;
            tell(me->p, &e, saved, path);
        }
        pthread_mutex_lock(&memo_lock);
        unsigned i = slot(me->p);
        memo[i].state = KNOWN;
        memo[i].g = g;
        memo[i].l = l;
        pthread_mutex_unlock(&memo_lock);
    }
    cs->g = g;
    cs->l = l;
    cs->gl_ready = 1;
}

void bspram__coll_gl_current(double *g, double *l)
{
    bsplib_proc *me = bspram__bsp_bsplib_current;
    const coll_state *cs = me ? bsplib_ext(me, BSPLIB_EXT_COLL) : NULL;
    if (cs && cs->gl_ready) {
        *g = cs->g;
        *l = cs->l;
        return;
    }
    bspram__coll_gl_static(me ? me->p : 0, g, l);
}
