/* An int-typed BSPlib program of the 1998 standard, as it was written: with
 * -DBSPRAM_BSPLIB_INT it compiles cleanly; without, it must not compile. */
#include <bsp.h>

int bspram_int_program(void);
int bspram_int_program(void)
{
    int tagsize = 4, packets, bytes, status, tag = 0;
    bsp_set_tagsize(&tagsize);
    bsp_qsize(&packets, &bytes);
    bsp_get_tag(&status, &tag);
    return tagsize + packets + bytes + status;
}
