/* bspram — hash families on 64-bit keys, and reduction to [0, n).
 *
 * Valiant §2 hashes the address space onto the p components with a random
 * function. Two families are offered:
 *
 *   BSPRAM_HASH_XXH3         seeded XXH3 (xxHash). Fast and statistically good,
 *                            but a heuristic stand-in for a random function:
 *                            no independence guarantee is proved.
 *   BSPRAM_HASH_TABULATION   simple tabulation hashing (Zobrist; Pătraşcu and
 *                            Thorup 2012): 8 tables of 256 random 64-bit words,
 *                            one per key byte, XORed. 3-independent, with
 *                            Chernoff-type concentration for bin loads — a
 *                            provable guarantee. Tables are filled from the
 *                            counter-based generator (random.h), so a seed fixes them.
 *
 * An address space (address_space.h) is created with a family and a seed;
 * the functions themselves stay inside the library.
 */
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "hash/hash.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
#ifndef BSPRAM_HASH_HASH_H
#define BSPRAM_HASH_HASH_H

#include "base/api.h"

BSPRAM_BEGIN_DECLS

typedef enum {
    BSPRAM_HASH_XXH3 = 0,
    BSPRAM_HASH_TABULATION = 1
} bspram_hash_kind;

/* The family's name: "xxh3" or "tabulation".
 *
 * @param kind    a family, BSPRAM_HASH_XXH3 or BSPRAM_HASH_TABULATION
 * @return        the name (a static string), or "unknown" for any other
 *                value of kind; never NULL
 * @pre           None.
 * @par Errors
 *     None: an unknown kind gives "unknown".
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
const char *bspram_hash_kind_name(bspram_hash_kind kind);

/* The family of a name, the inverse of bspram_hash_kind_name.
 *
 * @param name    "xxh3" or "tabulation", exactly (case matters); not NULL
 * @return        BSPRAM_HASH_XXH3 or BSPRAM_HASH_TABULATION, or −1 for any
 *                other name
 * @pre           None.
 * @par Errors
 *     name NULL: "bspram: bspram_hash_kind_parse(name=NULL): name must not
 *     be NULL", exit status 1. An unknown name is no error (−1).
 * @par BSP cost
 *     None: local, O(length of name).
 * @par Thread safety
 *     Any thread; a pure function.
 */
int bspram_hash_kind_parse(const char *name);

BSPRAM_END_DECLS
#endif
