/* The output formats (format.h): JSON and CSV fields for every command. */
#include "tools/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bspram_format bspram_format_of(const char *name)
{
    return !strcmp(name, "csv")    ? BSPRAM_FORMAT_CSV
           : !strcmp(name, "json") ? BSPRAM_FORMAT_JSON
           : !strcmp(name, "md")   ? BSPRAM_FORMAT_MD
                                   : BSPRAM_FORMAT_TEXT;
}

void bspram_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c == '\n')
            printf("\\n");
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

void bspram_json_number(double x)
{
    if (isfinite(x))
        printf("%.9g", x);
    else
        printf("null");
}

void bspram_csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}
