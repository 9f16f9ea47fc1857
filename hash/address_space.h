/* bspram — the hashed global address space: segments of cells and their owners.
 *
 * Valiant §2 assumes a hashed address space: the cells of memory are spread
 * over the p components by a random function H, so that any set of distinct
 * addresses loads the components evenly (with high probability) whatever the
 * program does. Here the user allocates *segments* of n cells of w bytes
 * (1 ≤ w ≤ 8); cell (segment s, index i) has the 64-bit address
 *
 *     address = s · 2^40 + i,   1 ≤ s < 2^16,  0 ≤ i < 2^40,
 *
 * so every address is below 2^56 (the combining engine uses the top byte of
 * its wire keys for the species). Each segment has a *layout*:
 *
 *   BSPRAM_LAYOUT_HASHED  owner(t) = H(t) = bspram_hash_below(hash, t, p)   (Valiant §2)
 *   BSPRAM_LAYOUT_BLOCK   owner(t) = i div ceil(n/p)     (physical placement, §5)
 *   BSPRAM_LAYOUT_CYCLIC  owner(t) = i mod p             (physical placement, §5)
 *
 * H(t) is defined for every address whatever the layout: the combining
 * engine uses it for its intermediate phases (h_i(t) = H(t) div suffix(i),
 * basis.h) and delivers to owner(t) at the end (Valiant §5).
 *
 * Owners' local storage. A hashed segment keeps, for each component, an
 * open-addressing table (linear probing, load ≤ 1/2) of the cells it owns,
 * with the cell bytes stored beside the keys: O(1) expected access and
 * memory Θ(n·(8 + w) + p) bytes. Block and cyclic segments store each
 * owner's cells contiguously (O(1) access, n·w bytes). All cells start at 0.
 *
 * Threads. Creating, freeing and rehashing are not thread-safe. Cell access
 * is: different threads may touch different cells concurrently; the
 * combining engine has each owner touch only its own cells.
 *
 * Errors are fatal (base/error.h), one line naming the call and the values.
 * A NULL space, or a NULL array where one is needed, is refused the same way
 * ("bspram_load(s=NULL): s must not be NULL"); bspram_space_destroy(NULL)
 * does nothing (docs/limits.md).
 */
#ifndef BSPRAM_HASH_ADDRESS_SPACE_H
#define BSPRAM_HASH_ADDRESS_SPACE_H

#include <stddef.h>
#include <stdint.h>

#include "base/api.h"
#include "hash/hash.h"

BSPRAM_BEGIN_DECLS

#define BSPRAM_SEGMENT_SHIFT 40
#define BSPRAM_SEGMENT_MAX_CELLS (UINT64_C(1) << BSPRAM_SEGMENT_SHIFT)
#define BSPRAM_MAX_SEGMENTS 65535u
#define BSPRAM_ADDRESS_BITS 56

typedef enum {
    BSPRAM_LAYOUT_HASHED = 0,
    BSPRAM_LAYOUT_BLOCK = 1,
    BSPRAM_LAYOUT_CYCLIC = 2
} bspram_layout;

typedef struct bspram_space bspram_space;

/* An empty address space over p ≥ 1 components whose H is the member of
 * family `kind` selected by `seed`. Errors: p = 0 or above 2^31 (the engine
 * keeps a flag bit beside 31-bit component numbers). Cost O(p). */
bspram_space *bspram_space_create(uint64_t p, bspram_hash_kind kind, uint64_t seed);
void bspram_space_destroy(bspram_space *s);

uint64_t bspram_space_p(const bspram_space *s);

/* Allocate a segment of n ≥ 1 cells of w ∈ [1, 8] bytes, all 0, and return
 * its number s ≥ 1. Errors: n = 0 or n > 2^40, w outside [1, 8], unknown
 * layout, more than BSPRAM_MAX_SEGMENTS live segments.
 * Cost: O(n + p) time (n hash evaluations for a hashed layout). */
uint32_t bspram_segment_alloc(bspram_space *s, uint64_t n, unsigned w, bspram_layout layout);

/* Free segment seg (its number may be reused). Errors: no such segment. */
void bspram_segment_free(bspram_space *s, uint32_t seg);

uint64_t bspram_segment_cells(const bspram_space *s, uint32_t seg);
unsigned bspram_segment_width(const bspram_space *s, uint32_t seg);
bspram_layout bspram_segment_layout(const bspram_space *s, uint32_t seg);

/* The address of cell `index` of segment seg. Errors (fatal): no such
 * segment; index ≥ n — "bspram_address(segment=1, index=10): index out of
 * range; the segment has 10 cells [0, 10)". Cost O(1). */
uint64_t bspram_address(const bspram_space *s, uint32_t seg, uint64_t index);

/* H(t) ∈ [0, p): the hashed component of an address (any layout). */
uint64_t bspram_hashed_owner(const bspram_space *s, uint64_t address);

/* The component that stores the cell: H(t) for a hashed segment, the block
 * or cyclic owner otherwise. The address must be valid (unchecked). */
uint64_t bspram_owner(const bspram_space *s, uint64_t address);

/* The cell's bytes in its owner's local storage (w bytes, 1-byte aligned).
 * The address must be valid (unchecked). O(1) expected. */
void *bspram_cell(const bspram_space *s, uint64_t address);

/* cells[i] = bspram_cell(s, addresses[i]) for i < n, the lookups overlapped:
 * the hashed ones are done in two passes over groups of addresses, the first
 * computing where each cell's slot is and fetching it ahead, so that n
 * lookups cost about n/16 memory latencies rather than n. The addresses must
 * be valid (unchecked); addresses and cells may be NULL only when n = 0.
 * O(n) expected. */
void bspram_cells(const bspram_space *s, const uint64_t *addresses, size_t n, void **cells);

/* Read / write a cell as a 64-bit word (the low w bytes, zero-extended on
 * load). Errors (fatal): invalid address. O(1) expected. */
uint64_t bspram_load(const bspram_space *s, uint64_t address);
void bspram_store(bspram_space *s, uint64_t address, uint64_t value);

/* Replace H by the member of the same family selected by new_seed and move
 * every hashed cell (with its value) to its new owner. Cost O(total cells + p). */
void bspram_space_rehash(bspram_space *s, uint64_t new_seed);

BSPRAM_END_DECLS
#endif
