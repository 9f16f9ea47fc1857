#!/bin/sh
# Install what bspram needs on Debian 12 (run as root, or with sudo available).
set -eu
# clang, its runtime libraries (libFuzzer, sanitizers) and LLVM's OpenMP runtime:
# the ThreadSanitizer run (BSPRAM_TSAN=1 scripts/test.sh) and fuzz/run.sh.
# Open MPI: libbspram-mpi, the bspram command under mpirun, and their tests.
# doxygen: the API documentation from the headers (built and installed with the
# library when found; the target doc).
# chromium: the tests that render the command's HTML pages in a real browser,
# headless (tests/browser/).
pkgs="build-essential cmake pkg-config libxxhash-dev gnuplot-nox clang libclang-rt-dev libomp-dev libomp-14-dev
      libopenmpi-dev openmpi-bin doxygen chromium"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
