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
 * open-addressing table (linear probing, load ≤ 2/3) of the cells it owns,
 * with the cell bytes stored beside the keys (4 bytes a key in a segment of
 * at most 2^32 − 1 cells, 8 beyond): O(1) expected access and memory
 * Θ(n·(4 + w) + p) bytes (Θ(n·(8 + w) + p) beyond 2^32 − 1 cells). Block and cyclic segments store each
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
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "hash/address_space.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
#ifndef BSPRAM_HASH_ADDRESS_SPACE_H
#define BSPRAM_HASH_ADDRESS_SPACE_H

#include <stdbool.h>
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

/* An empty address space over p components whose H is the member of
 * family kind selected by seed.
 *
 * @param p       the number of components, 1 ≤ p ≤ 2^31 (the engine keeps
 *                a flag bit beside 31-bit component numbers)
 * @param kind    the hash family, BSPRAM_HASH_XXH3 or BSPRAM_HASH_TABULATION
 * @param seed    selects the family's member, any value
 * @return        a new space without segments (free it with
 *                bspram_space_destroy); never NULL
 * @pre           None.
 * @par Errors
 *     p out of range: "bspram: bspram_space_create(p=0): p must be in [1,
 *     2147483648]", exit status 1. An unknown kind: "bspram:
 *     bspram_space_create(kind=7): unknown hash family; valid: 0 (xxh3),
 *     1 (tabulation)", exit status 1. Out of memory: "bspram:
 *     bspram_space_create: out of memory allocating 1 x N bytes", exit
 *     status 1.
 * @par BSP cost
 *     None: local; O(1) time (2048 draws of bspram_random3 for a
 *     tabulation family) and about 16 KiB of memory (the tabulation tables
 *     are part of the space whatever the family).
 * @par Thread safety
 *     Any thread.
 */
bspram_space *bspram_space_create(uint64_t p, bspram_hash_kind kind, uint64_t seed);

/* Free the space and every segment still allocated in it.
 *
 * @param s       the space; NULL does nothing
 * @pre           Nothing that still uses s (a combiner, a shared memory, a
 *                PRAM) is used after it.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(number of segments).
 * @par Thread safety
 *     Any thread; not thread-safe: no other call on s may run
 *     concurrently, nor a combining batch or run that uses s
 *     (bspram_combine, bspram_shared_run, a PRAM's phases).
 */
void bspram_space_destroy(bspram_space *s);

/* The number of components the space spreads its cells over.
 *
 * @param s       the space; not NULL
 * @return        p, as given to bspram_space_create
 * @pre           None.
 * @par Errors
 *     s NULL: "bspram: bspram_space_p(s=NULL): s must not be NULL", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; it reads only what bspram_space_create fixed.
 */
uint64_t bspram_space_p(const bspram_space *s);

/* Allocate a segment of n cells of w bytes, all 0, and return its number,
 * the least free number ≥ 1 (a freed number is reused).
 *
 * @param s       the space; not NULL
 * @param n       the number of cells, 1 ≤ n ≤ 2^40 (BSPRAM_SEGMENT_MAX_CELLS)
 * @param w       the bytes per cell, 1 ≤ w ≤ 8
 * @param layout  BSPRAM_LAYOUT_HASHED, _BLOCK or _CYCLIC (top of this file)
 * @return        the segment's number, in [1, BSPRAM_MAX_SEGMENTS]
 * @pre           None.
 * @par Errors
 *     Each one line, exit status 1:
 *     "bspram: bspram_segment_alloc(n=0, w=8): n must be in [1, 2^40]";
 *     "bspram: bspram_segment_alloc(n=10, w=9): w must be in [1, 8] bytes";
 *     "bspram: bspram_segment_alloc(n=10, w=8, layout=5): unknown layout;
 *     valid: 0 (hashed), 1 (block), 2 (cyclic)";
 *     "bspram: bspram_segment_alloc(n=10, w=8): more than 65535 live
 *     segments"; a hashed segment whose tables cannot fit in the memory
 *     this process can have (at least 3/2 slots of key + w bytes per cell
 *     it holds, a key 4 bytes up to 2^32 − 1 cells and 8 beyond, against the machine's memory or its RLIMIT_AS / RLIMIT_DATA),
 *     refused before any is built: "bspram:
 *     bspram_segment_alloc(n=1099511627776, w=8): a hashed segment of
 *     1099511627776 cells needs at least 24 TiB for its owners' tables (3/2
 *     slots of 8 + 8 bytes per cell this process holds); this process can
 *     have at most 15.6 GiB (the machine's memory)"; out of memory
 *     ("bspram: bspram_segment_alloc: out of memory allocating N bytes");
 *     s NULL ("bspram:
 *     bspram_segment_alloc(s=NULL): s must not be NULL").
 * @par BSP cost
 *     None: local (no superstep); O(n + p) time (n hash evaluations for a
 *     hashed layout); memory n·w bytes for block (and ceil(n/p)·p·w for
 *     cyclic), and for hashed tables of ceil(3/2·(cells owned)) slots of
 *     4 + w bytes per component (8 + w for a segment of 2^32 cells or
 *     more), so Θ(n·(4 + w) + p), plus 8·(n + p) bytes of scratch while it
 *     builds them.
 * @par Thread safety
 *     Any thread; not thread-safe: no other call on s may run
 *     concurrently, nor a combining batch or run that uses s
 *     (bspram_combine, bspram_shared_run, a PRAM's phases).
 */
uint32_t bspram_segment_alloc(bspram_space *s, uint64_t n, unsigned w, bspram_layout layout);

/* Free segment seg and its cells; its number may be reused by the next
 * bspram_segment_alloc.
 *
 * @param s       the space; not NULL
 * @param seg     a live segment of s
 * @pre           None.
 * @par Errors
 *     No such segment: "bspram: bspram_segment_free(segment=3): no such
 *     segment", exit status 1; s NULL: "bspram: bspram_segment_free(s=NULL):
 *     s must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not thread-safe: no other call on s may run
 *     concurrently, nor a combining batch or run that uses s
 *     (bspram_combine, bspram_shared_run, a PRAM's phases).
 */
void bspram_segment_free(bspram_space *s, uint32_t seg);

/* The number of cells n of segment seg.
 *
 * @param s       the space; not NULL
 * @param seg     a live segment of s
 * @return        n, as allocated
 * @pre           None.
 * @par Errors
 *     No such segment: "bspram: bspram_segment_cells(segment=3): no such
 *     segment", exit status 1; s NULL: "bspram: bspram_segment_cells(s=NULL):
 *     s must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not concurrently with an allocation, free or rehash on s.
 */
uint64_t bspram_segment_cells(const bspram_space *s, uint32_t seg);

/* The width w in bytes of segment seg's cells.
 *
 * @param s       the space; not NULL
 * @param seg     a live segment of s
 * @return        w ∈ [1, 8], as allocated
 * @pre           None.
 * @par Errors
 *     No such segment: "bspram: bspram_segment_width(segment=3): no such
 *     segment", exit status 1; s NULL: "bspram: bspram_segment_width(s=NULL):
 *     s must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not concurrently with an allocation, free or rehash on s.
 */
unsigned bspram_segment_width(const bspram_space *s, uint32_t seg);

/* The layout of segment seg.
 *
 * @param s       the space; not NULL
 * @param seg     a live segment of s
 * @return        its layout, as allocated
 * @pre           None.
 * @par Errors
 *     No such segment: "bspram: bspram_segment_layout(segment=3): no such
 *     segment", exit status 1; s NULL: "bspram:
 *     bspram_segment_layout(s=NULL): s must not be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not concurrently with an allocation, free or rehash on s.
 */
bspram_layout bspram_segment_layout(const bspram_space *s, uint32_t seg);

/* The address of cell index of segment seg: seg · 2^40 + index.
 *
 * @param s       the space; not NULL
 * @param seg     a live segment of s
 * @param index   the cell, 0 ≤ index < n (the segment's cells)
 * @return        the cell's address, below 2^56
 * @pre           None.
 * @par Errors
 *     Each one line, exit status 1: no such segment ("bspram:
 *     bspram_address(segment=3): no such segment"); index ≥ n ("bspram:
 *     bspram_address(segment=1, index=10): index out of range; the segment
 *     has 10 cells [0, 10)"); s NULL ("bspram: bspram_address(s=NULL): s
 *     must not be NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not concurrently with an allocation, free or rehash on s.
 */
uint64_t bspram_address(const bspram_space *s, uint32_t seg, uint64_t index);

/* H(t) ∈ [0, p): the hashed component of an address (any layout), the
 * owner the combining phases aim at.
 *
 * Defined for every 64-bit value, valid address or not.
 *
 * @param s       the space; not NULL
 * @param address any 64-bit value (unchecked)
 * @return        bspram_hash_below(H, address, p), in [0, p)
 * @pre           None.
 * @par Errors
 *     s NULL: "bspram: bspram_hashed_owner(s=NULL): s must not be NULL",
 *     exit status 1.
 * @par BSP cost
 *     None: local, O(1) (one hash evaluation).
 * @par Thread safety
 *     Any thread; not concurrently with a rehash of s.
 */
uint64_t bspram_hashed_owner(const bspram_space *s, uint64_t address);

/* The component that stores the cell: H(t) for a hashed segment, the
 * block owner index div ceil(n/p) or the cyclic owner index mod p
 * otherwise.
 *
 * @param s       the space; not NULL
 * @param address a cell of a live segment of s (unchecked)
 * @return        the owner, in [0, p)
 * @pre           address is valid (bspram_address gave it, and its segment
 *                is live): it is not checked, and an address past the
 *                segments is undefined behaviour (an out-of-bounds read).
 * @par Errors
 *     s NULL: "bspram: bspram_owner(s=NULL): s must not be NULL", exit
 *     status 1. Nothing else is checked.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not concurrently with an allocation, free or rehash on s.
 */
uint64_t bspram_owner(const bspram_space *s, uint64_t address);

/* The cell's bytes in its owner's local storage (w bytes, 1-byte aligned).
 *
 * @param s       the space; not NULL
 * @param address a cell of a live segment of s (unchecked)
 * @return        a pointer to the cell's w bytes, valid until the segment is
 *                freed or s rehashed or destroyed
 * @pre           address is valid: it is not checked, and an invalid one is
 *                undefined behaviour (an out-of-bounds read, or a probe
 *                that never ends for an index past a hashed segment's n).
 * @par Errors
 *     s NULL: "bspram: bspram_cell(s=NULL): s must not be NULL", exit
 *     status 1. Nothing else is checked.
 * @par BSP cost
 *     None: local, O(1) expected (linear probing at load ≤ 2/3).
 * @par Thread safety
 *     Any thread; different threads may touch different cells
 *     concurrently; not concurrently with an allocation, free or rehash on
 *     s.
 */
void *bspram_cell(const bspram_space *s, uint64_t address);

/* cells[i] = bspram_cell(s, addresses[i]) for i < n, the lookups
 * overlapped.
 *
 * The hashed ones are done in two passes over groups of 16 addresses, the
 * first computing where each cell's slot is and fetching it ahead, so that
 * n lookups cost about n/16 memory latencies rather than n.
 *
 * @param s         the space; not NULL
 * @param addresses n cells of live segments of s (unchecked); may be NULL
 *                  only when n = 0
 * @param n         the number of addresses
 * @param cells     receives the n pointers; may be NULL only when n = 0
 * @pre           Every address is valid, as for bspram_cell.
 * @par Errors
 *     s NULL, or addresses or cells NULL with n > 0: "bspram:
 *     bspram_cells(addresses=NULL): addresses must not be NULL", exit
 *     status 1. The addresses are not checked.
 * @par BSP cost
 *     None: local, O(n) expected.
 * @par Thread safety
 *     Any thread; as bspram_cell.
 */
void bspram_cells(const bspram_space *s, const uint64_t *addresses, size_t n, void **cells);

/* Read a cell as a 64-bit word: its w bytes, zero-extended.
 *
 * @param s       the space; not NULL
 * @param address a cell of a live segment of s
 * @return        the cell's value
 * @pre           None.
 * @par Errors
 *     Each one line, exit status 1: an address in no live segment
 *     ("bspram: bspram_load(address=0x50000000000): address 0x50000000000
 *     is in no live segment (segment 5)"); an index past the segment
 *     ("bspram: bspram_load(address=0x1000000000a): address 0x1000000000a:
 *     segment 1 index 10 out of range [0, 10)"); over MPI, a cell of
 *     another rank ("bspram: bspram_load(address=0x10000000003): the
 *     cell's owner, component 5, is another MPI rank's (this rank holds
 *     components [0, 4)); read it in a step, or test bspram_holds
 *     first"); s NULL ("bspram: bspram_load(s=NULL): s must not be NULL").
 * @par BSP cost
 *     None: local, O(1) expected.
 * @par Thread safety
 *     Any thread; different threads may touch different cells
 *     concurrently; not concurrently with a store to the same cell, nor
 *     with an allocation, free or rehash on s.
 */
uint64_t bspram_load(const bspram_space *s, uint64_t address);

/* Whether this process holds the cell: always on one machine; over MPI,
 * once a machine spread over the ranks uses the space (a combiner, a
 * shared-memory object or a PRAM on it), a rank holds the cells whose
 * owners are its own components and no others — of a hashed segment it
 * stores those alone, its share of the memory (block and cyclic segments
 * keep room for every cell, but only the owners' copies are kept up to
 * date). bspram_load and bspram_store accept exactly the
 * held cells; a program that reads cells on the host tests this first, and
 * the same text works on one machine (where every cell is held) and on any
 * number of ranks (where each rank reads its own share).
 *
 * @param s       the space; not NULL
 * @param address a cell of a live segment of s (unchecked)
 * @return        true if bspram_load and bspram_store may touch the cell
 * @pre           address is valid, as for bspram_cell.
 * @par Errors
 *     s NULL: "bspram: bspram_holds(s=NULL): s must not be NULL", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread; not concurrently with an allocation, free or rehash on s.
 */
bool bspram_holds(const bspram_space *s, uint64_t address);

/* Write a cell: its w bytes take the low w bytes of value.
 *
 * @param s       the space; not NULL
 * @param address a cell of a live segment of s
 * @param value   the value; bytes above w are dropped
 * @pre           None.
 * @par Errors
 *     As bspram_load, naming bspram_store: "bspram:
 *     bspram_store(address=0x50000000000): address 0x50000000000 is in no
 *     live segment (segment 5)", exit status 1.
 * @par BSP cost
 *     None: local, O(1) expected.
 * @par Thread safety
 *     Any thread; different threads may touch different cells
 *     concurrently; not concurrently with another access to the same cell,
 *     nor with an allocation, free or rehash on s.
 */
void bspram_store(bspram_space *s, uint64_t address, uint64_t value);

/* Replace H by the member of the same family selected by new_seed and move
 * every hashed cell (with its value) to its new owner.
 *
 * Block and cyclic segments are not moved (their owners do not depend on
 * H), but H(t), the target of the combining phases, changes for them too.
 *
 * @param s        the space; not NULL
 * @param new_seed the new member's seed, any value
 * @pre           None.
 * @par Errors
 *     s NULL: "bspram: bspram_space_rehash(s=NULL): s must not be NULL",
 *     exit status 1; over MPI, a held cell that is not 0 (a new H would
 *     move it to another rank): "bspram: bspram_space_rehash(new_seed=6):
 *     cell 0x10000000001 holds 2; over MPI the space holds only this rank's
 *     owners' cells and a new H would move cells between ranks, so every
 *     cell must be 0 (clear them first)", exit status 1; out of memory ("bspram: bspram_space_rehash: out of
 *     memory allocating N x W bytes", or bspram_segment_alloc's), exit
 *     status 1.
 * @par BSP cost
 *     None: local (no superstep); O(n + p) time for each hashed segment
 *     of n cells, with scratch of n·w bytes plus bspram_segment_alloc's
 *     while a segment is rebuilt.
 * @par Thread safety
 *     Any thread; not thread-safe: no other call on s may run
 *     concurrently, nor a combining batch or run that uses s
 *     (bspram_combine, bspram_shared_run, a PRAM's phases).
 */
void bspram_space_rehash(bspram_space *s, uint64_t new_seed);

BSPRAM_END_DECLS
#endif
