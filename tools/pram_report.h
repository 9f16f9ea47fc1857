/* The lines a PRAM appends to BSPRAM_PRAM_REPORT (pram/pram.h, "Checking
 * a run"), read back for `bspram pram check`: one JSON object per line. The
 * reader takes the fields it knows, in any order, and passes over others,
 * so that a line with more fields (a later library) still reads. */
#ifndef BSPRAM_TOOLS_PRAM_REPORT_H
#define BSPRAM_TOOLS_PRAM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BSPRAM_REPORT_NEEDS 4

/* A rise of the weakest model the run needed. */
typedef struct bspram_report_need {
    int model;          /* a bspram_pram_model */
    uint64_t step;
    char at[192];       /* "f.c:42", or "" if not known */
    char what[192];     /* "VPs 0 and 1 both read cell A[5]", or "" */
} bspram_report_need;

/* One PRAM of a run. */
typedef struct bspram_report_line {
    uint64_t pram;
    int model;          /* the model the program declared */
    char op[32];        /* CRCW-combining's write rule, or "" */
    uint64_t n, p, steps, work, supersteps, charge, violations;
    int weakest;        /* the weakest model the run needed */
    uint64_t weakest_step;
    size_t nneeds;
    bspram_report_need needs[BSPRAM_REPORT_NEEDS];
    char violation[512]; /* the first violation's line, or "" */
    bool ended_by_violation;
} bspram_report_line;

/* Read one line (without its newline). 0, or −1 with the problem in err
 * ("not JSON at byte 12", "no field steps", "unknown model 'X'"). */
int bspram_report_parse(const char *text, bspram_report_line *out, char *err, size_t errlen);

#endif
