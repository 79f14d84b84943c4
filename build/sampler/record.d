build/sampler/record.o: sampler/record.c sampler/lc_cmd.h
sampler/lc_cmd.h:
