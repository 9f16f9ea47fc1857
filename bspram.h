/* bspram — umbrella header: a BSP computer, and a PRAM on top of it, over
 * OpenMP threads. See README.md for a tour and docs/architecture.md for the layers.
 * It includes every public header, from the bottom layer up, the engine's
 * among them: a program that includes it defines BSPRAM_ENGINE_API, or
 * includes the stable headers it uses instead. Each header can also be
 * included alone. */
#if !defined(BSPRAM_ENGINE_API)
#error "bspram.h includes the engine API too, which may change between minor versions: define BSPRAM_ENGINE_API before including it, or include the stable headers you use (bsp.h, bsp_coll.h, bsp_sdp.h, bsp_shm.h, pram/pram.h, models/model.h)"
#endif
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
