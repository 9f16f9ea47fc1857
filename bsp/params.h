/* bspram — the machine's measured BSP parameters, as `bspram probe` saved them.
 *
 * The probe (tools/cmd_probe.c) measures g and l the textbook way — Bisseling,
 * "Parallel Scientific Computation" (2nd ed., 2020), §1.6, program bspbench:
 * time h-relations of single-word puts for h = 0..H and fit t(h) = l + g·h by
 * least squares — and saves them in a small "key = value" text file:
 *     $BSPRAM_PARAMS if set, else $XDG_CONFIG_HOME/bspram/params, else
 *     ~/.config/bspram/params (base/environment.h).
 *
 * Nothing reads this file behind a program's back: bspram_config_default
 * gives g = l = 1 whatever the probe saved. A program that wants costs in
 * the probe's nanoseconds asks for them:
 *     bspram_config cfg = bspram_config_default(p);
 *     bspram_params_load(&cfg.g, &cfg.l);   (cfg is untouched if no probe ran)
 *
 * NULL: bspram_params_read's out and bspram_params_save's params must not be
 * NULL, nor bspram_params_path's buf when len > 0; NULL is refused in one
 * line naming the call and the argument, exit status 1 (base/error.h,
 * docs/limits.md). bspram_params_load takes NULL for an output not wanted.
 */
#ifndef BSPRAM_BSP_PARAMS_H
#define BSPRAM_BSP_PARAMS_H

#include <stddef.h>

#include "base/api.h"

BSPRAM_BEGIN_DECLS

/* Everything the probe saves. g and l are per superstep of the router, so
 * they plug into Σ (w + g·h + l) of bspram_machine_predicted_cost with h the
 * record's byte h-relation (h_bytes). */
typedef struct bspram_params {
    unsigned p;                /* processes the probe ran with */
    double g_ns_per_byte;      /* g per byte of the router's h-relation */
    double g_ns_per_word;      /* g per 8-byte put (what bspbench reports) */
    double l_ns;               /* l per bsp_sync */
    double flops_per_ns;       /* measured DAXPY rate r (flop per ns) */
    double g_flops_per_word;   /* g·r */
    double l_flops;            /* l·r */
    double bytes_per_put;      /* router bytes of one single-word put */
} bspram_params;

/* The file the parameters live in (see above), written to buf. Returns 0, or
 * −1 if no location is known (no $HOME) or buf is too small. */
int bspram_params_path(char *buf, size_t len);

/* The parameter file is read only if it is a regular file of at most
 * BSPRAM_PARAMS_MAX_BYTES (a FIFO or a device at the path could block or
 * never end); p must be a whole number in [1, BSPRAM_PARAMS_MAX_P] (BSPlib's
 * largest P) and every other value a finite number >= 0. */
#define BSPRAM_PARAMS_MAX_BYTES 65536
#define BSPRAM_PARAMS_MAX_P 65536u

/* Load the saved g (ns per byte of the router's byte h-relation) and l (ns
 * per superstep), e.g. into a config's g and l (then
 * bspram_machine_predicted_cost is in ns, with w in ns too). Returns 0, or −1
 * if there is no parameter file or it lacks them (the outputs are then
 * untouched). Either pointer may be NULL. Cost: opens and parses the file
 * on every call (call it once, not per machine in a loop). */
int bspram_params_load(double *g_ns_per_byte, double *l_ns);

/* Read or write the whole set. Return 0, or −1 (errno set on I/O errors).
 * A file that is there but unusable — not a regular file, too large, a line
 * that is not "key = value", a value out of range (nan, inf, negative,
 * 1e400, p = 1e30), a key set twice (which value would hold?), g_ns_per_byte
 * or l_ns missing — gives one warning line
 * on stderr naming the file and the problem, then −1 with *out (and the
 * outputs of bspram_params_load) untouched; a missing file gives −1
 * silently. Never blocks, whatever lies at the path. Lines may be of any
 * length ('#' starts a comment line); unknown keys are ignored.
 * bspram_params_save refuses (−1, errno = EINVAL) what read would refuse,
 * e.g. a negative g from a noisy fit, and a path that is not a regular file
 * (a FIFO with no reader: ENXIO); it never blocks either. */
int bspram_params_read(bspram_params *out);
int bspram_params_save(const bspram_params *params);

BSPRAM_END_DECLS
#endif
