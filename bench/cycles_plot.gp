# Valiant's Table 3 on the cycle model (§5): the factor against the degree
# for the bases 32x8x4x4 and 32x16x8, bulk-synchronous (cycles-sync) and
# asynchronous, each point the mean over the runs with its spread (factor_sd)
# as an error bar, beside Valiant's charge-based factors. Reads the pooled
# files of bench/cycles_tables.sh:
#   bench/cycles_tables.sh build/bspram OUT cycles-sync
#   bench/cycles_tables.sh build/bspram OUT async
#   gnuplot -e "dir='OUT'; out='docs/combining_async.svg'" bench/cycles_plot.gp
if (!exists("dir")) dir = 'cycles500'
if (!exists("out")) out = 'combining_async.svg'
set terminal svg size 900,620 dynamic noenhanced font 'sans,13'
set output out
set datafile separator ','
set title "Valiant's Table 3 in cycles: p = 4096, v = 2^17, no degree knowledge"
set xlabel 'degree'
set ylabel 'factor (cycles over the degree-1 one-phase baseline)'
set logscale x 2
set xrange [0.7:5800]
set yrange [1.5:4.5]
set grid
set key outside below maxrows 3
sync = dir.'/cycles-sync-simple.csv'
async = dir.'/async-simple.csv'
# columns: table,basis,degree,runs,baseline,factor,factor_sd,paper_factor
row(b) = sprintf('< grep "^paper:3:[a-z-]*,%s," ', b)
plot row('32x8x4x4').sync using 3:6:7 with yerrorlines lc 1 pt 7 title '32x8x4x4 bulk-synchronous', \
     row('32x8x4x4').async using 3:6:7 with yerrorlines lc 1 dt 2 pt 6 title '32x8x4x4 asynchronous', \
     row('32x8x4x4').sync using 3:8 with points lc 1 pt 2 title '32x8x4x4 Valiant (charges)', \
     row('32x16x8').sync using 3:6:7 with yerrorlines lc 2 pt 7 title '32x16x8 bulk-synchronous', \
     row('32x16x8').async using 3:6:7 with yerrorlines lc 2 dt 2 pt 6 title '32x16x8 asynchronous', \
     row('32x16x8').sync using 3:8 with points lc 2 pt 2 title '32x16x8 Valiant (charges)'
