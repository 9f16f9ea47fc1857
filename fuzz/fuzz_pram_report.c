/* Fuzz the reader of the PRAM's report lines (tools/pram_report.h), which
 * `bspram pram check` runs on what a program's PRAMs appended: it either
 * refuses with a reason or gives a line whose models are models, whose
 * rises are at most BSPRAM_REPORT_NEEDS, and whose texts are terminated.
 *
 * Input: one line. */
#include "fuzz/fuzz.h"
#include "pram/pram.h"
#include "tools/pram_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = fuzz_string(data, size);
    bspram_report_line l;
    char err[160];
    err[0] = 0;
    if (bspram_report_parse(in, &l, err, sizeof err) != 0) {
        FUZZ_CHECK(err[0] != 0 && memchr(err, 0, sizeof err));
        free(in);
        return 0;
    }
    FUZZ_CHECK(bspram_pram_model_name((bspram_pram_model)l.model) != NULL);
    FUZZ_CHECK(bspram_pram_model_name((bspram_pram_model)l.weakest) != NULL);
    FUZZ_CHECK(l.nneeds <= BSPRAM_REPORT_NEEDS);
    FUZZ_CHECK(memchr(l.op, 0, sizeof l.op) && memchr(l.violation, 0, sizeof l.violation));
    for (size_t i = 0; i < l.nneeds; i++)
        FUZZ_CHECK(memchr(l.needs[i].at, 0, sizeof l.needs[i].at) &&
                   memchr(l.needs[i].what, 0, sizeof l.needs[i].what));
    free(in);
    return 0;
}
