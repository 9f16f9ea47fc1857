/* The output formats of the commands' results: text for people, CSV and
 * JSON for programs. Every command that prints results takes --format
 * text|csv|json (table also md); CSV is a header and rows, JSON one object
 * for one result or an array of objects for rows (docs/cli.md). */
#ifndef BSPRAM_TOOLS_FORMAT_H
#define BSPRAM_TOOLS_FORMAT_H

#include <stddef.h>

typedef enum bspram_format {
    BSPRAM_FORMAT_TEXT,
    BSPRAM_FORMAT_CSV,
    BSPRAM_FORMAT_JSON,
    BSPRAM_FORMAT_MD
} bspram_format;

/* The choices of every command's --format (options.h, BSPRAM_OPT_CHOICE). */
#define BSPRAM_FORMATS "text|csv|json"

/* The --format option of a command whose settings are `type`, its value in
 * `field` (a const char *, "text" by default). */
#define BSPRAM_FORMAT_OPTION(type, field)                                                          \
    {.name = "format", .kind = BSPRAM_OPT_CHOICE, .offset = offsetof(type, field),                 \
     .help = "text (the default), csv or json (the fields of the text, for programs)",             \
     .choices = BSPRAM_FORMATS}

/* The format a --format value names (one the parser accepted). */
bspram_format bspram_format_of(const char *name);

/* s on stdout as a JSON string: quoted, with quotes, backslashes and
 * control characters escaped. */
void bspram_json_string(const char *s);

/* x on stdout as a JSON number, or null when it is not finite. */
void bspram_json_number(double x);

/* s on stdout as a CSV field: as it is, or quoted (quotes doubled) when it
 * holds a comma, a quote or a line break (RFC 4180). */
void bspram_csv_field(const char *s);

#endif
