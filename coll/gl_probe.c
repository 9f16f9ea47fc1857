/* The collectives' own probe of g and l: a few hundred rounds of the frame,
 * run once per machine and P (gl.c caches the result), the textbook way —
 * Bisseling, "Parallel Scientific Computation" (2nd ed., 2020), §1.6,
 * program bspbench, as `bspram probe` does (tools/cmd_probe.c): time
 * supersteps of h-relations for a few h, take the median of 5 repetitions
 * of each (a descheduled thread must not tilt the fit), and fit
 * t(h) = l + g·h by least squares.
 *
 * What differs from `bspram probe` is the message: a collective's round
 * carries blocks, not single words, so each process puts one message of
 * b bytes to the next process (h = b + 8 bytes with the put's destination
 * word, bsp.h), b = 0 (no message: l alone), 4, 16 and 64 KiB — the g a
 * collective's long blocks pay. The rounds are the frame's (windows, no
 * registration), labelled "bsp_coll_probe" in the records; the whole probe
 * takes 10 + 4·5·(1 + 8) + 1 = 191 supersteps, some 10–20 ms on a loaded
 * 2-core machine. pid 0 times it; its g and l reach every process in the last
 * round, so every process selects with the same figures. */
#include <stdio.h>

#include "base/clock.h"
#include "coll/coll_internal.h"

enum { SIZES = 4, REPS = 5, ROUNDS = 8, WARM = 10 };
static const size_t size_of[SIZES] = {0, 4096, 16384, 65536};

void bspram__coll_gl_probe(bsplib_proc *me, double *g, double *l)
{
    static const coll_desc desc = {.text = "", .root = -1, .op = -1};
    coll_call c;
    bspram__coll_begin(&c, me, "bsp_coll_probe", NULL, COLL_CODE_PROBE, NULL, 0, &desc);
    const unsigned n = c.n, me_rank = c.rank, next = (me_rank + 1) % n;
    unsigned char *out = coll_scratch(&c, 0, size_of[SIZES - 1]);
    unsigned char *in = coll_scratch(&c, 1, size_of[SIZES - 1]);
    memset(out, (int)me_rank, size_of[SIZES - 1]);
    double t[SIZES];
    for (unsigned k = 0, warm = WARM; k < SIZES; k++) {
        const size_t b = size_of[k];
        double reps[REPS];
        for (unsigned rep = 0; rep < REPS; rep++) {
            bspram__coll_window(&c, in, b);
            bspram__coll_round(&c, false); /* all start together */
            for (; warm > 0; warm--) { /* the first time: threads settle, buffers grow */
                bspram__coll_put(&c, next, 0, out, size_of[SIZES - 1]);
                bspram__coll_window(&c, in, size_of[SIZES - 1]);
                bspram__coll_round(&c, false);
            }
            const double t0 = bspram__clock();
            for (unsigned r = 0; r < ROUNDS; r++) {
                if (b)
                    bspram__coll_put(&c, next, 0, out, b);
                bspram__coll_window(&c, in, b);
                bspram__coll_round(&c, false);
            }
            reps[rep] = (bspram__clock() - t0) / ROUNDS;
        }
        for (unsigned a = 1; a < REPS; a++) /* insertion sort of 5 */
            for (unsigned x = a; x > 0 && reps[x] < reps[x - 1]; x--) {
                double y = reps[x];
                reps[x] = reps[x - 1];
                reps[x - 1] = y;
            }
        t[k] = reps[REPS / 2] * 1e9;
    }
    /* Least squares t = l + g·h over the four points, h in bytes. */
    double sh = 0, st = 0, shh = 0, sht = 0;
    for (unsigned k = 0; k < SIZES; k++) {
        const double h = size_of[k] ? (double)size_of[k] + 8 : 0;
        sh += h, st += t[k], shh += h * h, sht += h * t[k];
    }
    double gg = (SIZES * sht - sh * st) / (SIZES * shh - sh * sh);
    double ll = (st - gg * sh) / SIZES;
    /* A noisy fit may go below zero; neither figure can. */
    if (!(gg > 0))
        gg = 0.001;
    if (!(ll > 0))
        ll = t[0] > 0 ? t[0] : 1;
    /* Rounded as the cache keeps them (gl_cache.c, %.6g), so that the run
     * that measures and the runs that read the cache choose alike. */
    char text[64];
    snprintf(text, sizeof text, "%.6g %.6g", gg, ll);
    double gl[2];
    if (sscanf(text, "%lg %lg", &gl[0], &gl[1]) != 2)
        gl[0] = gg, gl[1] = ll;
    if (me_rank == 0)
        for (unsigned q = 1; q < n; q++)
            bspram__coll_put(&c, q, 0, gl, sizeof gl);
    bspram__coll_window(&c, me_rank ? gl : NULL, me_rank ? sizeof gl : 0);
    bspram__coll_round(&c, true);
    bspram__coll_end(&c);
    *g = gl[0];
    *l = gl[1];
}
