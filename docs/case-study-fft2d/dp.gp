# written by lostcycles compose
set xlabel 'n'
set ylabel "T (seconds)"
set logscale y
set title 'docs/case-study-fft2d/dp.lcm' noenhanced
set key left top noenhanced
plot 'docs/case-study-fft2d/dp.data' index 0 using 1:2:3 with yerrorlines lw 2 title 'dp.lcm predicted p=1', \
     'docs/case-study-fft2d/dp.data' index 0 using 1:5 with points pt 7 ps 1.5 title 'dp.lcm measured p=1', \
     'docs/case-study-fft2d/dp.data' index 1 using 1:2:3 with yerrorlines lw 2 title 'dp.lcm predicted p=2', \
     'docs/case-study-fft2d/dp.data' index 1 using 1:5 with points pt 7 ps 1.5 title 'dp.lcm measured p=2'
