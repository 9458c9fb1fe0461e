build/analyzer/error.o: analyzer/error.c include/reclaim_replay/error.h
include/reclaim_replay/error.h:
