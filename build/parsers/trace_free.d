build/parsers/trace_free.o: parsers/trace_free.c \
 include/reclaim_replay/event.h
include/reclaim_replay/event.h:
