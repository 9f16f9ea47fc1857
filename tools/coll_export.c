/* The tuned choices in the selection formats of the two MPI libraries a
 * user would otherwise pick (docs/collectives.md, "Exporting the choice"):
 *
 *   ompi-rules  Open MPI's coll/tuned dynamic rules file (the classic
 *               format: collectives, communicator sizes, message sizes,
 *               each "size algorithm faninout segsize"; loaded with
 *               --mca coll_tuned_use_dynamic_rules 1
 *               --mca coll_tuned_dynamic_rules_filename FILE);
 *   mpich-json  MPICH's collective-selection JSON (nested
 *               "collective=", "comm_type=", "comm_size<=", "avg_msg_size<="
 *               keys down to "algorithm="; loaded with
 *               MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE).
 *
 * Each of bspram's algorithms maps to the one of that library that sends
 * the same messages in the same rounds; where the library has none, to its
 * nearest (the table below says which). A message-size rule starts halfway
 * (geometrically) between two tuned sizes, in the unit the library measures
 * (coll_tuned_decision_dynamic.c in Open MPI 4.1): Open MPI keys allgather,
 * alltoall, gather and scatter by p x block, broadcast, reduce and
 * allreduce by the block, and scan by the datatype's size x p alone — the
 * same key for every message of a datatype, so scan gets one rule, from 0,
 * with the one algorithm coll_tune_one_for_all finds best over the sizes;
 * MPICH keys all by the block. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/coll_tune.h"

typedef struct mapping {
    int ompi_id;          /* Open MPI's COLLTYPE (coll_base_functions.h) */
    const char *mpich;    /* MPICH's collective= name */
    int p_scaled;         /* Open MPI's size key is p x block */
    struct {
        int ompi;         /* coll_tuned_<op>_algorithm's number (Open MPI 4.1) */
        const char *mpich;
    } alg[COLL_TUNE_ALGS];
} mapping;

/* Exact where the two send the same messages; nearest otherwise:
 * broadcast/scatter/gather/reduce/scan "direct" → MPICH's binomial (MPICH
 * has no flat intra-communicator form), allreduce "dissemination" →
 * recursive doubling in both, allgather "direct" → Bruck in both (neither
 * sends every block straight to everyone: Open MPI's "linear" allgather is
 * a gather to one root and a broadcast from it; Bruck sends the same
 * (n − 1)·b bytes per process, in ⌈log2 n⌉ rounds, and is exactly direct
 * at n = 2), scan "direct" → Open MPI's linear scan (a chain, n − 1
 * rounds), scan "dissemination" and "binomial" → recursive doubling (the
 * same rounds as dissemination, other partners), alltoall "exchange" →
 * pairwise (n − 1 rounds of one block, where the hypercube exchange takes
 * log2 n rounds of n/2 blocks), broadcast "scatter-allgather" → Open MPI's
 * (its allgather by recursive doubling, not Bruck's). */
static const mapping maps[BSP_COLL_SCAN + 1] = {
    [BSP_COLL_BROADCAST] = {7, "bcast", 0,
                            {[BSP_COLL_BINOMIAL] = {6, "MPIR_Bcast_intra_binomial"},
                             [BSP_COLL_DIRECT] = {1, "MPIR_Bcast_intra_binomial"},
                             [BSP_COLL_SCATTER_ALLGATHER] = {8, "MPIR_Bcast_intra_scatter_recursive_doubling_allgather"}}},
    [BSP_COLL_SCATTER] = {15, "scatter", 1,
                          {[BSP_COLL_BINOMIAL] = {2, "MPIR_Scatter_intra_binomial"},
                           [BSP_COLL_DIRECT] = {1, "MPIR_Scatter_intra_binomial"}}},
    [BSP_COLL_GATHER] = {9, "gather", 1,
                         {[BSP_COLL_BINOMIAL] = {2, "MPIR_Gather_intra_binomial"},
                          [BSP_COLL_DIRECT] = {1, "MPIR_Gather_intra_binomial"}}},
    [BSP_COLL_ALLGATHER] = {0, "allgather", 1,
                            {[BSP_COLL_BRUCK] = {2, "MPIR_Allgather_intra_brucks"},
                             [BSP_COLL_RING] = {4, "MPIR_Allgather_intra_ring"},
                             [BSP_COLL_DIRECT] = {2, "MPIR_Allgather_intra_brucks"}}},
    [BSP_COLL_ALLTOALL] = {3, "alltoall", 1,
                           {[BSP_COLL_BRUCK] = {3, "MPIR_Alltoall_intra_brucks"},
                            [BSP_COLL_DIRECT] = {1, "MPIR_Alltoall_intra_scattered"},
                            [BSP_COLL_EXCHANGE] = {2, "MPIR_Alltoall_intra_pairwise"}}},
    [BSP_COLL_REDUCE] = {11, "reduce", 0,
                         {[BSP_COLL_BINOMIAL] = {5, "MPIR_Reduce_intra_binomial"},
                          [BSP_COLL_DIRECT] = {1, "MPIR_Reduce_intra_binomial"},
                          [BSP_COLL_RABENSEIFNER] = {7, "MPIR_Reduce_intra_reduce_scatter_gather"}}},
    [BSP_COLL_ALLREDUCE] = {2, "allreduce", 0,
                            {[BSP_COLL_DOUBLING] = {3, "MPIR_Allreduce_intra_recursive_doubling"},
                             [BSP_COLL_DISSEMINATION] = {3, "MPIR_Allreduce_intra_recursive_doubling"},
                             [BSP_COLL_RABENSEIFNER] = {6, "MPIR_Allreduce_intra_reduce_scatter_allgather"}}},
    [BSP_COLL_SCAN] = {14, "scan", 0,
                       {[BSP_COLL_DISSEMINATION] = {2, "MPIR_Scan_intra_recursive_doubling"},
                        [BSP_COLL_BINOMIAL] = {2, "MPIR_Scan_intra_recursive_doubling"},
                        [BSP_COLL_DIRECT] = {1, "MPIR_Scan_intra_recursive_doubling"}}},
};

/* Where the rule of tuned size s (s > 0) starts: halfway between the sizes,
 * in the library's unit. */
static uint64_t rule_start(const coll_tune_row *rows, size_t s, uint64_t unit)
{
    if (s == 0)
        return 0;
    return (uint64_t)llround(sqrt((double)rows[s - 1].block * (double)rows[s].block)) * unit;
}

static void write_ompi(FILE *f, unsigned p, const coll_tune_row *rows, size_t n_ops, size_t n_sizes)
{
    fprintf(f, "# Open MPI coll/tuned dynamic rules, measured by bspram coll --tune on %u processes\n", p);
    fprintf(f, "%zu # collectives\n", n_ops);
    for (size_t o = 0; o < n_ops; o++) {
        const coll_tune_row *r = &rows[o * n_sizes];
        const mapping *m = &maps[r->op];
        const uint64_t unit = m->p_scaled ? p : 1;
        if (r->op == BSP_COLL_SCAN) { /* keyed by datatype size x p: one rule serves every size */
            const bsp_coll_algorithm a = coll_tune_one_for_all(r, n_sizes);
            fprintf(f, "%d # %s\n1 # communicator sizes\n%u # from this size up\n1 # message sizes\n", m->ompi_id,
                    m->mpich, p);
            fprintf(f, "0 %d 0 0 # bspram %s for every size: Open MPI keys scan by datatype size x p, not by the "
                    "message\n", m->alg[a].ompi, bsp_coll_algorithm_name(a));
            continue;
        }
        size_t n_rules = 0;
        for (size_t s = 0; s < n_sizes; s++)
            n_rules += s == 0 || m->alg[r[s].alg[0]].ompi != m->alg[r[s - 1].alg[0]].ompi;
        fprintf(f, "%d # %s\n1 # communicator sizes\n%u # from this size up\n%zu # message sizes\n", m->ompi_id,
                m->mpich, p, n_rules);
        for (size_t s = 0; s < n_sizes; s++)
            if (s == 0 || m->alg[r[s].alg[0]].ompi != m->alg[r[s - 1].alg[0]].ompi)
                fprintf(f, "%llu %d 0 0 # bspram %s, tuned at %zu bytes\n",
                        (unsigned long long)rule_start(r, s, unit), m->alg[r[s].alg[0]].ompi,
                        bsp_coll_algorithm_name(r[s].alg[0]), r[s].block);
    }
}

static void write_mpich(FILE *f, unsigned p, const coll_tune_row *rows, size_t n_ops, size_t n_sizes)
{
    fprintf(f, "{\n");
    for (size_t o = 0; o < n_ops; o++) {
        const coll_tune_row *r = &rows[o * n_sizes];
        const mapping *m = &maps[r->op];
        fprintf(f, "    \"collective=%s\":\n    {\n        \"comm_type=intra\":\n        {\n", m->mpich);
        /* Measured at p; a larger communicator gets the same choices. */
        for (int any = 0; any < 2; any++) {
            if (any)
                fprintf(f, "            \"comm_size=any\":\n            {\n");
            else
                fprintf(f, "            \"comm_size<=%u\":\n            {\n", p);
            for (size_t s = 0; s < n_sizes; s++) {
                /* A size's rule covers up to halfway to the next size. */
                if (s + 1 < n_sizes && !strcmp(m->alg[r[s].alg[0]].mpich, m->alg[r[s + 1].alg[0]].mpich))
                    continue;
                if (s + 1 < n_sizes)
                    fprintf(f, "                \"avg_msg_size<=%llu\":\n",
                            (unsigned long long)rule_start(r, s + 1, 1) - 1);
                else
                    fprintf(f, "                \"avg_msg_size=any\":\n");
                fprintf(f, "                {\n                    \"algorithm=%s\":{}\n                }%s\n",
                        m->alg[r[s].alg[0]].mpich, s + 1 < n_sizes ? "," : "");
            }
            fprintf(f, "            }%s\n", any ? "" : ",");
        }
        fprintf(f, "        }\n    }%s\n", o + 1 < n_ops ? "," : "");
    }
    fprintf(f, "}\n");
}

int coll_export(FILE *f, const char *format, unsigned p, const coll_tune_row *rows, size_t n_ops,
                size_t n_sizes)
{
    if (format[0] == 'o')
        write_ompi(f, p, rows, n_ops, n_sizes);
    else
        write_mpich(f, p, rows, n_ops, n_sizes);
    if (fflush(f) || ferror(f)) {
        if (!errno)
            errno = EIO;
        return -1;
    }
    return 0;
}
