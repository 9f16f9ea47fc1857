#!/bin/sh
# Doxygen's input filter (CMakeLists.txt, target doc): the headers document
# every declaration in a plain C comment just above it; make each comment
# that opens a line a documentation comment, so Doxygen attaches it.
exec sed -e 's|^\( *\)/\* |\1/** |' "$1"
