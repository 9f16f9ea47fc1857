/* bspram — the combining engine's wire records. Internal.
 *
 * A request in flight is a 32-byte wire record: the key (species.h), the
 * combined value, an auxiliary word (the write policy's key; for a READ or
 * FETCH the component that sent it, or in the adaptive strategy the number
 * of original requests merged, the group's "weight", which its shortcut
 * reads), H(t) (31 bits; bit 31 marks a request that has reached its final
 * component early) and a handle naming the sender's group for the reverse
 * flow. A reduction on a hashed segment outside the adaptive strategy needs
 * no weight, handle or flag, and its H(t) can be recomputed by the receiver
 * (a hash is cheaper than moving 16 more bytes through the router): it
 * travels as a 16-byte compact record, halving the router's bytes for
 * reductions. An answer travels back as a
 * 16-byte reply. Messages are told apart by their length. */
#ifndef BSPRAM_COMBINE_WIRE_H
#define BSPRAM_COMBINE_WIRE_H

#include <stdint.h>

#define BSPRAM__FINAL_FLAG 0x80000000u

typedef struct wire {
    uint64_t key;
    uint64_t value;
    uint64_t aux;
    uint32_t owner;  /* H(t) | BSPRAM__FINAL_FLAG */
    uint32_t handle; /* sender's reverse-flow group, if READ/FETCH */
} wire;

typedef struct compact_wire {
    uint64_t key;
    uint64_t value;
} compact_wire;

typedef struct reply {
    uint32_t handle;
    uint32_t level;
    uint64_t value;
} reply;
/* A reply is staged where a compact record would be (reverse.c). */
_Static_assert(sizeof(reply) == sizeof(compact_wire), "a reply fills a compact record's room");

#endif
