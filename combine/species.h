/* bspram — the species codec: how a request's species travels with its
 * address. Internal (not installed); the one place that knows the numbers.
 *
 * A request in flight is keyed by species and address together,
 *     key = kind · 2^56 + address,      address < 2^56 (address_space.h),
 * so that combining at a component (Valiant §2: requests for the same
 * address merge) groups by key: requests of different species at one
 * address never merge. The kind byte (combine.h): 0 read; 1–3 write
 * arbitrary / priority / common; 32 + op reduce; 64 + op fetch-and-op;
 * 96 + op combining write, with op < BSPRAM_MAX_OPS = 32. */
#ifndef BSPRAM_COMBINE_SPECIES_H
#define BSPRAM_COMBINE_SPECIES_H

#include <stdbool.h>
#include <stdint.h>

#include "combine/combine.h"

#define BSPRAM__KIND_SHIFT 56
#define BSPRAM__ADDRESS_MASK ((UINT64_C(1) << BSPRAM__KIND_SHIFT) - 1)
#define BSPRAM__KIND_REDUCE 32u
#define BSPRAM__KIND_FETCH 64u
#define BSPRAM__KIND_COMBINE 96u
#define BSPRAM__NO_KIND 0xffu /* "no update species seen" */

static inline uint64_t bspram__key(unsigned kind, uint64_t address)
{
    return (uint64_t)kind << BSPRAM__KIND_SHIFT | address;
}
static inline unsigned bspram__key_kind(uint64_t key) { return (unsigned)(key >> BSPRAM__KIND_SHIFT); }
static inline uint64_t bspram__key_address(uint64_t key) { return key & BSPRAM__ADDRESS_MASK; }

static inline bool bspram__is_write(unsigned kind)
{
    return kind >= BSPRAM_WRITE_ARBITRARY && kind <= BSPRAM_WRITE_COMMON;
}
/* Reduce, fetch-and-op or combining write: the kinds that apply an operation. */
static inline bool bspram__is_op(unsigned kind) { return kind >= BSPRAM__KIND_REDUCE; }
static inline bool bspram__is_reduce(unsigned kind)
{
    return kind >= BSPRAM__KIND_REDUCE && kind < BSPRAM__KIND_FETCH;
}
static inline bool bspram__is_fetch(unsigned kind)
{
    return kind >= BSPRAM__KIND_FETCH && kind < BSPRAM__KIND_COMBINE;
}
/* A combining write: the cell gets the ⊕ of the written values. */
static inline bool bspram__is_combine_write(unsigned kind) { return kind >= BSPRAM__KIND_COMBINE; }
/* The kinds that store a value (rather than apply an operation to the cell). */
static inline bool bspram__stores(unsigned kind)
{
    return bspram__is_write(kind) || bspram__is_combine_write(kind);
}
/* The kinds whose requesters get an answer (the reverse flow's). */
static inline bool bspram__answers(unsigned kind) { return kind == BSPRAM_READ || bspram__is_fetch(kind); }
/* The operation of a reduce or fetch-and-op kind. */
static inline unsigned bspram__kind_op(unsigned kind) { return kind % BSPRAM__KIND_REDUCE; }

/* A kind a combiner with `nops` operations accepts. */
static inline bool bspram__kind_valid(unsigned kind, unsigned nops)
{
    return kind <= BSPRAM_WRITE_COMMON ||
           (kind >= BSPRAM__KIND_REDUCE && kind < BSPRAM__KIND_REDUCE + nops) ||
           (kind >= BSPRAM__KIND_FETCH && kind < BSPRAM__KIND_FETCH + nops) ||
           (kind >= BSPRAM__KIND_COMBINE && kind < BSPRAM__KIND_COMBINE + nops);
}

#endif
