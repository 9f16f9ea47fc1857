#!/bin/sh
# bspram prof: the summary's BSP cost W/r + g*H + l*S equals the same sums
# taken from the trace here (awk), for a BSPlib program's CSV trace and its
# JSON twin; the picture (gnuplot) of that trace has the heat strips and the
# labels, and the one of a combining run its phases' labels; every bad
# option or file is one line and a non-zero exit, checked before any work:
# a trace that is no regular file, too large, or holds a bad value (named by
# file:line:column); an output that is the input, not .svg or .png, or did
# not fit on the disk; a stdout that cannot be written. A BSPRAM_TRACE FIFO
# without a reader does not hang the traced program.
# usage: prof.sh <bspram> <inprod example>
bspram=$1 inprod=$2 subcommand=prof
. "$(dirname "$0")/common.sh"
unset BSPRAM_PARAMS
export BSPRAM_PARAMS="$scratch/no-params" # no probe's figures: only those given

for ext in csv json; do
    BSPRAM_PATTERN=1 BSPRAM_TRACE="$scratch/inprod.$ext" "$inprod" 4 1000 >/dev/null 2>&1 ||
        fail "inprod did not run"
done
# Valiant's sums from the CSV itself: S rows, W = sum of work, H = sum of h_bytes.
want=$(awk -F, 'NR > 1 { s++; w += $11; h += $9 } END { printf "%.6g", (w / 2 + 0.5 * h + 300 * s) * 1e-9 }' \
    "$scratch/inprod.csv")
for ext in csv json; do
    run "$bspram" prof "$scratch/inprod.$ext" --g 0.5 --l 300 --rate 2
    got=$(sed -n 's/.*BSP cost W\/r + g\*H + l\*S = \([0-9.e+-]*\) s.*/\1/p' "$scratch/out")
    [ "$rc" -eq 0 ] && [ -n "$got" ] && [ "$got" = "$want" ] && ok ||
        { fail "prof $ext: exit $rc, BSP cost '$got', want '$want'"; cat "$scratch/out" "$scratch/err" >&2; }
done
# The by-label table's cost column: each label's W/r + g·H + l·S, summed here.
run "$bspram" prof "$scratch/inprod.csv" --g 0.5 --l 300 --rate 2
want=$(awk -F, 'NR > 1 && $3 == "bsp_sync" { c += ($11 / 2 + 0.5 * $9 + 300) * 1e-9 } END { printf "%.6f", c }' \
    "$scratch/inprod.csv")
got=$(awk '$1 == "bsp_sync" { print $NF }' "$scratch/out")
[ -n "$got" ] && [ "$got" = "$want" ] && ok || fail "the bsp_sync label's BSP cost: '$got', want '$want'"
run "$bspram" prof "$scratch/inprod.csv"
grep -q "no BSP cost: no g and l" "$scratch/out" && ok || fail "prof without g and l"
awk '$1 == "bsp_sync" { exit $NF == "-" ? 0 : 1 }' "$scratch/out" && ok || fail "a label's cost without g and l is not '-'"
# Without g and l given or saved by bspram probe, the ones the collectives
# measured on this machine for the trace's P (their cache) price the run,
# and the summary and the page say so (the page showed '-'); not a line
# measured under load, and not where BSPRAM_PARAMS or BSPRAM_PROBE=0 fix
# the figures, as the collectives themselves do.
gl_cache "$scratch/cache" 4 0.5 300 0.01
want=$(awk -F, 'NR > 1 { s++; h += $9 } END { printf "%.6g", (0.5 * h + 300 * s) * 1e-9 }' "$scratch/inprod.csv")
run env -u BSPRAM_PARAMS -u BSPRAM_PROBE XDG_CONFIG_HOME="$scratch/no-config" XDG_CACHE_HOME="$scratch/cache" \
    "$bspram" prof "$scratch/inprod.csv" --html "$scratch/gl.html"
got=$(sed -n 's/.*BSP cost W\/r + g\*H + l\*S = \([0-9.e+-]*\) s.*/\1/p' "$scratch/out")
[ "$rc" -eq 0 ] && [ "$got" = "$want" ] && grep -q "g = 0.5 ns per byte, l = 300 ns, W not priced: no rate, measured by the collectives for P = 4 on 20" "$scratch/out" \
    && ok || { fail "prof with the collectives' g and l: exit $rc, cost '$got', want '$want'"; cat "$scratch/out" "$scratch/err" >&2; }
grep -q '"g":0.5,"l":300,"rate":null,"glSource":"measured by the collectives for P = 4 on 20' "$scratch/gl.html" && ok \
    || fail "the page is not priced with the collectives' g and l, or does not say so"
gl_cache "$scratch/cache" 4 0.5 300 0.9
run env -u BSPRAM_PARAMS -u BSPRAM_PROBE XDG_CONFIG_HOME="$scratch/no-config" XDG_CACHE_HOME="$scratch/cache" "$bspram" prof "$scratch/inprod.csv"
grep -q "no BSP cost: no g and l" "$scratch/out" && ok || fail "prof priced with g and l measured under load"
gl_cache "$scratch/cache" 4 0.5 300 0.01
run env -u BSPRAM_PROBE XDG_CONFIG_HOME="$scratch/no-config" XDG_CACHE_HOME="$scratch/cache" "$bspram" prof "$scratch/inprod.csv"
grep -q "no BSP cost: no g and l" "$scratch/out" && ok || fail "prof priced with the collectives' g and l where BSPRAM_PARAMS is set"
run env -u BSPRAM_PARAMS BSPRAM_PROBE=0 XDG_CONFIG_HOME="$scratch/no-config" XDG_CACHE_HOME="$scratch/cache" \
    "$bspram" prof "$scratch/inprod.csv"
grep -q "no BSP cost: no g and l" "$scratch/out" && ok || fail "prof priced with the collectives' g and l under BSPRAM_PROBE=0"
gl_cache "$scratch/cache" 8 0.5 300 0.01
run env -u BSPRAM_PARAMS -u BSPRAM_PROBE XDG_CONFIG_HOME="$scratch/no-config" XDG_CACHE_HOME="$scratch/cache" "$bspram" prof "$scratch/inprod.csv"
grep -q "no BSP cost: no g and l" "$scratch/out" && ok || fail "prof priced P = 4 with the g and l of P = 8"

if command -v gnuplot >/dev/null 2>&1; then
    run "$bspram" prof "$scratch/inprod.csv" --g 0.5 --l 300 --output "$scratch/inprod.svg"
    svg="$scratch/inprod.svg"
    [ "$rc" -eq 0 ] && [ -s "$svg" ] && grep -q "bytes sent per process" "$svg" &&
        grep -q "bytes received per process" "$svg" && grep -q "bsp_sync" "$svg" &&
        grep -q "predicted w/r + g h + l" "$svg" && ok || { fail "prof --output: exit $rc"; cat "$scratch/err" >&2; }
    BSPRAM_TRACE="$scratch/combine.csv" "$bspram" table --p 16 --v 64 --degrees 1,4 --basis 4x4 --runs 1 \
        --format csv >/dev/null
    run "$bspram" prof "$scratch/combine.csv" --output "$scratch/combine.svg"
    [ "$rc" -eq 0 ] && grep -q "combine:forward:1" "$scratch/combine.svg" && grep -q "combine:forward:2" "$scratch/combine.svg" &&
        ! grep -q "bytes sent per process" "$scratch/combine.svg" && ok ||
        { fail "prof of a combining run: exit $rc"; cat "$scratch/err" >&2; }
    # A long run: more supersteps than the picture has pixels sends the
    # user to the page; a short one (above) does not.
    ! grep -q "^note: .*--html" "$scratch/out" && ok || fail "a note on --html for a short run"
    BSPRAM_TRACE="$scratch/many.csv" "$bspram" demo --p 4 --h 1 --supersteps 700 >/dev/null || fail "demo did not run"
    run "$bspram" prof "$scratch/many.csv" --g 0.5 --l 300 --output "$scratch/many.svg"
    [ "$rc" -eq 0 ] && grep -q "^note: 701 supersteps in a picture 620 pixels wide; --html FILE draws them" "$scratch/out" \
        && ok || { fail "prof --output of 701 supersteps: exit $rc, no note on --html"; tail -n 2 "$scratch/out" >&2; }
    expect_error "missing directory" "--output $scratch/no/dir/x.svg: cannot write in" "$scratch/inprod.csv" \
        --output "$scratch/no/dir/x.svg"
    # The picture's format by its name: PNG (gnuplot's pngcairo) for .png,
    # anything but .svg and .png refused (an SVG went under any name).
    run "$bspram" prof "$scratch/inprod.csv" -o "$scratch/inprod.png"
    [ "$rc" -eq 0 ] && [ "$(head -c 8 "$scratch/inprod.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
        && ok || { fail "prof -o x.png: exit $rc, not a PNG"; cat "$scratch/err" >&2; }
    expect_usage "-o x.txt" "--output $scratch/x.txt: the name must end in .svg (SVG) or .png (PNG)" \
        "$scratch/inprod.csv" -o "$scratch/x.txt"
    [ ! -e "$scratch/x.txt" ] && ok || fail "-o x.txt: a file was written"
    # The output is never the input, by any name (it was overwritten).
    cp "$scratch/inprod.csv" "$scratch/T.csv"
    ln "$scratch/T.csv" "$scratch/T.svg"
    for out in "$scratch/T.csv" "$scratch/T.svg"; do
        expect_error "output $out is the input" "--output $out: is the input $scratch/T.csv" "$scratch/T.csv" --output "$out"
    done
    cmp -s "$scratch/T.csv" "$scratch/inprod.csv" && ok || fail "the input was overwritten"
    # A full disk: gnuplot exits 0 and leaves an empty SVG; prof says so, exit 1,
    # and leaves no picture that only looks written. (Needs root to mount.)
    mkdir "$scratch/full"
    if mount -t tmpfs -o size=16k tmpfs "$scratch/full" 2>/dev/null; then
        trap 'umount "$scratch/full" 2>/dev/null; rm -rf "$scratch"' EXIT
        dd if=/dev/zero of="$scratch/full/fill" bs=1k count=64 2>/dev/null
        for ext in svg png; do
            expect_error "full disk ($ext)" "--output $scratch/full/x.$ext: gnuplot wrote nothing (0 bytes: is the disk full?)" \
                "$scratch/inprod.csv" --output "$scratch/full/x.$ext"
            [ ! -e "$scratch/full/x.$ext" ] && ok || fail "full disk: x.$ext left behind"
        done
        rm -f "$scratch/full/fill" # room for part of it: an SVG cut short
        # An earlier picture at the path stays as it was (it was removed).
        echo "the earlier picture" > "$scratch/full/x.svg"
        expect_error "disk full midway" "gnuplot wrote an incomplete SVG" "$scratch/inprod.csv" --output "$scratch/full/x.svg"
        [ "$(cat "$scratch/full/x.svg")" = "the earlier picture" ] && [ "$(ls -A "$scratch/full" | wc -l)" -eq 1 ] \
            && ok || fail "disk full midway: the earlier picture not kept, or a file left beside it"
        umount "$scratch/full"
    else
        echo "skipped: the full-disk case (mounting a tmpfs needs root)"
    fi
else
    echo "skipped: gnuplot not installed"
fi

# Numbers are read whole: strtod took a leading space, '+' and hex.
for v in " 1" "+1" "0x10" "1e400" "nan" "-1"; do
    expect_error "--g '$v'" "--g '$v': not a finite number >= 0" "$scratch/inprod.csv" --g "$v" --l 300
    expect_error "--rate '$v'" "--rate '$v': not a finite number >= 0" "$scratch/inprod.csv" --rate "$v"
done

# --html: the page's name and place checked before the trace is read.
expect_usage "--html x.txt" "--html $scratch/x.txt: the name must end in .html" "$scratch/inprod.csv" --html "$scratch/x.txt"
[ ! -e "$scratch/x.txt" ] && ok || fail "--html x.txt: a file was written"
expect_error "--html a directory" "--html $scratch: is a directory" "$scratch/inprod.csv" --html "$scratch"
expect_error "--html no directory" "--html $scratch/no/x.html: cannot write in $scratch/no" "$scratch/inprod.csv" \
    --html "$scratch/no/x.html"
# A picture's name in neither .svg nor .png is a bad value: a usage error
# (exit 2, as docs/cli.md says), with or without gnuplot (it was exit 1).
expect_usage "--output x.gif" "--output $scratch/x.gif: the name must end in .svg (SVG) or .png (PNG)" \
    "$scratch/inprod.csv" --output "$scratch/x.gif"
run env PATH=/nonexistent "$bspram" prof "$scratch/inprod.csv" --output "$scratch/x.gif"
[ "$rc" -eq 2 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "must end in .svg" "$scratch/err" && ok \
    || { fail "--output x.gif without gnuplot: exit $rc (want 2)"; cat "$scratch/err" >&2; }
[ ! -e "$scratch/x.gif" ] && ok || fail "--output x.gif: a file was written"
# --output and --html naming one file, existing or not: a usage error
# before the trace is read (only the same spelling was refused).
expect_usage "--output and --html one new file" "name the same file" "$scratch/inprod.csv" \
    --output "$scratch/P.svg" --html "$scratch/./P.svg"
expect_usage "--output and --html one name" "--output and --html name the same file $scratch/P.svg" \
    "$scratch/inprod.csv" --output "$scratch/P.svg" --html "$scratch/P.svg"
[ ! -e "$scratch/P.svg" ] && ok || fail "--output and --html one file: a file was written"
cp "$scratch/inprod.csv" "$scratch/I.csv"
ln "$scratch/I.csv" "$scratch/I.html"
expect_error "--html the input" "--html $scratch/I.html: is the input $scratch/I.csv" "$scratch/I.csv" --html "$scratch/I.html"
cmp -s "$scratch/I.csv" "$scratch/inprod.csv" && ok || fail "--html: the input was overwritten"
expect_usage "--html missing trace" "TRACE '$scratch/none.csv': no such file" "$scratch/none.csv" --html "$scratch/y.html"
[ ! -e "$scratch/y.html" ] && ok || fail "--html: a page of a trace that could not be read"
if mkdir "$scratch/fullh" && mount -t tmpfs -o size=8k tmpfs "$scratch/fullh" 2>/dev/null; then
    expect_error "--html on a full disk" "--html $scratch/fullh/x.html: cannot write: No space left on device" \
        "$scratch/inprod.csv" --html "$scratch/fullh/x.html"
    [ ! -e "$scratch/fullh/x.html" ] && ok || fail "--html on a full disk: the page cut short is left"
    # An earlier page at the path stays as it was (it was removed).
    echo "the earlier page" > "$scratch/fullh/x.html"
    expect_error "--html over a page on a full disk" "--html $scratch/fullh/x.html: cannot write: No space left on device" \
        "$scratch/inprod.csv" --html "$scratch/fullh/x.html"
    [ "$(cat "$scratch/fullh/x.html")" = "the earlier page" ] && [ "$(ls -A "$scratch/fullh" | wc -l)" -eq 1 ] \
        && ok || fail "--html on a full disk: the earlier page not kept, or a file left beside it"
    umount "$scratch/fullh"
fi

# The trace is whatever the user named: only a regular file is read, to a
# bounded size and line length (tools/trace_read.h), every value checked and
# the first bad one named by file:line:column. Before, a FIFO hung, /dev/zero
# grew to gigabytes, and p = -3, nan times or sums that wrap printed as
# figures with exit 0. (A hang is a failure within 120 s, not a stuck test.)
run_timeout=120
mkfifo "$scratch/fifo"
expect_error "a FIFO" "bspram prof: $scratch/fifo: not a regular file (a FIFO)" "$scratch/fifo"
expect_error "/dev/zero" "bspram prof: /dev/zero: not a regular file (a character device)" /dev/zero
expect_error "/dev/null" "bspram prof: /dev/null: not a regular file" /dev/null
expect_error "a directory" "bspram prof: $scratch: is a directory" "$scratch"
: >"$scratch/empty.csv"
expect_error "an empty file" "empty.csv: an empty file, not a bspram trace" "$scratch/empty.csv"
head -1 "$scratch/inprod.csv" >"$scratch/header.csv"
expect_error "a header only" "header.csv: holds no superstep" "$scratch/header.csv"
if truncate -s 4G "$scratch/huge.csv" 2>/dev/null; then # sparse: no disk used
    expect_error "4 GiB without a newline" "huge.csv: larger than 1 GiB" "$scratch/huge.csv"
    rm -f "$scratch/huge.csv"
fi
if truncate -s 257M "$scratch/long.csv" 2>/dev/null; then
    expect_error "a line past 256 MiB" "long.csv:1:268435457: a line longer than 256 MiB" "$scratch/long.csv"
    rm -f "$scratch/long.csv"
fi
header=$(head -1 "$scratch/inprod.csv")
row() { printf '%s\n%s\n' "$header" "$1" >"$scratch/row.csv"; }
row '0,0,x,1,8,1,1,1,8,8,0,0.1,0.1,-3,-'
expect_error "p = -3" "row.csv:2:31: p '-3': not a whole number in [1, 4294967295]" "$scratch/row.csv"
row '0,0,x,-1,8,1,1,1,8,8,0,0.1,0.1,4,-'
expect_error "a negative count" "row.csv:2:7: messages '-1': not a whole number" "$scratch/row.csv"
for t in nan inf -0.5 1e999; do
    row "0,0,x,1,8,1,1,1,8,8,0,$t,0.1,4,-"
    expect_error "time $t" "row.csv:2:23: seconds '$t': not a finite number of seconds >= 0" "$scratch/row.csv"
done
printf '%s\n0,0,x,1,8,1,1,1,8,8,18446744073709551615,0.1,0.1,4,-,-\n0,1,x,1,8,1,1,1,8,8,1,0.1,0.1,4,-,-\n' \
    "$header" >"$scratch/wrap.csv"
expect_error "a sum that wraps" "wrap.csv:3:21: work: machine 0's sum over its rows passes 2^64 - 1" "$scratch/wrap.csv"
# The loads column: the most work of the processes is the row's w; loads
# come with the flows; a trace from before the column is read as it was.
row '0,0,x,1,8,1,1,1,8,8,5,0.1,0.1,2,0:1:1:8:8,5:0.1 4:0.1'
run "$bspram" prof "$scratch/row.csv"
[ "$rc" -eq 0 ] && ok || fail "loads: a good row refused: $(cat "$scratch/err")"
row '0,0,x,1,8,1,1,1,8,8,5,0.1,0.1,2,0:1:1:8:8,3:0.1 4:0.1'
expect_error "loads against w" "row.csv:2:43: the loads' most work is 4, the row's work is 5" "$scratch/row.csv"
row '0,0,x,1,8,1,1,1,8,8,5,0.1,0.1,2,0:1:1:8:8,5:0.1'
expect_error "loads short of p" "row.csv:2:48: expected ' ' between loads" "$scratch/row.csv"
row '0,0,x,1,8,1,1,1,8,8,5,0.1,0.1,4294967295,0:1:1:8:8,5:0.1'
expect_error "loads of a huge p" "row.csv:2:52: the loads: this line cannot hold p = 4294967295 of them" "$scratch/row.csv"
row '0,0,x,1,8,1,1,1,8,8,5,0.1,0.1,2,-,5:0.1 4:0.1'
expect_error "loads without flows" "loads without flows" "$scratch/row.csv"
row '0,0,x,1,8,1,1,1,8,8,5,0.1,0.1,2,0:1:1:8:8,5:nan 4:0.1'
expect_error "a load's time" "process 0's seconds 'nan': not a finite number of seconds >= 0" "$scratch/row.csv"
printf '%s\n0,0,x,1,8,1,1,1,8,8,0,0.1,0.1,4,-\n' "${header%,loads}" >"$scratch/old.csv"
run "$bspram" prof "$scratch/old.csv"
[ "$rc" -eq 0 ] && grep -q "S = 1 supersteps" "$scratch/out" && ok || fail "a trace without loads: exit $rc $(cat "$scratch/err")"
printf '%s\n0,0,x,1,8,1,1,1,8,8,0,0.1,0.1,4,-' "$header" >"$scratch/cut.csv"
expect_error "no newline at the end" "cut.csv:2:34: the file ends inside this line" "$scratch/cut.csv"
# A trace cut short inside a row anywhere (a full disk, a copy stopped
# midway) is refused in one line, never read as the rows before it.
for ext in csv json; do
    size=$(wc -c <"$scratch/inprod.$ext")
    for k in $(seq 1 24); do
        head -c $((size * k / 25)) "$scratch/inprod.$ext" >"$scratch/torn.$ext"
        [ "$(tail -c 1 "$scratch/torn.$ext" | od -An -c | tr -d ' ')" = '\n' ] && continue
        expect_error "cut at byte $((size * k / 25)) ($ext)" "the file ends inside this line (no newline: a trace cut short?)" \
            "$scratch/torn.$ext"
    done
done
sed 's/"p": 4,/"p": -3,/' "$scratch/inprod.json" >"$scratch/bad.json"
expect_error "JSON p = -3" "bad.json:2:" "$scratch/bad.json"
grep -q "p '-3': not a whole number" "$scratch/err" && ok || fail "JSON p = -3: $(cat "$scratch/err")"
run_timeout=120

# What prof prints must reach its file: on a full device, one line and exit 1.
timeout 120 "$bspram" prof "$scratch/inprod.csv" >/dev/full 2>"$scratch/err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "bspram prof: cannot write the output: No space left" "$scratch/err" \
    && ok || { fail "prof >/dev/full: exit $rc"; cat "$scratch/err" >&2; }

# BSPRAM_TRACE naming a FIFO that no process reads: one line, and the program
# ends as it would have without the trace (docs/environment.md); it hung.
BSPRAM_TRACE="$scratch/fifo" timeout 120 "$inprod" 4 100 >/dev/null 2>"$scratch/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "BSPRAM_TRACE=$scratch/fifo: cannot write the trace: a FIFO that no process reads" "$scratch/err" \
    && ok || { fail "BSPRAM_TRACE=FIFO: exit $rc"; cat "$scratch/err" >&2; }

expect_error "no trace" "bspram prof: no TRACE given"
expect_usage "missing trace" "bspram prof: TRACE '$scratch/none.csv': no such file" "$scratch/none.csv"
printf 'not,a,trace\n' >"$scratch/bad.csv"
expect_error "not a trace" "not a bspram trace" "$scratch/bad.csv"
expect_error "unknown option" "bspram prof: unknown option '--bogus'" "$scratch/inprod.csv" --bogus 1
expect_error "missing value" "bspram prof: --g needs a value" "$scratch/inprod.csv" --g
expect_error "bad number" "bspram prof: --l 'x': not a finite number >= 0" "$scratch/inprod.csv" --g 1 --l x
expect_error "g without l" "give both --g and --l" "$scratch/inprod.csv" --g 1
expect_error "no such machine" "has no machine 7" "$scratch/inprod.csv" --machine 7
expect_error "two traces" "one TRACE at a time" "$scratch/inprod.csv" "$scratch/inprod.json"

echo "prof_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
