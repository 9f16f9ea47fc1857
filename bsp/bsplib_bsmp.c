/* BSPlib BSMP: bulk synchronous message passing (BSPlib 1998, §2.4).
 *
 * A send is one router message: the kind word, the tag padded to 8 bytes,
 * the payload (bsplib_internal.h). The router's payloads are 8-byte aligned,
 * so tags and payloads handed out by bsp_hpmove are too. The queue itself is
 * built at the sync (bsplib_sync.c) and read here front to back.
 */
#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "bsp/bsplib_internal.h"

void bsp_set_tagsize(bsp_size_t *tag_bytes)
{
    bsplib_proc *me = bsplib_me("bsp_set_tagsize");
    if (!tag_bytes)
        bspram__bsp_bsplib_fatal(me, "bsp_set_tagsize(tag_bytes=NULL): tag_bytes must point to the new size");
    size_t next = *tag_bytes;
    if (next > BSPLIB_MAX_BYTES)
        bspram__bsp_bsplib_fatal(me, "bsp_set_tagsize(*tag_bytes=%zu): the tag size must be at most %zu "
                     "bytes (a negative int size?)", next, (size_t)BSPLIB_MAX_BYTES);
    *tag_bytes = me->tagsize;
    me->tagsize_next = next;
    me->tagsize_changed = 1;
}

static void send_message(const char *call, bsp_pid_t pid, const void *tag, const void *payload,
                 bsp_size_t nbytes)
{
    bsplib_proc *me = bsplib_me(call);
    if (pid >= me->p)
        bspram__bsp_bsplib_fatal(me, "%s(pid=%u, tag=%p, payload=%p, nbytes=%zu): pid outside [0, %u)", call,
                     pid, tag, payload, nbytes, me->p);
    if (!tag && me->tagsize)
        bspram__bsp_bsplib_fatal(me, "%s(pid=%u, tag=NULL, payload=%p, nbytes=%zu): tag is NULL but the tag "
                     "size is %zu", call, pid, payload, nbytes, me->tagsize);
    if (!payload && nbytes)
        bspram__bsp_bsplib_fatal(me, "%s(pid=%u, tag=%p, payload=NULL, nbytes=%zu): payload is NULL", call,
                     pid, tag, nbytes);
    if (nbytes > BSPLIB_MAX_BYTES) /* 8 + tag + nbytes must not wrap around */
        bspram__bsp_bsplib_fatal(me, "%s(pid=%u, tag=%p, payload=%p, nbytes=%zu): nbytes is too large (at "
                     "most %zu bytes; a negative int size?)", call, pid, tag, payload, nbytes,
                     (size_t)BSPLIB_MAX_BYTES);
    bsplib_encode_send(bspram_send_buffer(me->self, pid, bsplib_send_len(me->tagsize, nbytes)), tag,
                       me->tagsize, payload, nbytes);
}

void bsp_send(bsp_pid_t pid, const void *tag, const void *payload, bsp_size_t nbytes)
{
    send_message("bsp_send", pid, tag, payload, nbytes);
}

void bsp_hpsend(bsp_pid_t pid, const void *tag, const void *payload, bsp_size_t nbytes)
{
    send_message("bsp_hpsend", pid, tag, payload, nbytes);
}

void bsp_qsize(bsp_nprocs_t *packets, bsp_size_t *accumulated_size)
{
    const bsplib_proc *me = bsplib_me("bsp_qsize");
    if (packets)
        *packets = (bsp_nprocs_t)(me->qlen - me->qpos);
    if (accumulated_size)
        *accumulated_size = me->qbytes;
}

void bsp_get_tag(bsp_size_t *status, void *tag)
{
    const bsplib_proc *me = bsplib_me("bsp_get_tag");
    if (!status)
        bspram__bsp_bsplib_fatal(me, "bsp_get_tag(status=NULL, tag=%p): status must not be NULL", tag);
    if (me->qpos == me->qlen) {
        *status = (bsp_size_t)-1;
        return;
    }
    const bsplib_qentry *e = &me->queue[me->qpos];
    if (me->queue_tagsize) {
        if (!tag)
            bspram__bsp_bsplib_fatal(me, "bsp_get_tag(status=%p, tag=NULL): tag is NULL but the tag size is "
                         "%zu", (void *)status, me->queue_tagsize);
        memcpy(tag, e->tag, me->queue_tagsize);
    }
    *status = e->len;
}

void bsp_move(void *payload, bsp_size_t max_copy_size)
{
    bsplib_proc *me = bsplib_me("bsp_move");
    if (me->qpos == me->qlen)
        bspram__bsp_bsplib_fatal(me, "bsp_move(payload=%p, max_copy_size=%zu): the message queue is empty "
                     "(check bsp_qsize or bsp_get_tag first)", payload, max_copy_size);
    const bsplib_qentry *e = &me->queue[me->qpos];
    size_t n = e->len < max_copy_size ? e->len : max_copy_size;
    if (n && !payload)
        bspram__bsp_bsplib_fatal(me, "bsp_move(payload=NULL, max_copy_size=%zu): payload is NULL",
                     max_copy_size);
    if (n)
        memcpy(payload, e->payload, n);
    me->qbytes -= e->len;
    me->qpos++;
}

bsp_size_t bsp_hpmove(void **tag_ptr, void **payload_ptr)
{
    bsplib_proc *me = bsplib_me("bsp_hpmove");
    if (!tag_ptr)
        bspram__bsp_bsplib_fatal(me, "bsp_hpmove(tag_ptr=NULL, payload_ptr=%p): tag_ptr must not be NULL",
                     (void *)payload_ptr);
    if (!payload_ptr)
        bspram__bsp_bsplib_fatal(me, "bsp_hpmove(tag_ptr=%p, payload_ptr=NULL): payload_ptr must not be NULL",
                     (void *)tag_ptr);
    if (me->qpos == me->qlen)
        return (bsp_size_t)-1;
    const bsplib_qentry *e = &me->queue[me->qpos++];
    me->qbytes -= e->len;
    /* The router's memory is this process's own received copy: handing it
     * out writable is what BSPlib's void ** asks for. */
    *tag_ptr = (void *)(uintptr_t)e->tag;
    *payload_ptr = (void *)(uintptr_t)e->payload;
    return e->len;
}
