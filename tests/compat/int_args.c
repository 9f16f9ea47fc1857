/* One int * at a time, where bsp.h's default (bsp_size_t) mode stores more
 * than an int holds; CASE selects which. Must not compile. */
#include <bsp.h>
#include <stddef.h>

void bspram_int_args(void);
void bspram_int_args(void)
{
    int i = 0;
    size_t z = 0;
    unsigned u = 0;
    (void)z;
    (void)u;
    (void)i;
#if CASE == 1
    bsp_set_tagsize(&i);
#elif CASE == 2
    bsp_qsize(&i, &z);
#elif CASE == 3
    bsp_qsize(&u, &i);
#elif CASE == 4
    bsp_get_tag(&i, NULL);
#endif
}
