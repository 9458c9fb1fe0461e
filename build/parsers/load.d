build/parsers/load.o: parsers/load.c parsers/parser.h \
 include/reclaim_replay/event.h include/reclaim_replay/error.h \
 include/reclaim_replay/trace.h
parsers/parser.h:
include/reclaim_replay/event.h:
include/reclaim_replay/error.h:
include/reclaim_replay/trace.h:
