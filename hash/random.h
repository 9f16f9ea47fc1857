/* bspram — counter-based randomness.
 *
 * Determinism (docs/architecture.md): every random choice in the library (hash seeds, the
 * spreading offsets k_i of each request in each phase, arbitrary-write winners)
 * is a pure function of (seed, a few 64-bit words). There is no generator state
 * to share or advance, so results never depend on the number of threads or on
 * scheduling. The function is XXH3-64 of the words with the seed as XXH3's seed.
 *
 * Cost: one XXH3 of 8–24 bytes (≈ 2–3 ns).
 */
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "hash/random.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
#ifndef BSPRAM_HASH_RANDOM_H
#define BSPRAM_HASH_RANDOM_H

#include <stdint.h>

#include "base/api.h"

BSPRAM_BEGIN_DECLS

/* A uniform 64-bit word determined by (seed, a): XXH3-64 of the word a
 * with seed as XXH3's seed.
 *
 * The same arguments give the same word on every machine, thread and run;
 * there is no generator state.
 *
 * @param seed    the stream's seed, any value
 * @param a       the counter, any value
 * @return        XXH3-64(a) seeded with seed, uniform over [0, 2^64)
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1) (one XXH3 of 8 bytes).
 * @par Thread safety
 *     Any thread; a pure function.
 */
uint64_t bspram_random1(uint64_t seed, uint64_t a);

/* A uniform 64-bit word determined by (seed, a, b): XXH3-64 of the two
 * words with seed as XXH3's seed.
 *
 * As bspram_random1, for two words. The arbitrary-write winners of the
 * combining engine are bspram_random2(seed, component, request index)
 * (combine/combine.h).
 *
 * @param seed    the stream's seed, any value
 * @param a       the first counter word, any value
 * @param b       the second counter word, any value
 * @return        XXH3-64 of (a, b) seeded with seed, uniform over [0, 2^64)
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1) (one XXH3 of 16 bytes).
 * @par Thread safety
 *     Any thread; a pure function.
 */
uint64_t bspram_random2(uint64_t seed, uint64_t a, uint64_t b);

/* A uniform 64-bit word determined by (seed, a, b, c): XXH3-64 of the three
 * words with seed as XXH3's seed.
 *
 * As bspram_random1, for three words.
 *
 * @param seed    the stream's seed, any value
 * @param a       the first counter word, any value
 * @param b       the second counter word, any value
 * @param c       the third counter word, any value
 * @return        XXH3-64 of (a, b, c) seeded with seed, uniform over [0, 2^64)
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1) (one XXH3 of 24 bytes).
 * @par Thread safety
 *     Any thread; a pure function.
 */
uint64_t bspram_random3(uint64_t seed, uint64_t a, uint64_t b, uint64_t c);

/* A uniform value in [0, n): floor(bspram_random3(seed, a, b, c) · n / 2^64)
 * (multiply-high reduction).
 *
 * Uniform up to a bias of at most n/2^64 per value.
 *
 * @param n       the bound, ≥ 1
 * @param seed    the stream's seed, any value
 * @param a       the first counter word, any value
 * @param b       the second counter word, any value
 * @param c       the third counter word, any value
 * @return        a value in [0, n), a pure function of (n, seed, a, b, c)
 * @pre           n ≥ 1.
 * @par Errors
 *     n = 0: "bspram: bspram_random_below(n=0): n must be >= 1", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
uint64_t bspram_random_below(uint64_t n, uint64_t seed, uint64_t a, uint64_t b, uint64_t c);

/* A uniform double in [0, 1) with 53 random bits: the top 53 bits of
 * bspram_random3(seed, a, b, c) times 2^-53.
 *
 * @param seed    the stream's seed, any value
 * @param a       the first counter word, any value
 * @param b       the second counter word, any value
 * @param c       the third counter word, any value
 * @return        a multiple of 2^-53 in [0, 1), a pure function of the arguments
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; a pure function.
 */
double bspram_random_unit(uint64_t seed, uint64_t a, uint64_t b, uint64_t c);

BSPRAM_END_DECLS
#endif
