build/parsers/trace_builder.o: parsers/trace_builder.c \
 parsers/trace_builder.h include/reclaim_replay/event.h \
 parsers/event_table.h include/reclaim_replay/error.h
parsers/trace_builder.h:
include/reclaim_replay/event.h:
parsers/event_table.h:
include/reclaim_replay/error.h:
