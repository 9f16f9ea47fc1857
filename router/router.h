/* bspram — the router: one superstep's exchange among p components.
 *
 * Valiant §2's "simple router": in a superstep every component hands the
 * router any number of messages (destination, payload of any size, 0 bytes
 * included); the exchange delivers them all, and the superstep is charged
 * max(q, r) where q is the most messages sent by one component and r the most
 * received by one. The router also records the BSP byte h-relation, the
 * largest message and wall time (records.h).
 *
 * Threads and lanes. The router is driven by a team of L threads, one per
 * *lane*. Lane l serves the contiguous block of components
 *     [first(l), first(l+1)),  first(l) = floor(l·p / L),
 * posting their messages in non-decreasing order of source and taking part in
 * every exchange. (The bulk machine runs many components per lane; BSPlib runs
 * one process per lane.)
 *
 * Inbox order is defined: by source component, then by order of issue
 * (docs/architecture.md, "Deterministic"), whatever L is.
 *
 * Delivery (shared-memory transport): posting appends the message to the
 * lane's outbox for its destination; at the exchange, the lane serving a
 * destination counts that destination's messages and bytes in the outboxes,
 * and when the inbox is first read its headers are written from the
 * outboxes, lane by lane. No locks; a payload is written once, by the
 * poster, and receivers read it in the sender lane's storage. For 8
 * supersteps after one in which a lane posted more than its share of the
 * last-level cache (half the cache over the lanes; p ≤ 8192), the lane posts
 * through a 256-byte write-combining window per destination, copied to the
 * storage a cache line at a time with non-temporal stores — the partitioning
 * technique of radix sorts and hash joins (Polychroniou and Ross, SIGMOD
 * 2014), which spares every scattered post the read of the line it opens.
 * Storage is double-buffered by superstep parity, so a payload stays valid
 * through the receiving component's next superstep, until it enters the next
 * exchange — or until its receiver releases its inbox, read for good
 * (bspram__router_inbox_release): the storage then goes at once back to
 * its senders' free chunks, which their next posts fill, so a superstep
 * that reads one phase and posts the next holds about one phase. A chunk
 * always returns to the lane that carved it, and free chunks are kept in
 * size classes (four an octave): the same supersteps repeated take no new
 * storage.
 *
 * Cost of an exchange: one barrier, plus O(block × senders) work by each
 * lane for its own block, where senders are the lanes that posted to the
 * block (O(1) when nothing was posted), plus O(messages) for the inboxes
 * read. With one component per lane and at most 16 lanes (BSPlib's
 * processes), on shared memory, an outbox of one chunk of at most 992 bytes
 * is copied at the exchange into a slot its receiver reads (one or a few
 * cache lines crossing between cores instead of the sender's bookkeeping
 * and chunk), and each lane looks at its L slots: O(L) more.
 *
 * Memory: per component, 136·L bytes of outbox bookkeeping (64 bytes of
 * header and 4 of last time's size per lane and superstep parity; the pages
 * of destinations never posted to are never touched) and 16 bytes of inbox
 * bookkeeping; per message, 8 bytes of header plus its payload rounded up to
 * 8, in the sender's storage, and a 24-byte inbox entry at the receiver if
 * its inbox is read as messages (read as runs, one inbox's runs at a time); per
 * lane, 1 KiB of open runs (bspram__router_append), and with at most 16
 * lanes of one component each, 2·L KiB of mail slots; per
 * lane that posts heavily, 256·p bytes of windows. At p = 2^24 on L = 2 lanes
 * with one message per component that is about 370 bytes per component
 * (6.2 GB in all).
 *
 * NULL: a router, and every buffer or out-parameter a call reads or writes,
 * must not be NULL; NULL is refused in one line naming the call and the
 * argument ("bspram__router_exchange(r=NULL): r must not be NULL"), exit
 * status 1 (base/error.h, docs/limits.md). NULL is allowed where a function
 * says so: bspram__router_destroy(NULL) does nothing, a NULL transport or
 * label is the default, a buffer of 0 bytes may be NULL, and the lanes of
 * bspram__router_gather other than the process's first pass all = NULL.
 */
