/* The int-typed API of the 1998 BSPlib standard (bsp.h, BSPRAM_BSPLIB_INT).
 *
 * An int-typed program compiled against bsp_size_t signatures hands int *
 * where the library stores a size_t: 8 bytes into 4. These twins take the
 * standard's ints, so the program's own variables are only ever written as
 * ints. Each one checks what an int can carry and a size_t cannot — a
 * negative value, which would otherwise become a huge size and fail later
 * with a misleading message, or not at all — then calls the bsp_size_t
 * function, which checks and reports everything else under the same
 * standard name. Results travel back through locals and must fit in an int.
 */
#include <limits.h>
#include <stddef.h>

#include "bsp/bsplib_internal.h"

/* The first of up to three named values that is negative, or NULL. */
static const char *negative(const char *a, int va, const char *b, int vb, const char *c, int vc)
{
    if (a && va < 0)
        return a;
    if (b && vb < 0)
        return b;
    if (c && vc < 0)
        return c;
    return NULL;
}

/* A count or size the library returns, as the int the program asked for. */
static int to_int(const bsplib_proc *me, const char *call, const char *what, size_t v)
{
    if (v > (size_t)INT_MAX)
        bspram__bsp_bsplib_fatal(me, "%s: %s is %zu, which does not fit in an int (the int-typed API, "
                     "BSPRAM_BSPLIB_INT)", call, what, v);
    return (int)v;
}

void bspram_bsplib_int_begin(int P)
{
    if (P < 0)
        bspram__bsp_bsplib_fatal(bspram__bsp_bsplib_current, "bsp_begin(P=%d): P is negative", P);
    bsp_begin((bsp_pid_t)P);
}

int bspram_bsplib_int_nprocs(void) { return (int)bsp_nprocs(); } /* ≤ 65536, or the cores */

int bspram_bsplib_int_pid(void) { return (int)bsp_pid(); }

void bspram_bsplib_int_push_reg(const void *address, int size)
{
    bsplib_proc *me = bsplib_me("bsp_push_reg");
    if (size < 0)
        bspram__bsp_bsplib_fatal(me, "bsp_push_reg(address=%p, size=%d): size is negative", address, size);
    bsp_push_reg(address, (bsp_size_t)size);
}

/* bsp_put and bsp_hpput share one shape of check. */
static void check_put(const char *call, int pid, const void *src, const void *dst, int offset,
                      int nbytes)
{
    bsplib_proc *me = bsplib_me(call);
    const char *bad = negative("pid", pid, "offset", offset, "nbytes", nbytes);
    if (bad)
        bspram__bsp_bsplib_fatal(me, "%s(pid=%d, src=%p, dst=%p, offset=%d, nbytes=%d): %s is negative", call,
                     pid, src, dst, offset, nbytes, bad);
}

void bspram_bsplib_int_put(int pid, const void *src, void *dst, int offset, int nbytes)
{
    check_put("bsp_put", pid, src, dst, offset, nbytes);
    bsp_put((bsp_pid_t)pid, src, dst, (bsp_size_t)offset, (bsp_size_t)nbytes);
}

void bspram_bsplib_int_hpput(int pid, const void *src, void *dst, int offset, int nbytes)
{
    check_put("bsp_hpput", pid, src, dst, offset, nbytes);
    bsp_hpput((bsp_pid_t)pid, src, dst, (bsp_size_t)offset, (bsp_size_t)nbytes);
}

static void check_get(const char *call, int pid, const void *src, int offset, const void *dst,
                      int nbytes)
{
    bsplib_proc *me = bsplib_me(call);
    const char *bad = negative("pid", pid, "offset", offset, "nbytes", nbytes);
    if (bad)
        bspram__bsp_bsplib_fatal(me, "%s(pid=%d, src=%p, offset=%d, dst=%p, nbytes=%d): %s is negative", call,
                     pid, src, offset, dst, nbytes, bad);
}

void bspram_bsplib_int_get(int pid, const void *src, int offset, void *dst, int nbytes)
{
    check_get("bsp_get", pid, src, offset, dst, nbytes);
    bsp_get((bsp_pid_t)pid, src, (bsp_size_t)offset, dst, (bsp_size_t)nbytes);
}

void bspram_bsplib_int_hpget(int pid, const void *src, int offset, void *dst, int nbytes)
{
    check_get("bsp_hpget", pid, src, offset, dst, nbytes);
    bsp_hpget((bsp_pid_t)pid, src, (bsp_size_t)offset, dst, (bsp_size_t)nbytes);
}

void bspram_bsplib_int_set_tagsize(int *tag_bytes)
{
    bsplib_proc *me = bsplib_me("bsp_set_tagsize");
    if (!tag_bytes) {
        bsp_set_tagsize(NULL); /* its error, under the same name */
        return;
    }
    if (*tag_bytes < 0)
        bspram__bsp_bsplib_fatal(me, "bsp_set_tagsize(*tag_bytes=%d): the tag size is negative", *tag_bytes);
    bsp_size_t size = (bsp_size_t)*tag_bytes;
    bsp_set_tagsize(&size);
    *tag_bytes = to_int(me, "bsp_set_tagsize", "the tag size in force", size);
}

static void check_send(const char *call, int pid, const void *tag, const void *payload, int nbytes)
{
    bsplib_proc *me = bsplib_me(call);
    const char *bad = negative("pid", pid, "nbytes", nbytes, NULL, 0);
    if (bad)
        bspram__bsp_bsplib_fatal(me, "%s(pid=%d, tag=%p, payload=%p, nbytes=%d): %s is negative", call, pid,
                     tag, payload, nbytes, bad);
}

void bspram_bsplib_int_send(int pid, const void *tag, const void *payload, int nbytes)
{
    check_send("bsp_send", pid, tag, payload, nbytes);
    bsp_send((bsp_pid_t)pid, tag, payload, (bsp_size_t)nbytes);
}

void bspram_bsplib_int_hpsend(int pid, const void *tag, const void *payload, int nbytes)
{
    check_send("bsp_hpsend", pid, tag, payload, nbytes);
    bsp_hpsend((bsp_pid_t)pid, tag, payload, (bsp_size_t)nbytes);
}

void bspram_bsplib_int_qsize(int *packets, int *accumulated_size)
{
    const bsplib_proc *me = bsplib_me("bsp_qsize");
    bsp_nprocs_t n;
    bsp_size_t bytes;
    bsp_qsize(&n, &bytes);
    if (packets)
        *packets = to_int(me, "bsp_qsize", "the number of messages", n);
    if (accumulated_size)
        *accumulated_size = to_int(me, "bsp_qsize", "the accumulated payload size", bytes);
}

void bspram_bsplib_int_get_tag(int *status, void *tag)
{
    const bsplib_proc *me = bsplib_me("bsp_get_tag");
    if (!status) {
        bsp_get_tag(NULL, tag); /* its error, under the same name */
        return;
    }
    bsp_size_t s;
    bsp_get_tag(&s, tag);
    *status = s == (bsp_size_t)-1 ? -1 : to_int(me, "bsp_get_tag", "the payload size", s);
}

void bspram_bsplib_int_move(void *payload, int max_copy_size)
{
    bsplib_proc *me = bsplib_me("bsp_move");
    if (max_copy_size < 0)
        bspram__bsp_bsplib_fatal(me, "bsp_move(payload=%p, max_copy_size=%d): max_copy_size is negative",
                     payload, max_copy_size);
    bsp_move(payload, (bsp_size_t)max_copy_size);
}

int bspram_bsplib_int_hpmove(void **tag_ptr, void **payload_ptr)
{
    const bsplib_proc *me = bsplib_me("bsp_hpmove");
    bsp_size_t n = bsp_hpmove(tag_ptr, payload_ptr);
    return n == (bsp_size_t)-1 ? -1 : to_int(me, "bsp_hpmove", "the payload size", n);
}
