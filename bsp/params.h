/* bspram — the machine's measured BSP parameters, as `bspram probe` saved them.
 *
 * The probe (tools/cmd_probe.c) measures g and l the textbook way — Bisseling,
 * "Parallel Scientific Computation" (2nd ed., 2020), §1.6, program bspbench:
 * time h-relations of single-word puts for h = 0..H and fit t(h) = l + g·h by
 * least squares — and saves them in a small "key = value" text file:
 *     $BSPRAM_PARAMS if set, else $XDG_CONFIG_HOME/bspram/params, else
 *     ~/.config/bspram/params (base/environment.h).
 *
 * Only the collectives' automatic choice reads this file of its own accord
 * (bsp_coll.h; without the file it measures g and l itself, once per
 * machine and P, and caches them apart: docs/collectives.md):
 * bspram_config_default gives g = l = 1 whatever the probe saved. A
 * program that wants costs in
 * the probe's nanoseconds asks for them:
 *     bspram_config cfg = bspram_config_default(p);
 *     bspram_params_load(&cfg.g, &cfg.l);   (cfg is untouched if no probe ran)
 *
 * NULL: bspram_params_read's out and bspram_params_save's params must not be
 * NULL, nor bspram_params_path's buf when len > 0; NULL is refused in one
 * line naming the call and the argument, exit status 1 (base/error.h,
 * docs/limits.md). bspram_params_load takes NULL for an output not wanted.
 */
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "bsp/params.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
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

/* The file the parameters live in (see above): $BSPRAM_PARAMS, else
 * $XDG_CONFIG_HOME/bspram/params, else ~/.config/bspram/params.
 *
 * @param buf     where the path is written (NUL-terminated); NULL only with
 *                len = 0
 * @param len     buf's size in bytes
 * @return        0, or −1 if no location is known (no $HOME) or buf is too
 *                small
 * @pre           None.
 * @par Errors
 *     buf NULL with len > 0: "bspram: bspram_params_path(buf=NULL): buf must
 *     not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(length of the path) (reads the environment).
 * @par Thread safety
 *     Any thread.
 */
int bspram_params_path(char *buf, size_t len);

/* The parameter file is read only if it is a regular file of at most
 * BSPRAM_PARAMS_MAX_BYTES (a FIFO or a device at the path could block or
 * never end); p must be a whole number in [1, BSPRAM_PARAMS_MAX_P] (BSPlib's
 * largest P) and every other value a finite number >= 0. */
#define BSPRAM_PARAMS_MAX_BYTES 65536
#define BSPRAM_PARAMS_MAX_P 65536u

/* Load the saved g (ns per byte of the router's byte h-relation) and l (ns
 * per superstep), e.g. into a config's g and l (then
 * bspram_machine_predicted_cost is in ns, with w in ns too): the parameter
 * file read as bspram_params_read does.
 *
 * @param g_ns_per_byte where g is stored; NULL if not wanted
 * @param l_ns    where l is stored; NULL if not wanted
 * @return        0, or −1 if there is no parameter file or it is unusable
 *                (the outputs are then untouched)
 * @pre           None.
 * @par Errors
 *     A file that is there but unusable gives one warning line on stderr,
 *     "bspram: parameter file /home/u/.config/bspram/params: p must be a
 *     whole number in [1, 65536], not 1e30; ignored (run bspram probe to
 *     rewrite it)" (likewise "a line is not "key = value": …", "p is set
 *     twice", "g_ns_per_byte is set twice", "lacks g_ns_per_byte or l_ns", a
 *     value that is not a finite number ≥ 0, not a regular file, larger than
 *     65536 bytes, a NUL byte), and −1; the program goes on (no exit). A
 *     missing file gives −1 silently.
 * @par BSP cost
 *     None: local; opens and parses the file (at most 65536 bytes) on every
 *     call — call it once, not per machine in a loop.
 * @par Thread safety
 *     Any thread (never blocks, whatever lies at the path).
 */
int bspram_params_load(double *g_ns_per_byte, double *l_ns);

/* Read the whole set from the parameter file. Never blocks, whatever lies
 * at the path. Lines may be of any length ('#' starts a comment line);
 * unknown keys are ignored; g_ns_per_byte and l_ns are required.
 *
 * @param out     where the parameters are stored (untouched on −1); must not
 *                be NULL
 * @return        0, or −1 (errno set on I/O errors)
 * @pre           None.
 * @par Errors
 *     out NULL: "bspram: bspram_params_read(out=NULL): out must not be NULL",
 *     exit status 1.
 *     A file that is there but unusable gives one warning line on stderr,
 *     "bspram: parameter file /home/u/.config/bspram/params: p must be a
 *     whole number in [1, 65536], not 1e30; ignored (run bspram probe to
 *     rewrite it)" (likewise "a line is not "key = value": …", "p is set
 *     twice", "g_ns_per_byte is set twice", "lacks g_ns_per_byte or l_ns", a
 *     value that is not a finite number ≥ 0, not a regular file, larger than
 *     65536 bytes, a NUL byte), and −1; the program goes on (no exit). A
 *     missing file gives −1 silently.
 * @par BSP cost
 *     None: local; opens and parses the file (at most 65536 bytes).
 * @par Thread safety
 *     Any thread.
 */
int bspram_params_read(bspram_params *out);

/* Write the whole set to the parameter file (creating its directories),
 * as `bspram probe` does. It refuses what bspram_params_read would refuse,
 * and never blocks either: a FIFO or device at the path is not written.
 * The set goes to a new file beside the path, renamed over it once whole
 * (a symbolic link or a file with hard links is written in place): a
 * failed write leaves the earlier file as it was.
 *
 * @param params  the parameters: p in [1, 65536], every other field a finite
 *                number ≥ 0; must not be NULL
 * @return        0, or −1 with errno set: EINVAL for a value out of range
 *                (e.g. a negative g from a noisy fit) or a path that is not
 *                a regular file, ENXIO for a FIFO with no reader, ENOENT if
 *                no location is known, EIO or the system's error if the
 *                write fails
 * @pre           None.
 * @par Errors
 *     params NULL: "bspram: bspram_params_save(params=NULL): params must not
 *     be NULL", exit status 1. Every other failure is the −1 above, without
 *     a line.
 * @par BSP cost
 *     None: local; writes about 250 bytes.
 * @par Thread safety
 *     Any thread. A reader of the same file meanwhile finds the old set
 *     or the new one (the file is replaced whole, unless written in
 *     place); of two saves at once, one set stays.
 */
int bspram_params_save(const bspram_params *params);

BSPRAM_END_DECLS
#endif