#ifndef BSPRAM_ROUTER_ROUTER_H
#define BSPRAM_ROUTER_ROUTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/api.h"
#include "router/message.h"
#include "router/records.h"


/* Empty a log or a pattern, keeping its storage (the router clears its own
 * between runs; records.h builds and frees them). */
void bspram__router_log_clear(bspram_log *log);
void bspram__router_pattern_clear(bspram_pattern *pat);

typedef struct bspram_router bspram_router;

/* A router for p components (1 ≤ p ≤ BSPRAM_MAX_COMPONENTS) served by
 * `lanes` threads (1 ≤ lanes). Lanes may outnumber components (lanes with an
 * empty block only take part in exchanges). Errors are fatal:
 * "internal error: a router of p = 0 components on 2 lanes; p must be in
 * [1, 4294967295]" (the machine checks p first, in a line of its own). */
bspram_router *bspram__router_create(uint64_t p, unsigned lanes);

/* The same on a named transport: "shm" (shared memory, the default) or
 * "staged" (a testing transport that copies every payload through staging
 * buffers and shares no addresses between lanes). bspram__router_create uses
 * BSPRAM_TRANSPORT from the environment (docs/environment.md), else "shm",
 * and so does this one for a NULL or empty name. Error (fatal): an unknown
 * name. */
bspram_router *bspram__router_create_on(uint64_t p, unsigned lanes, const char *transport);

/* Whether receivers may use senders' virtual addresses (true for "shm"):
 * only then may a message carry an address in the receiver's memory or a
 * reference to the sender's (bspram__router_post_counted); bspram__router_read
 * works either way. */
bool bspram__router_shares_memory(const bspram_router *r);

/* One-sided read of n bytes at `remote` in the memory of the lane
 * `from_lane` into `local` (the caller's), now, through the transport (what
 * bsp_direct_get needs). The caller makes sure the remote bytes are not being
 * written meanwhile. Error (fatal): a transport that cannot read remotely. */
void bspram__router_read(bspram_router *r, unsigned lane, unsigned from_lane, const void *remote,
                        void *local, size_t n);

/* Host collectives, for the layers' serial steps between teams (the team
 * stopped; every process of the job calls them alike, in the same order).
 * On one process they do nothing (merge) or copy (concat); over MPI they
 * combine what each rank holds — its components' cells and answers.
 *   bspram__router_spread   whether the router's transport spans several
 *                          processes (MPI with more than one rank: then alike
 *                          on every rank, even one that runs every lane);
 *   bspram__router_merge    words[i] ← the sum (BSPRAM_MERGE_SUM) or bitwise
 *                          OR (BSPRAM_MERGE_OR) of every process's words[i];
 *                          cost O(n) words, over MPI one MPI_Allreduce;
 *   bspram__router_concat   every process's `bytes` bytes at `mine`, in rank
 *                          order, in a new buffer (free it) of *total bytes;
 *                          over MPI an MPI_Allgatherv.
 * Errors (fatal, printed by rank 0): some rank without lanes (a router of
 * fewer lanes than MPI ranks; bspram_machine_create makes none: it runs a
 * machine of fewer components than ranks whole on every rank). */
typedef enum bspram_merge_op { BSPRAM_MERGE_SUM, BSPRAM_MERGE_OR } bspram_merge_op;
bool bspram__router_spread(const bspram_router *r);
void bspram__router_merge(bspram_router *r, uint64_t *words, size_t n, bspram_merge_op op);
void *bspram__router_concat(bspram_router *r, const void *mine, size_t bytes, size_t *total);

/* Whether bspram__router_read works on this router's transport (not on MPI). */
bool bspram__router_can_read(const bspram_router *r);
void bspram__router_destroy(bspram_router *r);

uint64_t bspram__router_p(const bspram_router *r);
unsigned bspram__router_lanes(const bspram_router *r);
uint64_t bspram__router_lane_first(const bspram_router *r, unsigned lane);
unsigned bspram__router_lane_of(const bspram_router *r, uint64_t component);

/* The lanes this process runs, [*lo, *hi): all of them, except on the MPI
 * transport, which gives each rank a block (maybe empty). Lane *lo appends
 * the records and owns the label, on every process alike. */
void bspram__router_local_lanes(const bspram_router *r, unsigned *lo, unsigned *hi);

/* Collective over all lanes, outside the records (no exchange): every lane
 * brings n bytes at `mine` (the same n on every lane); the process's first
 * lane receives every lane's bytes, lane by lane, in `all` (lanes × n bytes);
 * the other lanes pass all = NULL. For the rare agreements of the layers
 * above (BSPlib's registrations). Cost: two barriers, and over MPI an
 * MPI_Allgatherv of lanes × n bytes. Error (fatal): lanes × n ≥ 2^31. */
void bspram__router_gather(bspram_router *r, unsigned lane, const void *mine, size_t n, void *all);

/* Post a message of len bytes from src to dst in the current superstep and
 * return where its payload must be written (len bytes; may be NULL when
 * len = 0), before the lane posts again or enters the exchange: in heavy
 * supersteps the place is a write-combining window that the next post to
 * dst may move to memory. Only the thread of `lane` may call it; src must
 * belong to that lane and be ≥ every src posted before it in this superstep.
 * Errors (fatal, naming `call` and the values): dst ∉ [0, p); len above
 * BSPRAM_MAX_MESSAGE; src not in the lane or decreasing. Cost: O(1) amortised; the payload memory grows, never drops. */
void *bspram__router_post(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst,
                         uint64_t len, const char *call);

/* bspram__router_post for a message that stands for `counted` ≥ len bytes:
 * it stores len bytes (say, a reference to data the receiver will copy from
 * the sender's memory) but the records — bytes, h, largest message — count
 * `counted`, the bytes the transfer really moves. counted − len must fit in
 * 32 bits (else fatal). The layer above is responsible for the referenced
 * data staying valid until the receiver has used it. */
void *bspram__router_post_counted(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst,
                                 uint64_t len, uint64_t counted, const char *call);

/* The record channel: room for `count` records of `size` bytes each from src
 * to dst in the current superstep, in one run (DPDK's bulk enqueue of
 * fixed-size elements, LPF's declared capacity): returns where the
 * count·size bytes go, record after record. The records count the run as
 * count messages of size bytes (messages, bytes, q and r, the byte
 * h-relation, the largest message): exactly what count posts of size bytes
 * would record; the receiver finds them as count messages in its inbox, in
 * their order, or as one run (bspram__router_inbox_runs). Only a run's header
 * is stored beside the records (8 bytes a run; 16 from 2^24 records on),
 * none per record.
 * The room is in the lane's storage, never in a write-combining window, so
 * that a lane may reserve runs for many destinations and then fill them in
 * any order; it must be written before the exchange, and before the lane's
 * next bspram__router_post to the same dst (which may open a window over
 * the run's last line). The lane and source rules are bspram__router_post's.
 * Errors (fatal, naming `call` and the values): dst ∉ [0, p); size not a
 * multiple of 8 in [8, 512], or count ∉ [1, 2^53]; src not in the lane
 * or decreasing. Cost: O(1) amortised, no per-record work; a reservation to
 * the outbox last posted to by the same source costs a few instructions. */
void *bspram__router_reserve(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                             uint64_t count, const char *call);

/* bspram__router_reserve for many destinations at once, the step between
 * the two passes of a partition: a run of count[dst[i]] records of `size`
 * bytes from src to each dst[i] (i < n; the dst[i] distinct, each count ≥ 1),
 * its room returned in cursor[dst[i]]; count[dst[i]] is set to 0, so a
 * caller's table of counts by destination is ready for its next use. count
 * and cursor are indexed by destination (p entries). Semantics, records and
 * errors as bspram__router_reserve, for each run. Cost: O(n), a few
 * instructions per destination, the source's statistics updated once. */
void bspram__router_reserve_runs(bspram_router *r, unsigned lane, uint64_t src, uint32_t size, size_t n,
                                 const uint32_t *dst, uint32_t *count, char **cursor, const char *call);

/* The record channel one record at a time: room for one record of `size`
 * bytes from src to dst (the same records, inbox and errors as
 * bspram__router_reserve of count 1). The record joins the run the lane
 * last appended to dst in this superstep while nothing else was written to
 * dst since (no post, reserve or other source) and the run has room in its
 * chunk; otherwise it begins a run. So a lane's records to one destination,
 * appended one by one and interleaved with records to other destinations in
 * any order, travel as one run: 8 bytes of header per run where a post of
 * each would store 8 a record (for destinations that share a slot, dst mod
 * 64, only the last one's run stays open). What the receiver sees is the
 * same messages, in the same order, as size-byte posts would give. The room
 * must be written before the lane's next post to dst (as for a reserve).
 * Cost: O(1), a post's work less its header: a few instructions to check
 * the open run and count the record. */
void *bspram__router_append(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                            const char *call);

/* bspram__router_post + copy of len bytes from data. data may be NULL only if
 * len = 0 (else fatal, naming `call`). */
void bspram__router_send(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst,
                        const void *data, uint64_t len, const char *call);

/* Whether lane has posted a message in the current superstep. */
bool bspram__router_lane_posted(const bspram_router *r, unsigned lane);

/* Component src (of this lane) declares w units of local work this superstep;
 * the record's `work` is the max over components of their sums. */
void bspram__router_work(bspram_router *r, unsigned lane, uint64_t src, uint64_t w);

/* Bits of the exchange tag reserved by the router; callers use the others
 * (bits 0..27). BSPRAM_TAG_LEAVE is what bspram__router_leave contributes. */
#define BSPRAM_TAG_ROUTER_MASK 0xF0000000u
#define BSPRAM_TAG_LEAVE 0x40000000u

/* The exchange: collective over all L lanes (every lane's thread must call
 * it, each with its own lane). Delivers every message posted since the last
 * exchange, appends one record to the log (labelled with the current label),
 * and returns the OR of the callers' tags (tag & BSPRAM_TAG_ROUTER_MASK must
 * be 0; the result has BSPRAM_TAG_LEAVE if a lane left instead, see below). On return every inbox holds its new messages.
 * Cost: see the top of this file. */
unsigned bspram__router_exchange(bspram_router *r, unsigned lane, unsigned tag);

/* A barrier of the lane team with tag OR, without an exchange (collective;
 * `lane` is the caller's lane). Meeting a lane that left (bspram__router_leave)
 * is fatal: "a barrier: lane 1 is in a barrier (superstep 4) while another
 * lane's program has ended; …". */
unsigned bspram__router_barrier(bspram_router *r, unsigned lane, unsigned tag);

/* A lane whose program has ended says so: a barrier with tag
 * BSPRAM_TAG_LEAVE, which also completes the last record (so a team that
 * ends with every lane leaving needs no bspram__router_flush). Lanes that meet it in bspram__router_exchange see
 * BSPRAM_TAG_LEAVE in the returned OR; the exchange then delivers nothing and
 * appends no record, so nobody waits for the lane that left — the caller
 * reports the mismatch (bspram__router_barrier reports it itself). Returns the
 * OR of the tags. */
unsigned bspram__router_leave(bspram_router *r, unsigned lane);

/* Complete the last record now (collective, one barrier): afterwards lane 0
 * may read the whole log while the team goes on running. */
void bspram__router_complete(bspram_router *r, unsigned lane);

/* The messages delivered to component `dst` by the last exchange, in order
 * (source, issue). `lane` must be the lane that serves dst (fatal otherwise:
 * a lane holds only its own block's inboxes); callable between exchanges by
 * that lane's thread, or by any thread once the team has stopped.
 * Returns the count and sets *msgs (NULL when the count is 0). */
size_t bspram__router_inbox(const bspram_router *r, unsigned lane, uint64_t dst,
                           const bspram_message **msgs);

/* A run of an inbox: count messages of size bytes each from src, one after
 * another at data (count·size bytes). A message posted alone is a run of one
 * (size its length, which may then be any number of bytes). */
typedef struct bspram__run {
    const void *data;
    uint64_t count;
    uint32_t src;
    uint32_t size;
} bspram__run;

/* The messages of bspram__router_inbox as runs, in the same order: the
 * runs of the record channel whole, and runs of one for the rest (on a
 * transport that does not share memory, or from a held inbox, consecutive
 * messages of one source and one size that lie one after another are one
 * run). The receiver of a record channel reads count·size bytes per run,
 * with no per-message descriptor. Valid until the lane's next call for
 * another component, or its next exchange. Preconditions and errors as
 * bspram__router_inbox. Cost: O(runs) the first time, O(1) after (shm);
 * O(messages) on the other transports. */
size_t bspram__router_inbox_runs(const bspram_router *r, unsigned lane, uint64_t dst, const bspram__run **runs);

/* Component dst's inbox will not be read again before the next exchange:
 * on the shm transport its messages' storage (the senders' chunks for dst)
 * goes back to the senders' free chunks at once — lane's own directly,
 * another lane's through that lane's returned chain, which it takes when
 * its free chunks run short — so that what the senders post next in this
 * superstep is written there: a phase's records read give their room to
 * the records posted, and a superstep holds about one phase's messages,
 * not two. Nothing on the other transports, and nothing when the last
 * exchange delivered nothing. Preconditions: lane serves dst; no pointer
 * from its inbox (messages or runs) is used afterwards. Errors: reading the
 * inbox again before the next exchange is fatal ("internal error: …").
 * Cost: O(chunks of the inbox). */
void bspram__router_inbox_release(bspram_router *r, unsigned lane, uint64_t dst);

/* Messages msgs[0..k) as runs (consecutive ones of one source and size that
 * lie one after another are one run), in lane's run storage (valid until its
 * next call or exchange): for inboxes the router did not deliver itself (a
 * machine's held inboxes). Returns the number of runs. */
size_t bspram__router_runs_of(const bspram_router *r, unsigned lane, const bspram_message *msgs, size_t k,
                              const bspram__run **runs);

/* The label of records appended from now on (truncated to BSPRAM_LABEL_LEN-1;
 * NULL is the empty label).
 * Call it from one thread, between exchanges, when no other lane is exchanging
 * (e.g. before the team starts, or from lane 0 just before the exchange if all
 * lanes agree on the label). */
void bspram__router_set_label(bspram_router *r, const char *label);
const char *bspram__router_label(const bspram_router *r);

/* Restart the clock of the `seconds` field (call when a team starts, so the
 * first superstep's time excludes what happened before). */
void bspram__router_start_clock(bspram_router *r);

/* Complete the last record. Records are completed lazily (the receive side
 * of an exchange — r and the byte h-relation — is reduced with the next
 * exchange or the lanes' bspram__router_leave, saving a barrier); for a team
 * that stopped without leaving, call this before reading the log: it folds
 * the receive side from this process's lanes. Idempotent. */
void bspram__router_flush(bspram_router *r);

/* The log (flush first). */
const bspram_log *bspram__router_log(const bspram_router *r);
/* The message pattern (router/records.h, bspram_flow): while on, every
 * exchange also keeps, per pair of components, its messages, bytes and
 * largest message — index-aligned with the log, cleared with it. Call
 * between exchanges (outside a team, or by lane 0 between two barriers of
 * the team). Cost while on: one pass over the superstep's message headers
 * and a sort of its pairs, O(m + f log f) per exchange for m messages
 * between f pairs; while off, one test per exchange. */
void bspram__router_keep_pattern(bspram_router *r, bool on);
bool bspram__router_keeps_pattern(const bspram_router *r);
const bspram_pattern *bspram__router_pattern(const bspram_router *r);
/* Over MPI each process keeps its own lanes' part of the pattern (the
 * flows of their sources, the loads of their components); this makes the
 * whole pattern on every process that runs lanes: collective over those
 * processes, once each, from the host with the team stopped or from the
 * process's first lane while its other lanes wait in a barrier (MPI is
 * called from that thread). One concatenation (the transport's concat) of
 * the records kept since the last gather; nothing where every lane is
 * local, where this process runs none, or where nothing was kept since. */
void bspram__router_pattern_gather(bspram_router *r);

void bspram__router_clear_log(bspram_router *r);

#endif
