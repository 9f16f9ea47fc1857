#!/bin/sh
# Run a test program on N MPI ranks of this machine (libbspram-mpi) and fail
# unless every rank is content: mpirun's status is 0, and no process printed
# a failed check (processes on ranks other than 0 count their failures in
# their own memory, which the program's report on rank 0 does not see).
# usage: run.sh <N> <program> [args...]
# Containers may forbid the cross-process reads of Open MPI's shared-memory transport.
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
set -u
n=$1; shift
flags="--oversubscribe"
[ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# shellcheck disable=SC2086
timeout 1700 mpirun $flags -np "$n" "$@" > "$out" 2>&1
status=$?
cat "$out"
if [ "$status" -ne 0 ]; then
  echo "mpi/run.sh: mpirun -np $n $* exited with status $status" >&2
  exit 1
fi
if grep -q "failed on pid\|CHECK failed" "$out"; then
  echo "mpi/run.sh: a process on some rank failed a check" >&2
  exit 1
fi
