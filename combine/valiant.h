/* bspram — Valiant's published figures that the library uses: the bases of
 * his Table 2 and the compromise basis of Table 3 (Valiant 1992, §4). One
 * home: the `auto` strategy (combine/strategy.c) chooses by them and
 * `bspram table --paper 2` prints them beside its own measurements.
 *
 * Table 2: for p = 4096 components and v = 2^17 requests, the best basis
 * sequence per degree, with its phase factors and total performance factor
 * (the mean charge Σ max(q_i, r_i) over the degree-1 one-phase charge). */
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "combine/valiant.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
#ifndef BSPRAM_COMBINE_VALIANT_H
#define BSPRAM_COMBINE_VALIANT_H

#include <stdint.h>

#include "base/api.h"

BSPRAM_BEGIN_DECLS

typedef struct bspram_valiant_row {
    uint64_t degree;
    const char *basis;  /* "8x8x8x8", … */
    double phase[4];    /* phase factors; 0 past the last phase */
    double total;       /* the performance factor */
} bspram_valiant_row;

#define BSPRAM_VALIANT_TABLE2_ROWS 9

/* Table 2, by decreasing degree (4096 … 16). */
extern const bspram_valiant_row bspram_valiant_table2[BSPRAM_VALIANT_TABLE2_ROWS];

/* Valiant's compromise when the degree is unknown (Table 3), at p = 4096. */
#define BSPRAM_VALIANT_COMPROMISE "32x16x8"

BSPRAM_END_DECLS

#endif
