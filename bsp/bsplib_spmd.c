/* BSPlib SPMD: bsp_init, bsp_begin, bsp_end, bsp_abort, bsp_pid, bsp_nprocs,
 * bsp_time — starting and stopping P processes on the machine's SPMD style.
 *
 * The problem (bsp.h, "Program shapes"): BSPlib lets pid 0 return from
 * bsp_begin into the rest of its function, with the other processes running
 * beside it, and resume alone after bsp_end. An OpenMP parallel region is a
 * structured block, so the thread that opens it cannot leave it half-way.
 * Solution, as MulticoreBSP for C does with POSIX threads: the original
 * thread never enters the region. bsp_begin creates a helper thread (the
 * "driver") that runs bspram__bsp_machine_spmd with P lanes:
 *   - lanes 1..P−1 call the SPMD function from its start (bsp_init's spmd, or
 *     main with the program's argc/argv for shape (b)) and join the section
 *     at their own bsp_begin; at bsp_end they longjmp back here and return;
 *   - lane 0 hands its component to the original thread, which returns from
 *     bsp_begin as pid 0 and drives lane 0 (the router identifies lanes by
 *     number, not by thread), and sleeps until pid 0 has passed bsp_end.
 * The driver is asleep all along (a condition variable), so it costs no CPU.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/abort.h"
#include "base/clock.h"
#include "base/environment.h"
#include "base/error.h"
#include "base/number.h"
#include "bsp/bsplib_internal.h"
#include "router/barrier_internal.h"
#include "bsp/machine_internal.h"
#include "bsp/threads.h"
#include "router/router.h"

_Thread_local bsplib_proc *bspram__bsp_bsplib_current;

bsplib_spread_hooks bspram__bsp_bsplib_spread; /* installed by bsp/bsplib_mpi.c, if linked */

/* Set on processes 1..P−1 between entering the SPMD function and their
 * bsp_begin, which then joins instead of starting a new section. */
static _Thread_local bsplib_proc *bsplib_joining;

/* bsp_init's arguments (process-wide: BSPlib's API forces it). */
static void (*init_spmd)(void);

/* The program's own argc/argv, for re-entering main in shape (b). glibc
 * passes (argc, argv, envp) to ELF constructors, of the executable and of
 * shared libraries alike. */
static int main_argc;
static char **main_argv;
__attribute__((constructor)) static void bsplib_capture_args(int argc, char **argv, char **envp)
{
    (void)envp;
    main_argc = argc;
    main_argv = argv;
}

extern int main(int, char **);

/* The one way a BSPlib error ends, for bspram__bsp_bsplib_fatal and bsp_abort: one
 * line, then the job ends (base/error.h: if several threads fail at once,
 * only the first prints). `raw` prints the user's bsp_abort text as it is. */
static _Noreturn void fatal_line(const bsplib_proc *me, int raw, const char *fmt, va_list ap)
{
    if (raw)
        bspram__base_vfatal_raw(fmt, ap);
    char line[1536];
    vsnprintf(line, sizeof line, fmt, ap);
    if (me)
        bspram__base_fatal("%s (superstep %llu, pid %u)", line, (unsigned long long)me->superstep,
                     me->pid);
    bspram__base_fatal("%s", line);
}

void bspram__bsp_bsplib_fatal(const bsplib_proc *me, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fatal_line(me, 0, fmt, ap);
}

void bspram__bsp_bsplib_outside(const char *call)
{
    bspram__bsp_bsplib_fatal(NULL, "%s: called outside a bsp_begin/bsp_end section", call);
}

static void enter(void);

void bsp_init(void (*spmd)(void), int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (bspram__bsp_bsplib_current || bsplib_joining)
        bspram__bsp_bsplib_fatal(bspram__bsp_bsplib_current, "bsp_init(spmd=%p): called inside a BSP section",
                     (void *)(uintptr_t)spmd);
    if (!spmd)
        bspram__bsp_bsplib_fatal(NULL, "bsp_init(spmd=NULL): the SPMD function must not be NULL");
    init_spmd = spmd;
    enter();
}

/* P of a section whose team has not started yet (0: none). If the program
 * exits meanwhile (another thread called exit), the section never began. */
static atomic_uint starting_p;

/* What lane `pid` runs inside the machine's parallel region. */
static void team_program(bspram_component *self, void *arg)
{
    bsplib_world *w = arg;
    atomic_store(&starting_p, 0); /* the team exists */
    unsigned pid = (unsigned)bspram_pid(self);
    bsplib_proc *proc = &w->procs[pid];
    proc->self = self;
    proc->router = bspram__bsp_machine_router(bspram__bsp_component_machine(self));
    if (pid == w->lo) {
        pthread_mutex_lock(&w->lock);
        w->comp0 = self;
        pthread_cond_broadcast(&w->cond);
        while (!w->finished)
            pthread_cond_wait(&w->cond, &w->lock);
        pthread_mutex_unlock(&w->lock);
        return;
    }
    bsplib_joining = proc;
    if (setjmp(proc->leave) == 0) {
        if (w->spmd)
            w->spmd();
        else
            main(w->argc, w->argv);
        bspram__bsp_bsplib_fatal(bspram__bsp_bsplib_current,
                     "bsp_end: process %u returned from the SPMD function without calling "
                     "bsp_end%s", pid, bsplib_joining ? " (nor bsp_begin)" : "");
    }
    /* Back from bsp_end through longjmp. */
    bsplib_joining = NULL;
    bspram__bsp_bsplib_current = NULL;
}

static void *driver_main(void *arg)
{
    bsplib_world *w = arg;
    char call[32];
    snprintf(call, sizeof call, "bsp_begin(P=%u)", w->p);
    bspram__bsp_machine_spmd_as(w->m, team_program, w, call);
    return NULL;
}

/* Pid 0 runs on the original thread, which no barrier meets when its SPMD
 * function returns without bsp_end: the program would exit with status 0
 * and drop the other processes silently. So a section still open when the
 * process exits is an error (the flag is process-wide: exit may come from any
 * thread). */
static atomic_int section_open;

/* P of the last section that ended (0: none yet): bsp_nprocs() after it. */
static atomic_uint last_p;

/* Sections begun so far (bsplib_world.section numbers them from 1). */
static atomic_uint_fast64_t sections;


/* The program ended (exit, or main's return) with `status` while a section
 * was open: one line, and the job ends with the program's own status (1 if
 * that was 0: a section left open is a failure). glibc's on_exit hands the
 * handler the status, which atexit would not. */
static void check_section_closed(int status, void *unused)
{
    (void)unused;
    if (!atomic_load(&section_open))
        return;
    int end = status ? status : BSPRAM_EXIT_FAILURE;
    unsigned starting = atomic_load(&starting_p);
    if (starting)
        bspram__base_fatal_status(end, "bsp_begin(P=%u): the program exited while the section's %u "
                             "threads were starting", starting, starting);
    /* exit runs the handlers on the thread that called it: its BSPlib
     * process (if any) says who ended the program. Pid 0 also gets here by
     * returning from main; any other process only by calling exit. */
    const bsplib_proc *me = bspram__bsp_bsplib_current ? bspram__bsp_bsplib_current : bsplib_joining;
    if (!me || me->pid == 0)
        bspram__base_fatal_status(end, "bsp_end: the program exited inside a BSP section (%s, exit "
                             "status %d); every process must end its section with bsp_end",
                             me ? "pid 0 never called bsp_end"
                                : "exit called by a thread that is no BSP process, before pid 0's "
                                  "bsp_end", status);
    bspram__base_fatal_status(end, "bsp_end: the program exited inside a BSP section (pid %u called exit "
                         "with status %d before its bsp_end, superstep %llu); every process must "
                         "end its section with bsp_end", me->pid, status,
                         (unsigned long long)me->superstep);
}

/* Start a section of P processes on this process's lanes (all of them; over
 * MPI the rank's block): the team runs processes (lo, hi) from the SPMD
 * function, and process lo is handed to the calling thread. NULL when this
 * rank has no process in the section. */
static bsplib_world *world_start(unsigned P, void (*spmd)(void))
{
    bsplib_world *w = bspram__base_calloc(1, sizeof *w, "bsp_begin");
    w->p = P;
    /* Counted on every rank, with processes in the section or not: the
     * section's number is part of bsp_shm handles, alike everywhere. */
    w->section = atomic_fetch_add(&sections, 1) + 1;
    bspram_config cfg = bspram_config_default(P);
    cfg.threads = (int)P;
    w->m = bspram__bsp_machine_create_spread(&cfg);
    bspram_router *r = bspram__bsp_machine_router(w->m);
    bspram__router_local_lanes(r, &w->lo, &w->hi); /* lane = pid */
    if (w->lo == w->hi) {
        bspram_machine_destroy(w->m);
        free(w);
        return NULL;
    }
    atomic_store(&section_open, 1);
    bspram_machine_set_label(w->m, "bsp_sync");
    w->label = "bsp_sync";
    w->shared = bspram__router_shares_memory(r);
    size_t bytes = ((size_t)P * sizeof(bsplib_proc) + 63) / 64 * 64;
    w->procs = aligned_alloc(64, bytes);
    if (!w->procs)
        bspram__base_fatal("bsp_begin(P=%u): out of memory for %u processes", P, P);
    memset(w->procs, 0, bytes);
    for (unsigned s = 0; s < P; s++) {
        bsplib_proc *pr = &w->procs[s];
        pr->world = w;
        pr->pid = s;
        pr->p = P;
        pr->cache_slot = BSPLIB_NO_SLOT;
        atomic_init(&pr->landed, 0);
    }
    w->spmd = spmd;
    w->argc = main_argc;
    w->argv = main_argv;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->t_begin = bspram__clock();

    atomic_store(&starting_p, P);
    int err = pthread_create(&w->driver, NULL, driver_main, w);
    if (err)
        bspram__base_fatal("bsp_begin(P=%u): cannot start the team: %s", P, strerror(err));
    pthread_mutex_lock(&w->lock);
    while (!w->comp0)
        pthread_cond_wait(&w->cond, &w->lock);
    pthread_mutex_unlock(&w->lock);
    /* Process lo runs on this thread, not on its team thread (asleep): it
     * takes that lane's place for the section (bsp/placement.h). */
    w->lo_bound = bspram__bsp_threads_bind(bspram__bsp_machine_place(w->m, 0), &w->lo_mask);
    return w;
}

/* Where a rank ≠ 0's first process comes back to from its bsp_end. */
static jmp_buf serving;

/* An MPI rank other than 0, from its first bsp_init or bsp_begin on: rank 0
 * runs the program; here each section rank 0 announces runs its block of
 * processes, the first on this thread from the start of the SPMD function
 * (bsp_init's, or main for a program that begins with bsp_begin), as the
 * threads of one machine do. Ends the process when rank 0's program ends. */
static _Noreturn void serve(void)
{
    for (;;) {
        void (*spmd)(void);
        unsigned P = bspram__bsp_bsplib_spread.await(&spmd);
        if (!P)
            exit(0);
        bsplib_world *w = world_start(P, spmd);
        if (!w)
            continue; /* no process of this section runs here */
        if (setjmp(serving) == 0) {
            bsplib_joining = &w->procs[w->lo];
            if (w->spmd)
                w->spmd();
            else
                main(w->argc, w->argv);
            bspram__bsp_bsplib_fatal(bspram__bsp_bsplib_current, "bsp_end: process %u returned from the SPMD function "
                         "without calling bsp_end%s", w->lo, bsplib_joining ? " (nor bsp_begin)" : "");
        }
        bsplib_joining = NULL;
        bspram__bsp_bsplib_current = NULL;
    }
}

/* What every BSPlib program does before its first section: over MPI, ranks
 * other than 0 start serving; rank 0 makes sure they learn when it ends
 * (before the check that no section is left open, which runs first). */
static void enter(void)
{
    static atomic_flag registered = ATOMIC_FLAG_INIT;
    unsigned rank = bspram__bsp_bsplib_spread.rank ? bspram__bsp_bsplib_spread.rank() : 0; /* starts MPI */
    if (rank == 0 && bspram__bsp_bsplib_spread.announce)
        bspram__bsp_bsplib_spread.announce(BSPLIB_ANNOUNCE_SERVE, NULL);
    /* Registered last, so it runs first at exit: before MPI is finalised
     * and before rank 0 tells the others that the program ended. */
    if (!atomic_flag_test_and_set(&registered))
        on_exit(check_section_closed, NULL);
    if (rank != 0)
        serve();
}

/* Mappings kept free for the rest of the program (its libraries, malloc's
 * mmapped blocks, the router's per-lane arrays) when bsp_begin counts
 * whether P threads' stacks fit under vm.max_map_count. */
#define BSPLIB_MAP_RESERVE 1024u

/* A section whose threads cannot all be started is refused in one line
 * before anything is allocated for it: each thread of the OpenMP team maps
 * a stack and a guard page below it (two mappings that never merge), and
 * Linux refuses mappings past vm.max_map_count (65530 by default), which
 * the runtime meets only after the machine's memory is allocated — at
 * P = 65536 the kernel killed the program at 19 GB without a line.
 * `ranks`: the MPI ranks the section is spread over (each runs its block
 * of ceil(P/ranks) processes). Where the limit cannot be read (not Linux),
 * nothing is checked. */
static void check_threads_fit(unsigned P, unsigned ranks)
{
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (!f)
        return;
    unsigned long long max = 0;
    int got = fscanf(f, "%llu", &max);
    fclose(f);
    if (got != 1 || max == 0)
        return;
    unsigned long long local = ((unsigned long long)P + ranks - 1) / (ranks ? ranks : 1);
    unsigned long long need = 2 * local + BSPLIB_MAP_RESERVE;
    if (need <= max)
        return;
    unsigned long long fit = max > BSPLIB_MAP_RESERVE ? (max - BSPLIB_MAP_RESERVE) / 2 : 0;
    bspram__bsp_bsplib_fatal(NULL, "bsp_begin(P=%u): %llu threads need %llu memory mappings (a stack and "
                             "its guard page each, %u kept for the rest), above this system's "
                             "vm.max_map_count of %llu, which fits %llu processes%s; lower P or raise "
                             "vm.max_map_count", P, local, need, BSPLIB_MAP_RESERVE, max, fit,
                             ranks > 1 ? " per MPI rank" : "");
}

void bsp_begin(bsp_pid_t P)
{
    if (bsplib_joining) { /* processes 1..P−1: join the section */
        bsplib_proc *me = bsplib_joining;
        bsplib_joining = NULL;
        /* Over MPI, a rank other than 0 has its own copy of the program's
         * variables, which process 0 may have changed before bsp_begin: there
         * process 0's P decides, as in BSPlib on distributed memory. */
        if (P != me->p && me->world->lo == 0)
            bspram__bsp_bsplib_fatal(me, "bsp_begin(P=%u): process 0 started %u processes; all must ask "
                         "for the same P", P, me->p);
        bspram__bsp_bsplib_current = me;
        return;
    }
    if (bspram__bsp_bsplib_current)
        bspram__bsp_bsplib_fatal(bspram__bsp_bsplib_current, "bsp_begin(P=%u): already inside a BSP section; sections "
                     "may follow one another but not nest", P);
    if (P == 0 || P > BSPLIB_MAX_P)
        bspram__bsp_bsplib_fatal(NULL, "bsp_begin(P=%u): P must be in [1, %u]", P, BSPLIB_MAX_P);
    enter();
    check_threads_fit(P, bspram__bsp_bsplib_spread.ranks ? bspram__bsp_bsplib_spread.ranks() : 1);
    if (bspram__bsp_bsplib_spread.announce)
        bspram__bsp_bsplib_spread.announce(P, init_spmd);
    bsplib_world *w = world_start(P, init_spmd); /* rank 0 runs process 0: never NULL */
    bspram__bsp_bsplib_current = &w->procs[0];
}

void bsp_end(void)
{
    bsplib_proc *me = bsplib_me("bsp_end()");
    bspram__bsp_bsplib_superstep_end(me, BSPLIB_TAG_END);
    bspram__bsp_bsplib_current = NULL;
    bsplib_world *w = me->world;
    if (me->pid != w->lo)
        longjmp(me->leave, 1);

    if (w->lo_bound) /* this thread's own mask again */
        bspram__bsp_threads_unbind(&w->lo_mask);
    atomic_store(&section_open, 0);
    atomic_store(&last_p, w->p);
    pthread_mutex_lock(&w->lock);
    w->finished = 1;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->driver, NULL);
    /* The extensions' state (bsp_shm's space and combiner need the machine):
     * every process's, then the section's. */
    for (unsigned s = 0; s < w->p; s++)
        for (unsigned k = 0; k < BSPLIB_EXT_COUNT; k++)
            if (w->procs[s].ext[k].state)
                w->procs[s].ext[k].destroy(w->procs[s].ext[k].state);
    for (unsigned k = 0; k < BSPLIB_EXT_COUNT; k++)
        if (w->ext[k].state)
            w->ext[k].destroy(w->ext[k].state);
    bspram_machine_destroy(w->m); /* writes BSPRAM_TRACE */
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->cond);
    for (unsigned s = 0; s < w->p; s++) {
        free(w->procs[s].ops);
        free(w->procs[s].queue);
        free(w->procs[s].qcopy);
        free(w->procs[s].kept);
    }
    bspram__bsp_bsplib_world_free_tables(w);
    free(w->publication);
    free(w->procs);
    bool serving_rank = w->lo != 0;
    free(w);
    if (serving_rank) /* only process 0 goes on after bsp_end */
        longjmp(serving, 1);
}

void bspram__bsp_bsplib_fatal_agreed(const bsplib_world *w, const char *fmt, ...)
{
    if (w->lo != 0) /* pid 0's rank finds the same and ends the job */
        for (;;)
            pause();
    va_list ap;
    va_start(ap, fmt);
    fatal_line(NULL, 0, fmt, ap);
}

/* BSPlib prints the user's text as it is; a text that prints nothing
 * (bsp_abort("")) would end the job without a word, so then the line names
 * the process and superstep that aborted. */
/* bsp_abort(NULL): refused like every NULL a call needs, in one line. */
static _Noreturn void null_format(const char *call)
{
    bspram__bsp_bsplib_fatal(bspram__bsp_bsplib_current ? bspram__bsp_bsplib_current : bsplib_joining,
                 "%s(format=NULL): format must not be NULL", call);
}

void bsp_vabort(const char *format, va_list args)
{
    if (!format)
        null_format("bsp_vabort");
    va_list probe;
    va_copy(probe, args);
    char first[2];
    int n = vsnprintf(first, sizeof first, format, probe);
    va_end(probe);
    if (n > 0)
        fatal_line(NULL, 1, format, args);
    const bsplib_proc *me = bspram__bsp_bsplib_current ? bspram__bsp_bsplib_current : bsplib_joining;
    if (me)
        bspram__base_fatal("bsp_abort(\"\"): process %u aborted the program with an empty message "
                     "(superstep %llu, pid %u)", me->pid, (unsigned long long)me->superstep, me->pid);
    bspram__base_fatal("bsp_abort(\"\"): the program aborted with an empty message, outside a BSP "
                 "section");
}

void bsp_abort(const char *format, ...)
{
    if (!format)
        null_format("bsp_abort");
    va_list ap;
    va_start(ap, format);
    bsp_vabort(format, ap);
}

/* BSPRAM_NPROCS, read strictly: the whole string a number in [1, MAX_P]. */
static unsigned nprocs_from_environment(void)
{
    const char *v = bspram__base_environment_read().nprocs;
    if (!v)
        return 0;
    uint64_t n;
    if (bspram__base_parse_u64(v, 1, BSPLIB_MAX_P, &n) != 0)
        bspram__bsp_bsplib_fatal(NULL, "bsp_nprocs(): BSPRAM_NPROCS=%s is not a whole number in [1, %u]", v,
                     BSPLIB_MAX_P);
    return (unsigned)n;
}

bsp_pid_t bsp_nprocs(void)
{
    const bsplib_proc *me = bspram__bsp_bsplib_current;
    if (me)
        return me->p;
    unsigned p = atomic_load(&last_p);
    if (p)
        return p;
    p = nprocs_from_environment();
    if (p)
        return p;
    return bspram__bsp_bsplib_spread.ranks ? bspram__bsp_bsplib_spread.ranks() : bspram__router_cores();
}

bsp_pid_t bsp_pid(void) { return bsplib_me("bsp_pid()")->pid; }

double bsp_time(void)
{
    const bsplib_proc *me = bsplib_me("bsp_time()");
    return bspram__clock() - me->world->t_begin;
}
