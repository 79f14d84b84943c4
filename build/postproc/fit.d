build/postproc/fit.o: postproc/fit.c sampler/lc_cmd.h
sampler/lc_cmd.h:
