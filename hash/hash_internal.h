/* bspram — the hash functions of an address space, and reduction to [0, n).
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
 * naming the call and the argument ("bspram__hash_hash64(h=NULL): h must not be
 * NULL"), exit status 1 (base/error.h, docs/limits.md).
 */
#ifndef BSPRAM_HASH_HASH_INTERNAL_H
#define BSPRAM_HASH_HASH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hash/address_space.h"
#include "hash/hash.h"

typedef struct bspram_hash {
    bspram_hash_kind kind;
    uint64_t seed;
    uint64_t xxh3_flip; /* XXH3's bitflip for 8-byte keys under this seed (hash.c) */
    uint64_t table[8][256]; /* used by BSPRAM_HASH_TABULATION only */
} bspram_hash;

/* Why a segment of n cells of w bytes cannot be built on this process —
 * a hashed one whose owners' tables (at least 3/2 slots of 8 + w bytes per
 * cell held here) exceed the memory it can have, the machine's or its
 * RLIMIT_AS / RLIMIT_DATA: "a hashed segment of 1099511627776 cells needs
 * at least 24 TiB for its owners' tables (…); this process can have at
 * most 15.6 GiB (the machine's memory)" in buf, returned — or NULL. O(1):
 * checked before the O(n) build (bspram_segment_alloc, bsp_shm_alloc,
 * bspram_pram_alloc). */
const char *bspram__hash_segment_problem(const bspram_space *s, uint64_t n, unsigned w, bspram_layout layout,
                                         char *buf, size_t len);

/* Initialise `h` as the member of family `kind` selected by `seed`.
 * Errors: an unknown kind is fatal ("bspram__hash_init(kind=…)"). */
void bspram__hash_init(bspram_hash *h, bspram_hash_kind kind, uint64_t seed);

/* The 64-bit hash of `key`. Pure: same (family, seed, key) → same value. */
uint64_t bspram__hash_hash64(const bspram_hash *h, uint64_t key);

__extension__ typedef unsigned __int128 bspram_u128; /* gcc and clang */

/* XXH3_64bits_withSeed(&key, 8, seed) written out for an 8-byte key
 * (xxhash 0.8, XXH3_len_4to8_64b then XXH3_rrmxmx), with the seed's bitflip
 * computed once by bspram__hash_init, which also checks it against the
 * library's own function. Inline: the combining engine hashes every request
 * once or more per phase; through the generic call it was 48 instructions,
 * 11 % of bench_combine's (callgrind), here about 12. */
static inline uint64_t bspram__hash_xxh3_8(const bspram_hash *h, uint64_t key)
{
    uint64_t x = ((key << 32) | (key >> 32)) ^ h->xxh3_flip;
    x ^= ((x << 49) | (x >> 15)) ^ ((x << 24) | (x >> 40));
    x *= UINT64_C(0x9FB21C651E98DF25);
    x ^= (x >> 35) + 8;
    x *= UINT64_C(0x9FB21C651E98DF25);
    return x ^ (x >> 28);
}

/* bspram_random3(seed, a, b, c) written out (xxhash 0.8: 24 bytes take
 * XXH3_len_17to128_64b: two mix16B of the words (a, b) and (b, c), then the
 * avalanche), for a seed fixed over many draws: the secret's first four
 * words with the seed folded in once (bspram__random3_key), and, as the
 * engine draws (seed, phase, component, group) for every group of a
 * component, the first mix16B once per (a, b). The engine checks it against
 * bspram_random3 once per batch (batch.c). Through the call a draw cost 48
 * instructions (callgrind); here about 12. */
typedef struct bspram__random3_key {
    uint64_t k[4];
} bspram__random3_key;

static inline bspram__random3_key bspram__random3_key_of(uint64_t seed)
{
    /* XXH3_kSecret's words 0..3, little-endian */
    bspram__random3_key r = {{UINT64_C(0xbe4ba423396cfeb8) + seed, UINT64_C(0x1cad21f72c81017c) - seed,
                              UINT64_C(0xdb979083e96dd4de) + seed, UINT64_C(0x1f67b3b7a4a44072) - seed}};
    return r;
}
static inline uint64_t bspram__mul128_fold64(uint64_t x, uint64_t y)
{
    bspram_u128 m = (bspram_u128)x * y;
    return (uint64_t)m ^ (uint64_t)(m >> 64);
}
/* The part of bspram_random3(seed, a, b, ·) that does not depend on c. */
static inline uint64_t bspram__random3_ab(const bspram__random3_key *K, uint64_t a, uint64_t b)
{
    return 24 * UINT64_C(0x9E3779B185EBCA87) + bspram__mul128_fold64(a ^ K->k[0], b ^ K->k[1]);
}
static inline uint64_t bspram__random3_abc(const bspram__random3_key *K, uint64_t ab, uint64_t b, uint64_t c)
{
    uint64_t h = ab + bspram__mul128_fold64(b ^ K->k[2], c ^ K->k[3]);
    h ^= h >> 37;
    h *= UINT64_C(0x165667919E3779F9);
    return h ^ (h >> 32);
}

/* bspram__hash_hash64 inline (for the engine's loops). */
static inline uint64_t bspram__hash_hash64_inline(const bspram_hash *h, uint64_t key)
{
    if (h->kind == BSPRAM_HASH_XXH3)
        return bspram__hash_xxh3_8(h, key);
    uint64_t v = 0;
    for (unsigned c = 0; c < 8; c++)
        v ^= h->table[c][(key >> (8 * c)) & 0xff];
    return v;
}

/* Map a uniform 64-bit x to [0, n), n ≥ 1, as floor(x·n / 2^64). Uniform up to
 * a bias of at most n/2^64 per value. */

static inline uint64_t bspram_reduce(uint64_t x, uint64_t n)
{
    return (uint64_t)(((bspram_u128)x * n) >> 64);
}

/* bspram_reduce(bspram__hash_hash64(h, key), n). */
static inline uint64_t bspram_hash_below(const bspram_hash *h, uint64_t key, uint64_t n)
{
    return bspram_reduce(bspram__hash_hash64_inline(h, key), n);
}

/* The family member that hashes space s's addresses. */
const bspram_hash *bspram__hash_space_hash(const bspram_space *s);

/* 0 if `address` names a cell of a live segment, else −1 with a one-line
 * reason in err (if err is not NULL and err_len > 0). Cost O(1). */
int bspram__hash_address_check(const bspram_space *s, uint64_t address, char *err, size_t err_len);

/* Hold the cells of owners [first, end) only (all p at creation): over MPI a
 * rank holds its own components' cells (bspram_holds). The live hashed
 * segments are rebuilt, keeping the held cells' values; later ones are built
 * so. Cost O(n) hashes per live segment when the range changes. */
void bspram__hash_space_hold(bspram_space *s, uint64_t first, uint64_t end);

/* Owner c's cells of one hashed segment as its open-addressing table
 * (address_space.c): a cell with index i (address & (BSPRAM_SEGMENT_MAX_CELLS
 * − 1)) whose address hashes to h sits at the first slot j from
 * bspram__cell_home(h, size), in probe order (bspram__cell_next), with key
 * i + 1 in slot j: key32[j] for a segment of at most 2^32 − 1 cells (4
 * bytes a slot), else key64[j] (key32 NULL); its bytes are bytes + j·w.
 * Lets the owner of a batch probe its cells inline, record by record
 * (combine/owner.c), where bspram_cells would take an array of addresses. */
typedef struct bspram__cell_table {
    const uint32_t *key32;
    const uint64_t *key64;
    unsigned char *bytes;
    uint64_t size;
    unsigned w;
} bspram__cell_table;

/* A cell's first slot in a table of `size` slots, from its hash h: the low
 * 32 bits of h, by multiply-high (the owner, bspram_reduce(h, p), takes the
 * high bits). A table is any size (3/2 slots a cell), not a power of two. */
static inline uint64_t bspram__cell_home(uint64_t h, uint64_t size)
{
    return bspram_reduce(h << 32 | h >> 32, size);
}

/* The slot after j in probe order (linear, wrapping at size). */
static inline uint64_t bspram__cell_next(uint64_t j, uint64_t size)
{
    return j + 1 == size ? 0 : j + 1;
}

/* From now on, every hashed segment allocated or rebuilt on s keys its
 * tables by 64 bits, as a segment of 2^32 cells or more does (a test's way
 * to those tables, which no test machine could hold).
 *
 * @param s       the space; not NULL
 * @pre           None.
 * @par Errors
 *     s NULL ("bspram: bspram__hash_space_wide_keys(s=NULL): s must not be
 *     NULL").
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     The host only, between batches.
 */
void bspram__hash_space_wide_keys(bspram_space *s);

/* Fills *t for segment `seg` and owner c < p and returns true; false (and
 * *t untouched) if the segment is not a live hashed one. Cost O(1). */
bool bspram__hash_cell_table(const bspram_space *s, uint32_t seg, uint64_t c, bspram__cell_table *t);

#endif
