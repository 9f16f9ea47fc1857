/* Tiny test harness: CHECK macros that count failures, and death tests that
 * run a piece of code in a child process and check its exit status and the
 * error line it printed. */
#ifndef BSPRAM_TESTS_CHECK_H
#define BSPRAM_TESTS_CHECK_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

/* Atomic: lanes of a machine run CHECKs concurrently (ThreadSanitizer found
 * the plain counters racing). Only the totals matter, read after the threads
 * have joined, so any ordering would do; ++ on an _Atomic is seq_cst. */
extern _Atomic int check_failures;
extern _Atomic int check_count;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        check_count++;                                                                \
        if (!(cond)) {                                                                \
            check_failures++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
        }                                                                             \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                            \
    do {                                                                              \
        uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);                  \
        check_count++;                                                                \
        if (check_a_ != check_b_) {                                                   \
            check_failures++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%llu != %llu)\n",         \
                    __FILE__, __LINE__, #a, #b, (unsigned long long)check_a_,         \
                    (unsigned long long)check_b_);                                    \
        }                                                                             \
    } while (0)

/* Run fn(arg) in a child process; check that it exits with a non-zero status
 * (not a signal, not a hang: killed after timeout_s seconds) and that its
 * stderr contains `expect` (and, if exactly_one_line, is exactly one line).
 * Counts as one check. */
void check_death(const char *name, void (*fn)(void *), void *arg, const char *expect,
                 int exactly_one_line, unsigned timeout_s);

/* check_death that also wants the exit status to be exactly `status`. */
void check_death_status(const char *name, void (*fn)(void *), void *arg, const char *expect,
                        int exactly_one_line, unsigned timeout_s, int status);

/* The flows field of a trace's CSV row (docs/records.md): the last column
 * but one, the loads following it. Cuts the row there (the string then ends
 * with the flows) and returns the field, or NULL for a row with fewer
 * columns. */
char *check_trace_flows(char *line);

/* Print "N passed, N failed" and return the process exit status. */
int check_report(const char *test_name);

#endif
