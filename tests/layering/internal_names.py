#!/usr/bin/env python3
"""No message a user can meet names an internal function.

Every string literal of the library and the bspram command (outside
comments) that holds "bspram__" fails the test, but one form: an internal
function's own argument check, "bspram__x(arg=NULL): arg must not be NULL"
(written out, or the name given to BSPRAM_NONNULL_AS), which only a fault
of the library reaches (test_null_errors walks them).
A message says what the user did or what ran out ("BSPRAM_MPI_GET=4k is
not ...", "the inboxes: out of memory ..."), or "internal error: ..." for a
state only a fault of the library reaches.

usage: internal_names.py <source dir>
"""
import os
import re
import sys

LAYERS = ["base", "hash", "router", "bsp", "combine", "models", "coll", "pram", "tools"]
ARGUMENT_CHECK = re.compile(r"^bspram__\w+\(\w+=NULL\): \w+ must not be NULL$")
NAME = re.compile(r"^bspram__\w+$")


def literals(src):
    """(line, text, start) of every string literal, comments skipped."""
    out, i, line, n = [], 0, 1, len(src)
    while i < n:
        if src.startswith("/*", i):
            j = src.index("*/", i + 2) + 2
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif src[i] in "'\"":
            quote, j, text = src[i], i + 1, []
            while src[j] != quote:
                step = 2 if src[j] == "\\" else 1
                text.append(src[j:j + step])
                j += step
            j += 1
            if quote == '"':
                out.append((line, "".join(text), i))
        else:
            j = i + 1
        line += src.count("\n", i, j)
        i = j
    return out


def main():
    root = sys.argv[1]
    bad = 0
    for layer in LAYERS:
        folder = os.path.join(root, layer)
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                src = f.read()
                for line, text, start in literals(src):
                    named_check = NAME.match(text) and src[:start].rstrip().endswith("BSPRAM_NONNULL_AS(")
                    if "bspram__" in text and not ARGUMENT_CHECK.match(text) and not named_check:
                        print(f"{layer}/{name}:{line}: a message names an internal function: \"{text}\"")
                        bad += 1
    if bad:
        print(f"internal_names: {bad} message(s) name internal functions")
        return 1
    print("internal_names: no message names an internal function")
    return 0


if __name__ == "__main__":
    sys.exit(main())
