#!/bin/sh
# Doxygen's input filter (CMakeLists.txt, target doc): the headers document
# every declaration in a plain C comment just above it; make each comment
# that opens a line a documentation comment, so Doxygen attaches it — but
# not the section dividers (`/* ---- DRMA ---- */`, which may run on as a
# paragraph about the section): Doxygen would add them to the next
# function's page.
exec sed -e '/^ *\/\* ----/!s|^\( *\)/\* |\1/** |' "$1"
