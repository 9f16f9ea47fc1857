/* Errors of the int-typed API (-DBSPRAM_BSPLIB_INT): a negative P, pid,
 * size, offset or nbytes is one line naming the standard call, its
 * arguments, superstep and pid, and exit status 1 — not a huge size_t that
 * fails later with a misleading message. */
#define BSPRAM_BSPLIB_INT
#include <bsp.h>

#include "bsplib_death.h"

enum { PUT, HPPUT, GET, HPGET, SEND, PUT_PID, PUSH_REG, SET_TAGSIZE, MOVE, GET_OFFSET, NCASES };

static void spmd(void)
{
    bsp_begin(4);
    int x = 0;
    bsp_push_reg(&x, (int)sizeof x);
    bsp_sync();
    bsp_send(bsp_pid(), NULL, &x, (int)sizeof x);
    bsp_sync();
    bsp_sync();
    if (bsp_pid() == 2) {
        switch (which) {
        case PUT: bsp_put(1, &x, &x, 0, -4); break;
        case HPPUT: bsp_hpput(1, &x, &x, 0, -4); break;
        case GET: bsp_get(3, &x, 0, &x, -1); break;
        case HPGET: bsp_hpget(3, &x, -8, &x, 4); break;
        case SEND: bsp_send(-1, NULL, &x, 4); break;
        case PUT_PID: bsp_put(-3, &x, &x, -1, -1); break; /* the first negative is named */
        case PUSH_REG: bsp_push_reg(&x, -16); break;
        case SET_TAGSIZE: {
            int t = -2;
            bsp_set_tagsize(&t);
            break;
        }
        case MOVE: bsp_move(&x, -1); break;
        case GET_OFFSET: bsp_get(0, &x, -4, &x, 4); break;
        }
    }
    bsp_sync();
    bsp_end();
}

static void begin_negative(void *arg)
{
    (void)arg;
    bsp_begin(-2);
}

int main(void)
{
    int k[NCASES];
    for (int i = 0; i < NCASES; i++)
        k[i] = i;
    check_death("put nbytes", bsplib_death_run, &k[PUT], "bspram: bsp_put(pid=1, src=0x", 1, 20);
    check_death("put nbytes line", bsplib_death_run, &k[PUT],
                "offset=0, nbytes=-4): nbytes is negative (superstep 3, pid 2)\n", 1, 20);
    check_death("hpput nbytes", bsplib_death_run, &k[HPPUT],
                "offset=0, nbytes=-4): nbytes is negative (superstep 3, pid 2)\n", 1, 20);
    check_death("hpput name", bsplib_death_run, &k[HPPUT], "bspram: bsp_hpput(pid=1, src=", 1, 20);
    check_death("get nbytes", bsplib_death_run, &k[GET], "bspram: bsp_get(pid=3, src=0x", 1, 20);
    check_death("get nbytes line", bsplib_death_run, &k[GET],
                "nbytes=-1): nbytes is negative (superstep 3, pid 2)\n", 1, 20);
    check_death("hpget offset", bsplib_death_run, &k[HPGET],
                "nbytes=4): offset is negative (superstep 3, pid 2)\n", 1, 20);
    check_death("hpget offset value", bsplib_death_run, &k[HPGET], ", offset=-8, dst=0x", 1, 20);
    check_death("get offset", bsplib_death_run, &k[GET_OFFSET],
                "bsp_get(pid=0, src=0x", 1, 20);
    check_death("get offset line", bsplib_death_run, &k[GET_OFFSET],
                ", offset=-4, dst=0x", 1, 20);
    check_death("send pid", bsplib_death_run, &k[SEND], "bspram: bsp_send(pid=-1, tag=(nil), payload=0x", 1, 20);
    check_death("send pid line", bsplib_death_run, &k[SEND],
                "nbytes=4): pid is negative (superstep 3, pid 2)\n", 1, 20);
    check_death("put pid first", bsplib_death_run, &k[PUT_PID],
                "offset=-1, nbytes=-1): pid is negative (superstep 3, pid 2)\n", 1, 20);
    check_death("push_reg size", bsplib_death_run, &k[PUSH_REG],
                ", size=-16): size is negative (superstep 3, pid 2)\n", 1, 20);
    check_death("set_tagsize", bsplib_death_run, &k[SET_TAGSIZE],
                "bspram: bsp_set_tagsize(*tag_bytes=-2): the tag size is negative (superstep 3, pid 2)\n",
                1, 20);
    check_death("move", bsplib_death_run, &k[MOVE],
                ", max_copy_size=-1): max_copy_size is negative (superstep 3, pid 2)\n", 1, 20);
    check_death("begin P", begin_negative, NULL, "bspram: bsp_begin(P=-2): P is negative\n", 1, 20);
    return check_report("test_bsplib_err_compat");
}
