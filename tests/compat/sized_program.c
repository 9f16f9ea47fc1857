/* The same calls typed as bsp.h types them (MulticoreBSP for C 2): compiles
 * without a warning, null pointers included, and the functions stay
 * reachable by address and through parenthesised names. */
#include <bsp.h>
#include <stddef.h>

bsp_size_t bspram_sized_program(void);
bsp_size_t bspram_sized_program(void)
{
    bsp_size_t tagsize = 4, bytes, status;
    bsp_nprocs_t packets;
    int tag = 0;
    bsp_set_tagsize(&tagsize);
    bsp_qsize(&packets, &bytes);
    bsp_qsize(NULL, &bytes);
    bsp_qsize(&packets, NULL);
    bsp_qsize(0, 0);
    bsp_get_tag(&status, &tag);
    bsp_get_tag(&status, NULL);
    void (*set)(bsp_size_t *) = &bsp_set_tagsize;
    void (*qsize)(bsp_nprocs_t *, bsp_size_t *) = bsp_qsize;
    void (*get_tag)(bsp_size_t *, void *) = bsp_get_tag;
    set(&tagsize);
    qsize(&packets, &bytes);
    get_tag(&status, &tag);
    (bsp_set_tagsize)(&tagsize);
    (bsp_qsize)(&packets, &bytes);
    (bsp_get_tag)(&status, &tag);
    return tagsize + packets + bytes + status;
}
