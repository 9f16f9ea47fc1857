/* The transport seam (router/transport.h): both transports deliver the same
 * inboxes and records; the staged one copies every payload (a receiver never
 * sees the sender's memory) and says it shares none; a fatal error ends the
 * job through the abort the layers install; unknown names are refused. The
 * rest of the suite runs on both transports (the *_staged tests). */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/abort.h"
#include "bspram.h"
#include "check.h"
#include "router/router.h"
#include "base/error.h"

enum { P = 37, LANES = 3, STEPS = 4 };

/* Where each sender wrote its payloads, and the inboxes as received. */
typedef struct run {
    const void *written[STEPS][P][4];
    const void *received[STEPS][P][P * 4];
    uint64_t value[STEPS][P][P * 4];
    size_t n[STEPS][P];
} run;

static void drive(bspram_router *r, run *out)
{
#pragma omp parallel num_threads(LANES)
    {
        unsigned lane = (unsigned)omp_get_thread_num();
        uint64_t first = bspram__router_lane_first(r, lane), end = bspram__router_lane_first(r, lane + 1);
        for (int s = 0; s < STEPS; s++) {
            for (uint64_t c = first; c < end; c++)
                for (unsigned j = 0; j < 4; j++) {
                    uint64_t v = c * 1000 + (uint64_t)s * 10 + j;
                    uint64_t *buf = bspram__router_post(r, lane, c, (c * 7 + j + (uint64_t)s) % P, 8, "test");
                    *buf = v;
                    out->written[s][c][j] = buf;
                }
            bspram__router_exchange(r, lane, 0);
            for (uint64_t c = first; c < end; c++) {
                const bspram_message *m;
                size_t n = bspram__router_inbox(r, lane, c, &m);
                out->n[s][c] = n;
                for (size_t i = 0; i < n; i++) {
                    out->received[s][c][i] = m[i].data;
                    memcpy(&out->value[s][c][i], m[i].data, 8);
                }
            }
        }
        bspram__router_leave(r, lane);
    }
}

static int written_somewhere(const run *x, int s, const void *p)
{
    for (int c = 0; c < P; c++)
        for (int j = 0; j < 4; j++)
            if (x->written[s][c][j] == p)
                return 1;
    return 0;
}

static void compare_transports(void)
{
    static run a, b;
    bspram_router *shm = bspram__router_create_on(P, LANES, "shm");
    bspram_router *staged = bspram__router_create_on(P, LANES, "staged");
    CHECK(bspram__router_shares_memory(shm));
    CHECK(!bspram__router_shares_memory(staged));
    drive(shm, &a);
    drive(staged, &b);
    int same = 1, shm_in_place = 1, staged_copied = 1;
    for (int s = 0; s < STEPS; s++)
        for (int c = 0; c < P; c++) {
            same &= a.n[s][c] == b.n[s][c];
            for (size_t i = 0; i < a.n[s][c] && i < b.n[s][c]; i++) {
                same &= a.value[s][c][i] == b.value[s][c][i];
                shm_in_place &= written_somewhere(&a, s, a.received[s][c][i]);
                staged_copied &= !written_somewhere(&b, s, b.received[s][c][i]);
            }
        }
    CHECK(same);          /* the same inboxes, in the same order */
    CHECK(shm_in_place);  /* shm, light supersteps (no windows): receivers read payloads where senders wrote them */
    CHECK(staged_copied); /* staged: never */
    const bspram_log *la = bspram__router_log(shm), *lb = bspram__router_log(staged);
    CHECK_EQ_U64(la->n, STEPS);
    CHECK_EQ_U64(lb->n, STEPS);
    for (size_t i = 0; i < la->n && i < lb->n; i++) {
        const bspram_record *x = &la->records[i], *y = &lb->records[i];
        CHECK(x->messages == y->messages && x->bytes == y->bytes && x->q == y->q && x->r == y->r &&
              x->charge == y->charge && x->h_bytes == y->h_bytes && x->max_message == y->max_message);
        CHECK(x->r > 0 && x->q == 4); /* completed by the leave, without a flush */
    }
    /* a one-sided read through either transport */
    uint64_t src = 0x1234, dst = 0;
    bspram__router_read(staged, 0, 1, &src, &dst, sizeof dst);
    CHECK_EQ_U64(dst, 0x1234);
    bspram__router_destroy(shm);
    bspram__router_destroy(staged);
}

static void unknown_transport(void *arg)
{
    (void)arg;
    bspram__router_create_on(4, 2, "carrier-pigeon");
}

static void end_with_42(int status)
{
    (void)status;
    _exit(42);
}

/* A fatal error ends the job through the installed abort (an MPI transport
 * installs MPI_Abort there), after printing its line. */
static void abort_hook(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        bspram__base_set_abort(end_with_42);
        int fd = open("/dev/null", 1);
        dup2(fd, 2);
        bspram__base_fatal("test: a fatal error");
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42);
}

int main(void)
{
    compare_transports();
    check_death("unknown transport", unknown_transport, NULL,
                "bspram: the router's transport 'carrier-pigeon' (BSPRAM_TRANSPORT) is unknown; valid: shm, "
                "staged", 1, 10);
    abort_hook();
    return check_report("test_transport");
}
