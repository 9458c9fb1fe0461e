build/parsers/tracedat.o: parsers/tracedat.c parsers/parser.h \
 include/reclaim_replay/event.h parsers/trace_builder.h \
 parsers/event_table.h include/reclaim_replay/error.h
parsers/parser.h:
include/reclaim_replay/event.h:
parsers/trace_builder.h:
parsers/event_table.h:
include/reclaim_replay/error.h:
