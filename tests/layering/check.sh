#!/bin/sh
# The layers point down only, and the build lists every library file.
#
#   rank: base 0; hash 1, router 1; bsp 2; combine 3, models 3; coll 4; pram 5
#
# A file of one layer may include "<layer>/<file>.h" of its own layer or of a
# layer of lower rank; two different layers of the same rank (hash and router)
# may not include each other. Every .c and .h in a layer folder must be
# listed in CMakeLists.txt, in that layer's lists, and a layer's object
# library may link only layers below it.
#
# No file is named after another layer: a file of one layer whose name is
# another layer's name, or starts with it and '_', reads as part of that
# layer, and its include of that layer as an arrow pointing back up (a file
# models/bsplib.c beside bsp/bsplib_internal.h reads as a circle between
# models and bsp). A layer's name is its folder's, but for bsp, whose files
# go by what they implement, bsplib: bsp_ itself is BSPlib's namespace,
# which its extensions share wherever they live (combine/bsp_shm.h,
# coll/bsp_coll.h).
#
# The contract between the machine and the engine is the engine's alone:
# bsp/machine_internal.h (teams, lanes, the SPMD style, the host
# collectives) may be included only by bsp/, combine/ and pram/, and
# combine/team_internal.h (a combining batch inside a running team) only by
# combine/ and pram/ — never by models/, coll/, the command, the examples or
# the documentation's programs, which use the installed headers. Tests are
# white-box and may include both; so may bench/bench_router.c, whose channel
# mode is built only in the build tree (BSPRAM_BENCH_CHANNEL) and measures
# the record channel from a component. Every other includer anywhere in the
# tree (build folders and .git aside) is an error.
#
# usage: check.sh <source dir> <item>...
#   item = <layer>:<file>          a file the build lists for that layer
#        | link:<layer>:<below>    the layer's object library links <below>
set -eu
src=$1; shift
cd "$src"
layers="base hash router bsp combine models coll pram"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rank() {
  case $1 in
    base) echo 0 ;; hash|router) echo 1 ;; bsp) echo 2 ;;
    combine|models) echo 3 ;; coll) echo 4 ;; pram) echo 5 ;; *) echo -1 ;;
  esac
}

: > "$tmp/listed"
: > "$tmp/errors"
for item in "$@"; do
  case $item in
    link:*)
      from=${item#link:}; to=${from#*:}; from=${from%%:*}
      if [ "$(rank "$to")" -lt 0 ] || [ "$(rank "$to")" -ge "$(rank "$from")" ]; then
        echo "CMakeLists.txt: bspram_$from links bspram_$to, which is not a layer below it" >> "$tmp/errors"
      fi ;;
    *:*)
      layer=${item%%:*}; file=${item#*:}
      case $file in
        "$layer"/*) ;;
        *) echo "CMakeLists.txt: $file is listed in layer $layer but lives elsewhere" >> "$tmp/errors" ;;
      esac
      echo "$file" >> "$tmp/listed" ;;
    *) echo "check.sh: bad item '$item'" >&2; exit 2 ;;
  esac
done

files=""
for layer in $layers; do
  [ -d "$layer" ] || continue
  for f in "$layer"/*.c "$layer"/*.h "$layer"/*/*.c "$layer"/*/*.h; do
    [ -e "$f" ] || continue
    grep -qxF "$f" "$tmp/listed" ||
      echo "$f: not listed in the build (add it to its layer's list in CMakeLists.txt)" >> "$tmp/errors"
    files="$files $f"
  done
done

named() {
  case $1 in
    bsp) echo bsplib ;; *) echo "$1" ;;
  esac
}
for f in $files; do
  own=${f%%/*}
  stem=$(basename "$f"); stem=${stem%.*}
  for layer in $layers; do
    [ "$layer" = "$own" ] && continue
    name=$(named "$layer")
    case $stem in
      "$name" | "$name"_*)
        echo "$f: named after layer $layer ($name), it reads as a file of $layer/; name it for what it does in $own/" >> "$tmp/errors" ;;
    esac
  done
done

if [ -n "$files" ]; then
  # shellcheck disable=SC2086
  awk '
    BEGIN { r["base"] = 0; r["hash"] = 1; r["router"] = 1; r["bsp"] = 2
            r["combine"] = 3; r["models"] = 3; r["coll"] = 4; r["pram"] = 5 }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
      split(FILENAME, p, "/"); from = p[1]
      inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
      n = split(inc, q, "/")
      if (n != 2 || !(q[1] in r)) {
        printf "%s:%d: #include \"%s\": a library file includes only \"<layer>/<file>.h\"\n", FILENAME, FNR, inc
        next
      }
      to = q[1]
      if (to != from && r[to] >= r[from])
        printf "%s:%d: #include \"%s\": layer %s (rank %d) may not include layer %s (rank %d)\n", \
               FILENAME, FNR, inc, from, r[from], to, r[to]
    }' $files >> "$tmp/errors"
fi

# Who includes the engine's contract (see the top): every file of the tree
# that could (C sources and headers, and the documents whose programs the
# tests compile), outside build folders (a CMakeCache.txt marks one) and .git.
find . -name .git -prune -o -type d -exec test -e '{}/CMakeCache.txt' ';' -prune -o \
     -type f \( -name '*.c' -o -name '*.h' -o -name '*.md' \) -print | sed 's#^\./##' | sort |
  while IFS= read -r f; do
    awk -v f="$f" '
      /^[ \t]*#[ \t]*include[ \t]*"(bsp\/machine_internal|combine\/team_internal)\.h"/ {
        inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
        if (inc == "bsp/machine_internal.h") { ok = f ~ /^(bsp|combine|pram)\//; who = "bsp/, combine/ and pram/" }
        else { ok = f ~ /^(combine|pram)\//; who = "combine/ and pram/" }
        if (f ~ /^tests\// || f == "bench/bench_router.c") ok = 1
        if (!ok)
          printf "%s:%d: #include \"%s\": the machine-engine contract is included only by %s (and white-box tests)\n", f, FNR, inc, who
      }' "$f"
  done >> "$tmp/errors"

if [ -s "$tmp/errors" ]; then
  cat "$tmp/errors"
  echo "layering: $(wc -l < "$tmp/errors") error(s)"
  exit 1
fi
echo "layering: $(echo $files | wc -w) files, every include points down, every file listed, none named after another layer; the machine-engine contract included by the engine alone"
