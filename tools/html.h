/* The bspram command's pages: one self-contained HTML file each (its
 * script, style and data inline; nothing fetched, at any time), written
 * from a template in tools/html/ that the build embeds (cmake/embed.cmake),
 * with the run's data where the template says <!--BSPRAM-DATA-->. */
#ifndef BSPRAM_TOOLS_HTML_H
#define BSPRAM_TOOLS_HTML_H

#include <stdio.h>

/* The template of prof's page (generated from tools/html/prof.html). */
extern const unsigned char bspram_tool_page_prof[];

/* Before the work: a path that ends in .html (any case), in a writable
 * directory, not a directory, FIFO or device, and not the file `input`
 * (may be NULL) by any name. 0, or after one line, "bspram <command>:
 * <option> <path>: …", the exit status: 2 (a usage error) for a name not
 * ending in .html, 1 for the rest. */
int bspram_tool_html_check(const char *command, const char *option, const char *path,
                           const char *input);

/* Write the page: the template up to its data mark, then data(f, arg) —
 * a <script> defining the page's `D` — then the rest — to a new file
 * beside path, renamed over it once whole (base/output.h). 0, or 1 after
 * one line naming the file and what failed; path is then as it was. */
int bspram_tool_html_write(const char *command, const char *option, const char *path,
                           const char *page, void (*data)(FILE *f, void *arg), void *arg);

/* s as a JavaScript string in double quotes, safe inside <script>: quotes,
 * backslashes, control characters, '<', '>', '&' and bytes past ASCII as
 * \u00XX (a label's bytes are not always UTF-8). */
void bspram_tool_js_string(FILE *f, const char *s);

/* x as a JavaScript number, or null if it is not finite. */
void bspram_tool_js_number(FILE *f, double x);

#endif
