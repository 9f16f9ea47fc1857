/* The list of the PRAM examples, for `bspram pram` and bench_pram (an
 * example program links only its own example). */
#include <string.h>

#include "example.h"

extern const pram_example pram_example_prefix_sums, pram_example_max_erew, pram_example_max_crcw,
    pram_example_or, pram_example_list_ranking, pram_example_components, pram_example_histogram,
    pram_example_sort, pram_example_erew_violation, pram_example_tree_sum, pram_example_blelloch_scan,
    pram_example_broadcast, pram_example_matmul, pram_example_merge, pram_example_bitonic_sort,
    pram_example_tree_depths, pram_example_random_mate, pram_example_expression;

const pram_example *const pram_examples[] = {
    &pram_example_prefix_sums, &pram_example_max_erew,  &pram_example_max_crcw,
    &pram_example_or,          &pram_example_list_ranking, &pram_example_components,
    &pram_example_histogram,   &pram_example_sort,      &pram_example_erew_violation,
    &pram_example_tree_sum,    &pram_example_blelloch_scan, &pram_example_broadcast,
    &pram_example_matmul,      &pram_example_merge,     &pram_example_bitonic_sort,
    &pram_example_tree_depths, &pram_example_random_mate, &pram_example_expression,
};
const size_t pram_example_count = sizeof pram_examples / sizeof pram_examples[0];

const pram_example *pram_example_find(const char *name)
{
    for (size_t i = 0; i < pram_example_count; i++) {
        const char *a = pram_examples[i]->name, *b = name;
        while (*a && (*a == *b || (*a == '_' && *b == '-')))
            a++, b++;
        if (!*a && !*b)
            return pram_examples[i];
    }
    return NULL;
}
