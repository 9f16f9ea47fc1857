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
 * A hash value is a uniform 64-bit word; bspram_reduce maps it to [0, n) for
 * any n by the multiply-high method (Lemire 2019), which keeps prefix order:
 * for n = a·b, reduce(x, n) div b == reduce(x, a) whenever the product of the
 * high bits does not straddle — see basis.h for how the owner functions use a
 * single reduction so that the prefix property holds exactly.
 *
 * Cost: XXH3 ≈ 2 ns per key; tabulation ≈ 8 table loads per key (the 16 KiB
 * table stays in L1/L2). No global state; a bspram_hash is read-only after init
 * and may be shared by all threads.
 *
 * NULL: every pointer argument here is needed; NULL is refused in one line
 * naming the call and the argument ("bspram_hash64(h=NULL): h must not be
 * NULL"), exit status 1 (base/error.h, docs/limits.md).
 */
#ifndef BSPRAM_HASH_HASH_H
#define BSPRAM_HASH_HASH_H

#include <stdint.h>

#include "base/api.h"

BSPRAM_BEGIN_DECLS

typedef enum {
    BSPRAM_HASH_XXH3 = 0,
    BSPRAM_HASH_TABULATION = 1
} bspram_hash_kind;

typedef struct bspram_hash {
    bspram_hash_kind kind;
    uint64_t seed;
    uint64_t table[8][256]; /* used by BSPRAM_HASH_TABULATION only */
} bspram_hash;

/* Initialise `h` as the member of family `kind` selected by `seed`.
 * Errors: an unknown kind is fatal ("bspram_hash_init(kind=…)"). */
void bspram_hash_init(bspram_hash *h, bspram_hash_kind kind, uint64_t seed);

/* The family's name ("xxh3", "tabulation") and the inverse, which returns -1
 * for an unknown name. */
const char *bspram_hash_kind_name(bspram_hash_kind kind);
int bspram_hash_kind_parse(const char *name);

/* The 64-bit hash of `key`. Pure: same (family, seed, key) → same value. */
uint64_t bspram_hash64(const bspram_hash *h, uint64_t key);

/* Map a uniform 64-bit x to [0, n), n ≥ 1, as floor(x·n / 2^64). Uniform up to
 * a bias of at most n/2^64 per value. */
__extension__ typedef unsigned __int128 bspram_u128; /* gcc and clang */

static inline uint64_t bspram_reduce(uint64_t x, uint64_t n)
{
    return (uint64_t)(((bspram_u128)x * n) >> 64);
}

/* bspram_reduce(bspram_hash64(h, key), n). */
static inline uint64_t bspram_hash_below(const bspram_hash *h, uint64_t key, uint64_t n)
{
    return bspram_reduce(bspram_hash64(h, key), n);
}

BSPRAM_END_DECLS
#endif
