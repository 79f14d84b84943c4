build/postproc/report.o: postproc/report.c sampler/lc_cmd.h
sampler/lc_cmd.h:
