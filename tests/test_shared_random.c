/* Shared memory from inside bulk steps (combine/shared.h): a random
 * program (tests/shared_program.h) in which components issue every species
 * mixed — reads, writes of each policy, reductions and fetch-and-ops with
 * built-in and user operations, combining writes — on hashed, block and
 * cyclic segments of widths 1..8, and send each other messages. Every step
 * checks, against a sequential reference, its inbox (the messages arrive
 * intact although a batch ran in between) and the answers to its previous
 * step's requests in issue order (reads see memory before the step's
 * updates; entries without an answer hold 0); after the run, the last
 * step's answers and messages from the host, every fetch-and-op's prefix
 * chain and the memory. The same program as one run, as runs of one
 * superstep each (memory checked between them: a run's first step sees
 * what the previous run left), and cut by max_supersteps; p = 1, 6, 32, 64;
 * T = 1..4; the auto basis, a fixed two-phase basis with source spreading
 * and direct physical delivery, and the adaptive strategy. */
#include "shared_program.h"

static void whole(const sp_config *cfg)
{
    sp_world w;
    sp_create(&w, cfg);
    CHECK_EQ_U64(bspram_shared_run(w.sh, sp_step, &w, 0), cfg->steps);
    sp_check_end(&w);
    sp_destroy(&w);
}

static void chained(const sp_config *cfg)
{
    sp_world w;
    sp_create(&w, cfg);
    for (uint64_t s = 0; s < cfg->steps; s++) {
        CHECK_EQ_U64(bspram_shared_run(w.sh, sp_step, &w, 1), 1);
        sp_check_memory(&w, s + 1);
    }
    sp_check_end(&w);
    sp_destroy(&w);
}

static void cut(const sp_config *cfg)
{
    sp_world w;
    sp_create(&w, cfg);
    CHECK_EQ_U64(bspram_shared_run(w.sh, sp_step, &w, 5), 5);
    sp_check_memory(&w, 5);
    CHECK_EQ_U64(bspram_shared_run(w.sh, sp_step, &w, 0), cfg->steps - 5);
    sp_check_end(&w);
    sp_destroy(&w);
}

int main(void)
{
    static const uint64_t ps[] = {1, 6, 32, 64};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        for (int threads = 1; threads <= 4; threads++) {
            for (int o = SP_OPTIONS_AUTO; o <= SP_OPTIONS_ADAPTIVE; o++) {
                sp_config cfg = {.p = ps[i], .threads = threads, .seed = 100 + i * 10 + (uint64_t)o,
                                 .steps = 12, .max_req = 10, .options = (sp_options)o};
                whole(&cfg);
                if (threads == 2 || (threads == 3 && o == SP_OPTIONS_FIXED)) {
                    chained(&cfg);
                    cut(&cfg);
                }
            }
        }
    }
    return check_report("test_shared_random");
}
