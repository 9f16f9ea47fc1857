/* bspram — the environment variables the library reads, all in one place.
 *
 * This is THE list; no other file of the library calls getenv
 * (docs/environment.md says the same for users):
 *
 *   BSPRAM_TRACE      path of the trace file: every machine appends its
 *                     superstep records when it is destroyed; JSON if the
 *                     name ends in ".json", else CSV (bsp/trace.h).
 *   BSPRAM_PARAMS     path of the parameter file `bspram probe` writes and
 *                     bspram_params_load reads (bsp/params.h). If unset:
 *   XDG_CONFIG_HOME   … $XDG_CONFIG_HOME/bspram/params, and if that is unset:
 *   HOME              … $HOME/.config/bspram/params.
 *   XDG_CACHE_HOME    where the collectives cache the g and l they measured
 *                     themselves: $XDG_CACHE_HOME/bspram/params, else
 *                     $HOME/.cache/bspram/params (coll/gl_cache.c).
 *   BSPRAM_PROBE      "0": the collectives' automatic choice neither probes
 *                     nor reads that cache (the parameter file above, else
 *                     the defaults: deterministic, for tests; coll/gl.c).
 *   BSPRAM_NPROCS     what BSPlib's bsp_nprocs() returns outside a section
 *                     before the first one (default: the cores), so that
 *                     programs doing bsp_begin(bsp_nprocs()) can run with
 *                     more processes than cores: a whole number in
 *                     [1, 65536], anything else is a fatal error (bsp/bsp.h).
 *   BSPRAM_PATTERN    any value but "0": every machine keeps the message
 *                     pattern of its supersteps (bsp/machine.h), and the
 *                     trace carries it, for `bspram models --trace`.
 *   BSPRAM_TRANSPORT  the name of the router's transport: "shm" (the
 *                     default, shared memory) or "staged" (a transport for
 *                     testing); in libbspram-mpi also "mpi", its default.
 *   BSPRAM_MPI_GET    libbspram-mpi: the bytes a rank sends in a superstep,
 *                     on average, from which the MPI transport moves them
 *                     by MPI_Get instead of MPI_Alltoallv (default 4096;
 *                     rank 0's value holds; router/mpi_transport.c).
 *   BSPRAM_MPI_EXCHANGE  libbspram-mpi: how the MPI transport moves a
 *                     superstep's counts and runs below BSPRAM_MPI_GET:
 *                     "counts", "nbx" or "alltoall" (default: picked per
 *                     superstep; anything else, empty too, is a fatal error;
 *                     rank 0's value holds; router/mpi_transport.c).
 *   BSPRAM_PRAM_REPORT  path of a file to which every PRAM appends one line
 *                     of its statistics (JSON) when it is destroyed or ended
 *                     by a violation, for `bspram pram check` (pram/pram.h).
 *   BSPRAM_PRAM_HTML  path of a page (.html) that every PRAM records its run
 *                     for and writes when it is destroyed or ended by a
 *                     violation: the first PRAM the name itself, the k-th
 *                     (k ≥ 2) the name with "-k" before ".html" (pram/pram.h).
 *   BSPRAM_MPI_NODE   libbspram-mpi: which ranks the MPI transport takes
 *                     for a node, whose ranks reduce in shared memory
 *                     (router/mpi_node.h): unset, those MPI says share
 *                     memory; a whole number k in [2, 65536], every k
 *                     consecutive ranks (to try the hierarchy of several
 *                     nodes on one machine); "0" or "1", every rank alone,
 *                     the reduction by messages as between machines.
 *                     Anything else, empty too, is a fatal error; rank
 *                     0's value holds.
 *
 *   BSPRAM_WAIT       how a waiting thread waits, for measuring the choice
 *                     (router/barrier.c): "spin", "yield" or "sleep"; unset
 *                     (or anything else): the library's own choice.
 *
 * Read here for the team's threads, which are the library's own POSIX
 * threads, not OpenMP's (bsp/threads.c), with OpenMP's meaning:
 *   OMP_PROC_BIND     "false": the threads are not bound; "true", "close",
 *                     "spread", "primary" or "master": bound to OMP_PLACES'
 *                     places by that policy (bsp/placement.c).
 *   OMP_PLACES        the places: "threads", "cores", "sockets" or a list of
 *                     sets of CPUs ("{0,1},{2:2}", "{0}:4:2").
 *   OMP_STACKSIZE     the size of a team thread's stack ("4M", "512K").
 * The OpenMP runtime reads its own OMP_* variables too (OMP_NUM_THREADS sets
 * omp_get_max_threads() and so the T of bspram_config_default, capped at
 * BSPRAM_DEFAULT_MAX_THREADS = 4096, bsp/machine.h); the library reads no
 * other OMP_* variable.
 * Nothing else: bspram_config_default, in particular, reads no variable and
 * no file (bsp/machine.h); the collectives' automatic choice reads the
 * parameter file and its cache, and writes the cache (coll/gl.c).
 */
#ifndef BSPRAM_BASE_ENVIRONMENT_H
#define BSPRAM_BASE_ENVIRONMENT_H

#include "base/api.h"


/* The variables' values; NULL when a variable is unset or empty (an empty
 * value counts as unset), but BSPRAM_MPI_EXCHANGE and BSPRAM_MPI_NODE,
 * "" when empty: each names a way, and an empty one is refused as any
 * other value they do not take. The strings belong to the environment:
 * valid until the variable is changed (setenv, unsetenv, putenv). */
typedef struct bspram_environment {
    const char *trace;           /* BSPRAM_TRACE */
    const char *params;          /* BSPRAM_PARAMS */
    const char *xdg_config_home; /* XDG_CONFIG_HOME */
    const char *home;            /* HOME */
    const char *xdg_cache_home;  /* XDG_CACHE_HOME */
    int probe_off;               /* BSPRAM_PROBE is "0" */
    const char *transport;       /* BSPRAM_TRANSPORT; NULL means "shm" */
    const char *nprocs;          /* BSPRAM_NPROCS */
    const char *pattern;         /* BSPRAM_PATTERN; NULL also when "0" */
    const char *mpi_get;         /* BSPRAM_MPI_GET */
    const char *mpi_exchange;    /* BSPRAM_MPI_EXCHANGE */
    const char *mpi_node;        /* BSPRAM_MPI_NODE */
    const char *pram_report;     /* BSPRAM_PRAM_REPORT */
    const char *pram_html;       /* BSPRAM_PRAM_HTML */
    const char *wait;            /* BSPRAM_WAIT */
    const char *omp_proc_bind;   /* OMP_PROC_BIND */
    const char *omp_places;      /* OMP_PLACES */
    const char *omp_stacksize;   /* OMP_STACKSIZE */
} bspram_environment;

/* Read the variables now. Not cached: each call sees the environment as it
 * is, so a program (or a test) may set BSPRAM_TRACE between machines; the
 * callers read it once per machine or per file, so the cost (a few getenv
 * scans) never matters. Thread-safe as long as no thread changes the
 * environment meanwhile (the C library's rule for getenv). Never fails. */
bspram_environment bspram__base_environment_read(void);


#endif
