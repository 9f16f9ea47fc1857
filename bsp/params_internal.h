/* bspram — the parameter file's parser, apart from the file. Internal (not
 * installed): bspram_params_read reads the file and hands its bytes here;
 * the parser's fuzz harness (fuzz/fuzz_params.c) calls it directly. */
#ifndef BSPRAM_BSP_PARAMS_INTERNAL_H
#define BSPRAM_BSP_PARAMS_INTERNAL_H

#include <stddef.h>

#include "bsp/params.h"

/* Parse the n bytes of buf as a parameter file (params.h): 0 with *out set,
 * or −1 after one warning line on stderr naming path, *out untouched. buf
 * must have room for n + 1 bytes; the parser writes into it (line ends). */
int bspram__bsp_params_parse(const char *path, char *buf, size_t n, bspram_params *out);

#endif
