build/postproc/predict.o: postproc/predict.c sampler/lc_cmd.h
sampler/lc_cmd.h:
