/* What the layers above may ask of the bsp_shm extension (not installed). */
#ifndef BSPRAM_COMBINE_BSP_SHM_INTERNAL_H
#define BSPRAM_COMBINE_BSP_SHM_INTERNAL_H

#include "bsp/bsplib_internal.h"
#include "combine/combine.h"

/* The user operation `op` registered with bsp_shm_add_op and in effect in
 * this superstep: 0 and its function, context and identity, or −1. */
int bspram__combine_bsplib_shm_user_op(const bsplib_world *w, unsigned op, bspram_user_op_fn *fn, void **ctx,
                       uint64_t *identity);

#endif
