/* bspram — umbrella header: a BSP computer, and a PRAM on top of it, over
 * OpenMP threads. See README.md for a tour and docs/architecture.md for the layers.
 * It includes every public header, from the bottom layer up; each of them
 * can also be included alone. */
#ifndef BSPRAM_H
#define BSPRAM_H

#include "base/api.h"
#include "hash/basis.h"
#include "hash/hash.h"
#include "hash/random.h"
#include "hash/address_space.h"
#include "router/message.h"
#include "router/records.h"
#include "bsp/bsp.h"
#include "bsp/machine.h"
#include "bsp/params.h"
#include "combine/combine.h"
#include "combine/bsp_shm.h"
#include "combine/experiment.h"
#include "combine/shared.h"
#include "combine/valiant.h"
#include "models/model.h"
#include "coll/bsp_coll.h"
#include "coll/bsp_sdp.h"
#include "pram/pram.h"

#endif
