/* bspram — a message between components, as the machine delivers it.
 *
 * The one type the router shows its users: what a component's inbox holds
 * (bsp/machine.h: bspram_inbox, bspram_machine_inbox), and the limits on
 * components and message sizes that every layer checks against.
 */
#if !defined(BSPRAM_ENGINE_API) && !defined(BSPRAM_STABLE_NEEDS_ENGINE_)
#error "router/message.h is bspram's engine API, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or use the stable API (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
#ifndef BSPRAM_ROUTER_MESSAGE_H
#define BSPRAM_ROUTER_MESSAGE_H

#include <stdint.h>

#include "base/api.h"

BSPRAM_BEGIN_DECLS

/* Largest number of components (component ids are 32-bit). */
#define BSPRAM_MAX_COMPONENTS UINT32_MAX

/* Largest message (2^62 bytes): beyond any memory, and low enough that no
 * size computed from it wraps around. */
#define BSPRAM_MAX_MESSAGE (UINT64_C(1) << 62)

/* A delivered message. `data` is valid until the receiver enters its next
 * exchange (the sender's storage is reused right after that exchange's
 * barrier), and is 8-byte aligned. */
typedef struct bspram_message {
    const void *data;
    uint64_t len;
    uint32_t src;
    uint32_t dst;
} bspram_message;

BSPRAM_END_DECLS

#endif
