/* Every message of every dimension-permutation algorithm goes between cube
 * neighbours (pids differing in one bit), read off the router's message
 * pattern in the trace (BSPRAM_TRACE with BSPRAM_PATTERN=1): the trace's
 * flows column lists each superstep's pairs. Every communicating superstep
 * of the calls has its pattern. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bsp.h>
#include <bsp_sdp.h>

#include "check.h"

static unsigned P;


static void run_all(void)
{
    bsp_begin(P);
    unsigned n = 0;
    while ((1u << n) < bsp_nprocs())
        n++;
    unsigned m = n + 2;
    bsp_sdp_layout cyc = bsp_sdp_cyclic(n, m, 8), con = bsp_sdp_consecutive(n, m, 8);
    bsp_sdp_perm perms[4] = {bsp_sdp_shuffle(m, 0, n, 1), bsp_sdp_shuffle(m, 0, n, -1),
                             bsp_sdp_bit_reversal(m, 0, n),
                             n % 2 ? bsp_sdp_shuffle(m, 0, n, 2) : bsp_sdp_transpose(m, 0, n)};
    unsigned char src[32], dst[32];
    memset(src, (int)bsp_pid(), sizeof src);
    /* Every algorithm with the ports it has: A2 both, A5 n only. */
    static const struct { bsp_sdp_algorithm a; int nport; } runs[] = {
        {BSP_SDP_A1, 0}, {BSP_SDP_A1A, 0}, {BSP_SDP_A2, 0}, {BSP_SDP_A3, 0},
        {BSP_SDP_A2, 1}, {BSP_SDP_A5, 1}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        bsp_sdp_options opt = {.algorithm = runs[r].a, .ports = runs[r].nport ? n : 1};
        for (int k = 0; k < 4; k++) {
            bsp_sdp(&cyc, &perms[k], src, dst, &opt);
            /* the same permutation on the consecutive allocation's real dims */
            bsp_sdp_perm q = bsp_sdp_identity(m);
            for (unsigned i = 0; i < n; i++)
                q.delta[m - n + i] = (unsigned char)(m - n + perms[k].delta[i]);
            bsp_sdp(&con, &q, src, dst, &opt);
        }
    }
    bsp_end();
}

/* One trace row's flows (check_trace_flows); returns 0 if not kept. */
static int row_flows(char *line, unsigned P, int *neighbours)
{
    const char *f = check_trace_flows(line);
    if (!f)
        return 0;
    if (*f == '-')
        return 0;
    unsigned long long s, d, msgs, bytes, largest;
    int len;
    while (sscanf(f, "%llu:%llu:%llu:%llu:%llu%n", &s, &d, &msgs, &bytes, &largest, &len) == 5) {
        unsigned x = (unsigned)(s ^ d);
        if (s >= P || d >= P || x == 0 || (x & (x - 1)) != 0)
            *neighbours = 0;
        f += len;
        while (*f == ' ')
            f++;
    }
    return 1;
}

int main(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/bspram-test-sdp-nb-%d.csv", (int)getpid());
    setenv("BSPRAM_PATTERN", "1", 1);
    static const unsigned Ps[] = {4, 8, 16, 32}; /* on 2 processes every δ of the real dimension is the identity */
    for (size_t i = 0; i < sizeof Ps / sizeof Ps[0]; i++) {
        P = Ps[i];
        remove(path);
        setenv("BSPRAM_TRACE", path, 1);
        bsp_init(run_all, 0, NULL);
        run_all();
        unsetenv("BSPRAM_TRACE");
        FILE *f = fopen(path, "r");
        CHECK(f != NULL);
        if (!f)
            continue;
        char *line = NULL;
        size_t cap = 0;
        unsigned rows = 0, communicating = 0, kept = 0;
        int neighbours = 1;
        while (getline(&line, &cap, f) > 0) {
            line[strcspn(line, "\n")] = '\0';
            if (!strstr(line, ",bsp_sdp,"))
                continue;
            rows++;
            unsigned long long messages;
            const char *after = strstr(line, ",bsp_sdp,") + strlen(",bsp_sdp,");
            if (sscanf(after, "%llu", &messages) != 1 || messages == 0)
                continue;
            communicating++;
            kept += row_flows(line, P, &neighbours);
        }
        free(line);
        fclose(f);
        CHECK(rows > 0);
        CHECK(communicating > 0);
        CHECK_EQ_U64(kept, communicating);
        CHECK(neighbours);
    }
    remove(path);
    unsetenv("BSPRAM_PATTERN");
    return check_report("test_sdp_neighbours");
}
