build/pic/flaglib/flags.o: flaglib/flags.c flaglib/lostcycles.h
flaglib/lostcycles.h:
