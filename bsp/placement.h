/* bspram — where a team's threads run (internal, not installed).
 *
 * As MPI places ranks: Open MPI binds each rank of a job that fits the
 * machine to a core of its own, and a rank so bound keeps its core on a
 * shared machine, where an unbound one is moved about by the kernel (two
 * threads of one barrier on one core, beside other work on the other, cost
 * a timeslice per superstep: bench/RESULTS.md, "Contention"). So a team's
 * lane i runs on place i:
 *   - unless the user says otherwise, when the team fits the CPUs this
 *     process may use (its affinity mask): the places are the cores of the
 *     mask (each a core's hardware threads), or, when the team is larger
 *     than the cores but fits the hardware threads, those, a thread of
 *     every core before a second of any; a team larger than the mask, a
 *     team of one thread, and a machine spread over MPI ranks (whose
 *     placement is mpirun's) are not bound;
 *   - OMP_PROC_BIND=false: not bound;
 *   - OMP_PROC_BIND (true, close, spread, primary, master) or OMP_PLACES
 *     set: OpenMP's own rules — the places of OMP_PLACES ("threads",
 *     "cores", "sockets", or a list of sets of CPUs; default "cores"),
 *     lane i on place i (close, primary: i·places/T when T > places) or
 *     spread evenly (spread: ⌊i·places/T⌋); a value the OpenMP runtime would
 *     refuse binds nothing (the runtime says so itself).
 * CPUs outside the affinity mask are dropped from every place, and an
 * empty place with them.
 */
#ifndef BSPRAM_BSP_PLACEMENT_H
#define BSPRAM_BSP_PLACEMENT_H

#include <sched.h>
#include <stdbool.h>

typedef struct bspram_placement {
    unsigned threads;  /* the team's size */
    unsigned nplaces;  /* 0: the threads are not bound */
    int spread;        /* OpenMP's spread policy (else close) */
    cpu_set_t *places; /* [nplaces] */
} bspram_placement;

/* The placement of a team of `threads` lanes in this process (`spread`:
 * the machine is spread over MPI ranks). Reads the environment (base/
 * environment.h) and the affinity mask of the calling thread, and the
 * CPUs' topology (/sys/devices/system/cpu). */
void bspram__bsp_placement_make(bspram_placement *pl, unsigned threads, bool spread);

/* The same from the given values (NULL: unset) and mask: for tests. Core
 * ids come from /sys unless core_of is given (core_of[cpu], −1 past the
 * last). */
void bspram__bsp_placement_make_from(bspram_placement *pl, unsigned threads, bool spread,
                                     const char *proc_bind, const char *places,
                                     const cpu_set_t *mask, const int *core_of);

void bspram__bsp_placement_free(bspram_placement *pl);

/* Lane's CPUs, or NULL if it is not bound. */
const cpu_set_t *bspram__bsp_placement_of(const bspram_placement *pl, unsigned lane);

#endif
