#!/bin/sh
# README.md's "Use it in your project", to the letter, from a clean clone:
# clone the committed tree, run the section's commands as written (the
# `sudo ... /usr/local` line aside: a test does not write the system), with
# HOME a scratch directory so that "$HOME/opt/bspram" is a scratch prefix P;
# then the section's exports for it, its `cc prog.c ...` line for every C
# program of the README, its find_package and target_link_libraries lines in
# a CMake project, and `bspram` from PATH; then every `bspram` command of the
# README (step 5 says which are adapted), also those that set variables
# first (BSPRAM_TRACE=run.csv bspram demo …). Every command is read from the
# README, so a recipe that stops working as written fails here; and what they
# find (bspram on PATH, pkg-config's and CMake's package, the library the
# programs load) must be P's, not an install elsewhere on the default paths.
# usage: readme.sh <source dir>   (exit 77, skipped, unless it is the top of
# a git checkout)
set -eu
src=$1
top=$(command -v git >/dev/null && git -C "$src" rev-parse --show-toplevel 2>/dev/null || true)
[ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$src" && pwd -P)" ] || {
  echo "readme: $src is not the top of a git checkout; skipped"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git clone -q "$src" "$scratch/clone"
cd "$scratch/clone"
unset LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH
export HOME="$scratch/home"
mkdir -p "$HOME"

# The section, and its fenced sh blocks (numbered from 1).
awk '/^## Use it in your project/ { on = 1; next } on && /^## / { exit } on' README.md > "$scratch/section"
block() { awk -v want="$1" '/^```/ { if (inb) { inb = 0; next } if ($0 == "```sh") { n++; inb = (n == want) } next } inb' "$scratch/section"; }
[ -n "$(block 1)" ] && [ -n "$(block 2)" ] || { echo "readme: the section's sh blocks are missing"; exit 1; }

# 1. Build and install, line by line, comments stripped.
block 1 | sed 's/ *#.*$//' | grep -v '^ *$' > "$scratch/install.sh"
grep -q 'HOME/opt/bspram' "$scratch/install.sh" || { echo "readme: no install to \$HOME/opt/bspram"; exit 1; }
grep -v '^sudo ' "$scratch/install.sh" > "$scratch/install_here.sh" || true
if grep -Eq -- '(^| )(-j|--parallel)( *$| *&&| +-)' "$scratch/install.sh"; then
  echo "readme: the build line runs an unbounded number of jobs (-j without a number)"; exit 1
fi
sh -e "$scratch/install_here.sh" > "$scratch/install.log" 2>&1 || {
  tail -20 "$scratch/install.log"; echo "readme: the install commands failed"; exit 1; }
P="$HOME/opt/bspram"
# The install-only configuration: no test or benchmark is built.
built=$(find . -path ./.git -prune -o -name '*.o' -print | grep -c '/tests/\|/bench/' || true)
[ "$built" -eq 0 ] || { echo "readme: the install built $built objects of tests and benchmarks"; exit 1; }

# 2. The section's exports for that prefix, as written.
exports=$(grep -o 'export PKG_CONFIG_PATH=[^`]*' "$scratch/section" || true)
[ -n "$exports" ] || { echo "readme: no export line"; exit 1; }
eval "$exports"
[ "$(command -v bspram || true)" = "$P/bin/bspram" ] || {
  echo "readme: after the exports, bspram on PATH is '$(command -v bspram || true)', not $P/bin/bspram"; exit 1; }
bspram --version | grep -q '^bspram ' || { echo "readme: bspram --version"; exit 1; }
pc_prefix=$(pkg-config --variable=prefix bspram || true) # may be relative to the .pc file
[ -n "$pc_prefix" ] && [ "$(cd "$pc_prefix" && pwd -P)" = "$(cd "$P" && pwd -P)" ] || {
  echo "readme: pkg-config finds bspram in '$pc_prefix', not $P"; exit 1; }
# loads_from <program>: its libbspram must be P's
loads_from() {
  lib=$(ldd "$1" | awk '/libbspram/ { print $3; exit }')
  case "$lib" in "$P"/*) ;; *) echo "readme: $1 loads '$lib', not P's library"; exit 1 ;; esac
}

# 3. Every C program of the README, as prog.c, by the section's cc line.
cc_line=$(block 2)
echo "$cc_line" | grep -q '^cc prog.c' || { echo "readme: the second block is not the cc line"; exit 1; }
awk -v dir="$scratch" '$0 == "```c" { n++; f = sprintf("%s/prog%d.c", dir, n); inb = 1; next } /^```/ { inb = 0; next } inb { print > f }' README.md
count=0
mkdir "$scratch/user"
for prog in "$scratch"/prog*.c; do
  cp "$prog" "$scratch/user/prog.c"
  (cd "$scratch/user" && sh -ec "$cc_line" > out 2>&1) || {
    cat "$scratch/user/out"; echo "readme: $(basename "$prog") failed by the cc line"; exit 1; }
  loads_from "$scratch/user/prog"
  count=$((count + 1))
done
[ "$count" -ge 2 ] || { echo "readme: found $count C programs"; exit 1; }

# 4. CMake, with the section's two lines and its -DCMAKE_PREFIX_PATH.
fp=$(grep -o 'find_package(bspram REQUIRED)' "$scratch/section" | head -n 1)
tl=$(grep -o 'target_link_libraries(prog PRIVATE bspram::bspram)' "$scratch/section" | head -n 1)
cmake_prefix=$(grep -o -- '-DCMAKE_PREFIX_PATH=[^`]*' "$scratch/section" | head -n 1 || true)
[ -n "$fp" ] && [ -n "$tl" ] && [ -n "$cmake_prefix" ] || { echo "readme: the CMake lines are missing"; exit 1; }
eval "cmake_prefix=$cmake_prefix" # as a shell would expand it
mkdir "$scratch/cmake"
cp "$scratch/prog1.c" "$scratch/cmake/prog.c"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(prog C)\n%s\nadd_executable(prog prog.c)\n%s\n' \
  "$fp" "$tl" > "$scratch/cmake/CMakeLists.txt"
cmake -S "$scratch/cmake" -B "$scratch/cmake/build" "$cmake_prefix" > "$scratch/cmake.log" 2>&1 &&
  cmake --build "$scratch/cmake/build" >> "$scratch/cmake.log" 2>&1 || {
  cat "$scratch/cmake.log"; echo "readme: find_package(bspram) failed"; exit 1; }
"$scratch/cmake/build/prog" > /dev/null || { echo "readme: the CMake-built program failed"; exit 1; }
loads_from "$scratch/cmake/build/prog"

# 5. Every `bspram` command of the README's sh blocks, from PATH, as written but for
# --runs (2 here; the tables' hundreds of runs take minutes) and for three kinds
# of line: `bspram probe` (a measurement: a loaded machine can fit a negative g,
# which it refuses; tests/cli/demo_probe.sh tests it), lines under mpirun (the
# MPI tests), and --output without gnuplot (tests/cli/table.sh skips it alike).
awk '$0 == "```sh" { inb = 1; next } /^```/ { inb = 0; next } inb' README.md | sed 's/ *#.*$//' |
  awk '{ if (sub(/\\$/, "")) { acc = acc $0; next } print acc $0; acc = "" }' |
  grep -E '^([A-Z_]+=[^ ]* )*bspram ' | grep -v '^bspram probe' |
  sed 's/--runs[ =][0-9]*/--runs 2/; /^bspram table/ { /--runs/! s/$/ --runs 2/; }' > "$scratch/commands" || true
if ! command -v gnuplot >/dev/null; then
  echo "readme: no gnuplot; the --output lines are left out"
  grep -v -- '--output' "$scratch/commands" > "$scratch/commands.now" || true
  mv "$scratch/commands.now" "$scratch/commands"
fi
[ "$(wc -l < "$scratch/commands")" -ge 5 ] || { echo "readme: found too few bspram commands"; exit 1; }
mkdir "$scratch/run"
commands=0
while IFS= read -r line; do
  (cd "$scratch/run" && sh -ec "$line" > out 2>&1 < /dev/null) || {
    tail -5 "$scratch/run/out"; echo "readme: failed as written: $line"; exit 1; }
  commands=$((commands + 1))
done < "$scratch/commands"
if grep -q -- '--output table3.svg' "$scratch/commands"; then # it ran
  [ -s "$scratch/run/table3.svg" ] || { echo "readme: no table3.svg"; exit 1; }
fi

# 6. The documentation where the section says.
[ -f "$P/share/doc/bspram/README.md" ] || { echo "readme: no $P/share/doc/bspram/README.md"; exit 1; }
echo "readme: install, PATH, $count programs by cc, one by CMake, $commands bspram commands: all as written"
