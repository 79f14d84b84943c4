build/sampler/lc_util.o: sampler/lc_util.c sampler/lc_util.h
sampler/lc_util.h:
