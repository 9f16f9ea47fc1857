/* bspram — umbrella header: a BSP computer, and a PRAM on top of it, over
 * OpenMP threads. See README.md for a tour and DESIGN.md for the layers. */
#ifndef BSPRAM_H
#define BSPRAM_H

#include "base/error.h"
#include "hash/basis.h"
#include "hash/hash.h"
#include "hash/random.h"
#include "hash/segment.h"
#include "router/barrier.h"
#include "router/records.h"
#include "router/router.h"
#include "bsp/environment.h"
#include "bsp/machine.h"
#include "bsp/params.h"
#include "bsp/trace.h"
#include "combine/combine.h"
#include "combine/table.h"

#endif
