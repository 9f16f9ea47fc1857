/* bspram — the threads that run a team (internal, not installed).
 *
 * A team of n lanes runs on the calling thread (lane 0) and n − 1 threads
 * of a pool of the process's own POSIX threads, which between teams wait as
 * the superstep barrier waits: briefly actively where each has a core, then
 * asleep on a futex, never longer. Not OpenMP's threads: an OpenMP runtime's
 * idle threads wait by its wait policy, which the program can only set in
 * its environment before the runtime starts (libgomp's default spins for
 * milliseconds after every parallel region, where the threads that start
 * and end the next section need the cores: a BSPlib section of one
 * bsp_sync at P = 2 took 14–75 ms instead of 0.5–8 ms; bench/RESULTS.md,
 * "Contention"); a library that waits well by default must own its waits.
 * A pool thread, once started, serves every later team of the process; a
 * team takes the pool's lowest free threads, so a program that runs one
 * team after another meets the same threads on the same places, without
 * a system call to move them.
 *
 * Lanes 1..n−1 run on their places (bsp/placement.h); lane 0 runs where the
 * calling thread is, with its own mask (moving it to its place and back at
 * every team would cost two migrations a team, and on a loaded machine a
 * wait behind whatever runs on the place's core). A thread that runs lane
 * 0 for long (BSPlib's pid 0, a whole section) binds itself
 * (bspram__bsp_threads_bind).
 */
#ifndef BSPRAM_BSP_THREADS_H
#define BSPRAM_BSP_THREADS_H

#include "bsp/placement.h"

/* Run fn(lane, arg) for lane = 0..n−1, lane 0 on the calling thread, and
 * return when every lane has returned. Fatal, naming `call`, if the threads
 * cannot be started (before any lane runs): "<call>: could not start
 * n threads (<reason> after k); …". pl may be NULL (not bound). Teams may run at
 * once from several threads (each takes its own pool threads) and from a
 * lane of another team. */
void bspram__bsp_threads_run(unsigned n, void (*fn)(unsigned lane, void *arg), void *arg,
                             const bspram_placement *pl, const char *call);

/* Bind the calling thread to cpus (NULL: nothing), keeping its mask in
 * *saved; bspram__bsp_threads_unbind gives it back. Returns whether it
 * bound. For a thread that runs a lane outside a team's threads (BSPlib's
 * pid 0, the program's own thread). */
bool bspram__bsp_threads_bind(const cpu_set_t *cpus, cpu_set_t *saved);
void bspram__bsp_threads_unbind(const cpu_set_t *saved);

#endif
