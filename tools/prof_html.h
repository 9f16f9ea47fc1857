/* bspram prof --html (prof_html.c). */
#ifndef BSPRAM_TOOLS_PROF_HTML_H
#define BSPRAM_TOOLS_PROF_HTML_H

#include "tools/trace_read.h"

/* Write machine m's page to path (checked before: bspram_tool_html_check),
 * priced with g (ns per byte), l (ns per superstep) and rate (work per ns);
 * g or l < 0: no cost, rate <= 0: W not priced; source says where g and l
 * come from ("given", "from bspram probe", "measured by the collectives
 * …"), and the page says it. 0, or 1 after one line. */
int bspram_tool_prof_html(const char *path, const trace_machine *m, double g, double l,
                          double rate, const char *source);

#endif
