/* bspram_tool_list_check (commands.h): the one rule for comma-separated
 * values (coll --ops and --sizes, table --degrees and --paper), where an
 * empty item was once skipped without a word (--sizes 8, ran as --sizes 8). */
#include <string.h>

#include "tools/commands.h"

int bspram_tool_list_check(const char *command, const char *option, const char *list)
{
    if (!*list)
        return bspram_tool_usage(command, "%s '': an empty list", option);
    /* The line quotes the list, its first 60 bytes if longer (--degrees
     * takes any length), and names the item before the empty one. */
    const size_t n = strlen(list);
    const int shown = n > 64 ? 60 : (int)n;
    const char *more = n > 64 ? "..." : "";
    for (const char *item = list, *before = NULL;;) {
        size_t len = strcspn(item, ",");
        if (!len && !before)
            return bspram_tool_usage(command, "%s '%.*s%s': an empty item first (items go between "
                                     "commas, none empty)", option, shown, list, more);
        if (!len) {
            size_t b = (size_t)(item - 1 - before);
            return bspram_tool_usage(command, "%s '%.*s%s': an empty item after '%.*s%s' (items go "
                                     "between commas, none empty)", option, shown, list, more,
                                     b > 40 ? 40 : (int)b, before, b > 40 ? "..." : "");
        }
        if (!item[len])
            return 0;
        before = item;
        item += len + 1;
    }
}
