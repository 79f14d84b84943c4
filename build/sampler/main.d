build/sampler/main.o: sampler/main.c sampler/lc_cmd.h
sampler/lc_cmd.h:
