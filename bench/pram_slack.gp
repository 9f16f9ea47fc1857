# The PRAM's slowdown against slack (bench_pram slack): one EREW step and one
# CRCW-arbitrary step (degree 64) on p = 1024 components, with the engine's
# default options (AUTO, no degree hint) and with the degree as AUTO's hint.
#   ./build/bench/bench_pram slack 5 2 pram_slack.dat
#   gnuplot -e "dat='pram_slack.dat'; out='pram_slack.png'" bench/pram_slack.gp
if (!exists("dat")) dat = 'pram_slack.dat'
if (!exists("out")) out = 'pram_slack.png'
set terminal pngcairo size 800,520 noenhanced
set output out
set title 'PRAM emulation on p = 1024: slowdown = charge / (steps * n/p)'
set xlabel 'slack n/p'
set ylabel 'slowdown'
set logscale x 2
set logscale y 2
set grid
set key top right
plot dat using 1:2 with linespoints lc 1 pt 7 title 'EREW step, AUTO', \
     dat using 1:4 with linespoints lc 1 dt 2 pt 6 title 'EREW step, AUTO:1', \
     dat using 1:3 with linespoints lc 2 pt 7 title 'CRCW step (degree 64), AUTO', \
     dat using 1:5 with linespoints lc 2 dt 2 pt 6 title 'CRCW step, AUTO:64', \
     1 with lines lc 0 dt 3 title 'ideal'
